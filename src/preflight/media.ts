/**
 * What a file is, read from its bytes (not its name or Content-Type) with well-kept parsers:
 * `file-type` names the format from the first bytes; `mp4box` reads an MP4/MOV/M4A's `moov`
 * (its duration and each video track's frame rate), wherever it sits; `mediabunny` reads a
 * WebM's duration and frame rate; `music-metadata` reads the duration of MP3 and WAV. Only the bytes these need are read (spec 4.4, 8).
 */
import type { ByteSource } from "./source.js";

/** What the preflight learned about one file. */
export interface MediaInfo {
  /** image, video or audio when the bytes say so */
  family: "image" | "video" | "audio" | "other";
  /** "a PNG image", "an MP4 video", "an HTML page", "unrecognised bytes" */
  format: string;
  /** file-type's extension: `png`, `mp4`; undefined when not recognised */
  ext?: string;
  /** seconds, when read */
  duration?: number;
  /** frames per second of the first video track, when read */
  fps?: number;
}

/** The first read: enough for every format's header, and for a faststart MP4's `moov`. */
export const HEAD_BYTES = 64 * 1024;
/** At most this much is read to find a `moov` at the end, or a WebM/MP3 header behind tags. */
export const DEEP_READ_BYTES = 4 * 1024 * 1024;

type Reader = "isobmff" | "matroska" | "stream";
interface Format {
  family: MediaInfo["family"];
  name: string;
  reader?: Reader;
}

/** file-type's extension → what the preflight calls it and how it reads duration and frame rate. */
const FORMATS: Readonly<Record<string, Format>> = {
  png: { family: "image", name: "a PNG image" },
  jpg: { family: "image", name: "a JPEG image" },
  webp: { family: "image", name: "a WebP image" },
  gif: { family: "image", name: "a GIF image" },
  bmp: { family: "image", name: "a BMP image" },
  tif: { family: "image", name: "a TIFF image" },
  avif: { family: "image", name: "an AVIF image" },
  heic: { family: "image", name: "a HEIC image" },
  ico: { family: "image", name: "an ICO image" },
  mp4: { family: "video", name: "an MP4 video", reader: "isobmff" },
  m4v: { family: "video", name: "an M4V video", reader: "isobmff" },
  mov: { family: "video", name: "a QuickTime (MOV) video", reader: "isobmff" },
  "3gp": { family: "video", name: "a 3GP video", reader: "isobmff" },
  webm: { family: "video", name: "a WebM video", reader: "matroska" },
  mkv: { family: "video", name: "a Matroska video", reader: "matroska" },
  m4a: { family: "audio", name: "an M4A audio file", reader: "isobmff" },
  mp3: { family: "audio", name: "an MP3 audio file", reader: "stream" },
  wav: { family: "audio", name: "a WAV audio file", reader: "stream" },
  flac: { family: "audio", name: "a FLAC audio file", reader: "stream" },
  ogg: { family: "audio", name: "an Ogg audio file", reader: "stream" },
  pdf: { family: "other", name: "a PDF document" },
};

/** Text formats file-type leaves to the caller: the start of the text names them. */
function textFormat(head: Uint8Array): string {
  const start = Buffer.from(head.subarray(0, 512)).toString("latin1").trimStart().slice(0, 64).toLowerCase();
  if (start.startsWith("<!doctype html") || start.startsWith("<html")) return "an HTML page";
  if (start.startsWith("<?xml") || start.startsWith("<svg")) return "an XML or SVG document";
  if (start.startsWith("{") || start.startsWith("[")) return "JSON text";
  return "unrecognised bytes";
}

/** Reads what a file is, its duration and frame rate when it is a video or audio file. */
export async function inspect(source: ByteSource): Promise<MediaInfo> {
  const head = await source.read(0, HEAD_BYTES);
  const { fileTypeFromBuffer } = await import("file-type");
  const type = await fileTypeFromBuffer(head);
  if (type === undefined) return { family: "other", format: textFormat(head) };
  const format = FORMATS[type.ext] ?? { family: "other", name: `a ${type.mime} file` };
  const info: MediaInfo = { family: format.family, format: format.name, ext: type.ext };
  if (format.reader === "isobmff") return { ...info, ...(await readIsoBmff(source, head)) };
  if (format.reader === "matroska") return { ...info, ...(await readMatroska(source, head)) };
  if (format.reader === "stream") return { ...info, ...(await readAudioStream(source, head, type.mime)) };
  return info;
}

