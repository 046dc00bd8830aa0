// The request payloads the validator benches measure (bench/validators.mjs, and bench/lint.mjs (e)
// for the invalid path): one table, so both measure the very same payloads.

const img = (i) => `https://cdn.example.com/assets/keyframe-${i}.png?X-Amz-Signature=abc${i}`;
export const PAYLOADS = {
  "keyframes VALID": {
    prompt: "A cat walks across a sunny garden, stops at the pond and looks at its reflection",
    keyframes: [
      { image_url: img(0), frame_index: 0 },
      { image_url: img(1), frame_index: 60 },
      { image_url: img(2), frame_index: 120 },
    ],
    aspect_ratio: "16:9",
    duration: 5,
    generate_audio: true,
    resolution: "1080p",
  },
  "keyframes INVALID": {
    keyframes: [
      { image_url: img(0), frame_index: -1 },
      { image_url: 5, frame_index: 3 },
      { image_url: img(2), frame_index: 3 },
    ],
    aspect_ratio: "3:2",
    duration: 25,
    resolution: "720P",
  },
  "reference VALID": {
    prompt: "Use image 1 for the style and video 1 for the motion",
    aspect_ratio: "16:9",
    seed: 42,
    audio: true,
    duration: 10,
    enable_thinking: true,
    file_url: "https://docs.example.com/brief.pdf",
    web_url: null,
    reference_images: [img(0), img(1), img(2)],
    reference_videos: ["https://cdn.example.com/clip.mp4"],
    reference_audios: ["https://cdn.example.com/voice.mp3"],
    resolution: "1080p",
  },
  "reference INVALID": {
    seed: -1,
    duration: 31,
    aspect_ratio: "4K",
    enable_thinking: false,
    file_url: "https://docs.example.com/brief.pdf?token=secret",
    reference_images: Array.from({ length: 11 }, (_, i) => img(i)),
    reference_videos: ["not a url"],
    resolution: "720P",
  },
};