/** MP4, MOV, M4A: mp4box reads boxes and says where the next one it needs starts (a `moov` at the end). */
async function readIsoBmff(source: ByteSource, head: Uint8Array): Promise<Partial<MediaInfo>> {
  const { createFile, MP4BoxBuffer, Log } = await import("mp4box");
  // mp4box logs what it skips (an unknown `©swr` box) with console.error, and has no level above
  // error: a preflight reports through its diagnostics only, so its log goes nowhere
  Log.error = () => {};
  const file = createFile();
  let movie: import("mp4box").Movie | undefined;
  file.onReady = (m) => {
    movie = m;
  };
  const append = (bytes: Uint8Array, at: number): number => {
    // mp4box keeps the buffer: give it its own (a Buffer's `.buffer` may be a shared pool)
    const copy = new Uint8Array(bytes).buffer;
    return file.appendBuffer(MP4BoxBuffer.fromArrayBuffer(copy, at));
  };
  let next = append(head, 0);
  let budget = DEEP_READ_BYTES;
  // each round reads from the next box mp4box needs (it skips an `mdat` by its header) to the end
  for (let round = 0; movie === undefined && round < 4 && budget > 0; round++) {
    if (source.size !== undefined && next >= source.size) break;
    const length = Math.min(budget, source.size === undefined ? budget : source.size - next);
    const bytes = await source.read(next, length);
    if (bytes.length === 0) break;
    budget -= bytes.length;
    next = append(bytes, next);
  }
  if (movie === undefined) file.flush();
  if (movie === undefined) return {};
  const out: Partial<MediaInfo> = {};
  if (movie.timescale > 0) out.duration = movie.duration / movie.timescale;
  const video = movie.videoTracks[0];
  if (video !== undefined && video.duration > 0 && video.timescale > 0)
    out.fps = (video.nb_samples * video.timescale) / video.duration;
  // an MP4 with sound only is an audio file, whatever its brand
  if (movie.videoTracks.length === 0 && movie.audioTracks.length > 0) out.family = "audio";
  return out;
}

/**
 * WebM, Matroska: mediabunny reads the Segment Info's duration and the frame rate from the first
 * video packets' timestamps, through 64 KiB blocks read once each, at most DEEP_READ_BYTES.
 */
async function readMatroska(source: ByteSource, head: Uint8Array): Promise<Partial<MediaInfo>> {
  const { Input, StreamSource, WEBM, MATROSKA } = await import("mediabunny");
  const blocks = new Map<number, Promise<Uint8Array>>([[0, Promise.resolve(head)]]);
  let budget = DEEP_READ_BYTES;
  const block = (n: number): Promise<Uint8Array> => {
    let found = blocks.get(n);
    if (found === undefined) {
      budget -= HEAD_BYTES;
      if (budget < 0) throw new Error("over the preflight's read budget");
      found = source.read(n * HEAD_BYTES, HEAD_BYTES);
      blocks.set(n, found);
    }
    return found;
  };
  const input = new Input({
    formats: [WEBM, MATROSKA],
    source: new StreamSource({
      getSize: () => source.size ?? head.length,
      read: async (start, end) => {
        const first = Math.floor(start / HEAD_BYTES);
        const last = Math.floor((end - 1) / HEAD_BYTES);
        const parts = await Promise.all(Array.from({ length: last - first + 1 }, (_, i) => block(first + i)));
        const joined = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
        return joined.subarray(start - first * HEAD_BYTES, end - first * HEAD_BYTES);
      },
    }),
  });
  const out: Partial<MediaInfo> = {};
  try {
    const duration = await input.getDurationFromMetadata();
    if (duration !== null) out.duration = duration;
    const video = await input.getPrimaryVideoTrack();
    if (video !== null) {
      const stats = await video.computePacketStats(48);
      if (stats.packetCount > 1 && Number.isFinite(stats.averagePacketRate)) out.fps = stats.averagePacketRate;
    }
  } catch {
    // what was read up to the budget: the rest stays unknown (a warning says so)
  } finally {
    input.dispose();
  }
  return out;
}

/** MP3, WAV, FLAC, Ogg: the header and the file's size give the duration (a CBR MP3 by its size). */
async function readAudioStream(source: ByteSource, head: Uint8Array, mimeType: string): Promise<Partial<MediaInfo>> {
  const { parseWebStream } = await import("music-metadata");
  let bytes = head;
  for (;;) {
    const chunk = bytes;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(chunk));
        controller.close();
      },
    });
    try {
      const fileInfo = source.size === undefined ? { mimeType } : { mimeType, size: source.size };
      const meta = await parseWebStream(stream, fileInfo, { duration: false, skipCovers: true });
      if (meta.format.duration !== undefined) return { duration: meta.format.duration };
    } catch {
      // the header runs past the bytes read so far (large ID3 tags): read more, below
    }
    const whole = source.size !== undefined && bytes.length >= source.size;
    if (whole || bytes.length >= DEEP_READ_BYTES || bytes.length < HEAD_BYTES) return {};
    const more = await source.read(bytes.length, bytes.length);
    if (more.length === 0) return {};
    bytes = Buffer.concat([bytes, more]);
  }
}
