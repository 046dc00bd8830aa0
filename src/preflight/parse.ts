/**
 * What a file is, read from its bytes (not its name or Content-Type) with well-kept parsers:
 * `file-type` names the format from the first bytes; `mp4box` reads an MP4/MOV/M4A's `moov`
 * (its duration and each video track's frame rate), wherever it sits, once isobmff.ts found its
 * boxes sound; `mediabunny` reads a WebM's duration and frame rate; `music-metadata` reads the
 * duration of MP3 and WAV (spec 4.4, 8).
 *
 * This module runs only in the parser process (sandbox-child.ts), never in the process that
 * asked: a parse sees the bytes read so far (`ParseTask`) and answers with what it learned, or
 * with the bytes it needs next (`ParseStep`). media.ts reads those bytes, within the byte budget,
 * and asks again; sandbox.ts bounds each step's time and memory.
 */
import { checkIsoBmff } from "./isobmff.js";

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
  /** why its duration or frame rate was not read: "its stsz box lists 2147483648 samples in 8 bytes" */
  problem?: string;
}

/** The first read: enough for every format's header, and for a faststart MP4's `moov`. */
export const HEAD_BYTES = 64 * 1024;
/** At most this much more is read to find a `moov` at the end, or a WebM/MP3 header behind tags. */
export const DEEP_READ_BYTES = 4 * 1024 * 1024;

/** The bytes of one file read so far, as runs that do not touch; `size` once known. */
export interface ParseTask {
  size: number | undefined;
  runs: Array<{ start: number; bytes: Uint8Array }>;
  /** no more bytes will come (the budget is spent): answer with what the runs hold */
  final: boolean;
}

/** A parse's answer: what the file is, or the bytes it needs next (and what it knows so far). */
export type ParseStep = { done: MediaInfo } | { need: { start: number; length: number }; info: MediaInfo };

/** Thrown by a read of bytes not held yet: `start` is the first one missing. */
class NeedBytes extends Error {
  constructor(
    readonly start: number,
    readonly end: number,
  ) {
    super(`bytes ${start}-${end} are not read yet`);
  }
}

/** Random access to a task's runs: a read of bytes not held throws NeedBytes (or, when final, comes back short). */
class Held {
  constructor(private readonly task: ParseTask) {}

  get size(): number | undefined {
    return this.task.size;
  }

  /** bytes held in all */
  get total(): number {
    return this.task.runs.reduce((n, r) => n + r.bytes.length, 0);
  }

  /** the run holding `at`, if any */
  runAt(at: number): { start: number; bytes: Uint8Array } | undefined {
    return this.task.runs.find((r) => r.start <= at && at < r.start + r.bytes.length);
  }

  /** the bytes held from 0 on */
  prefix(): Uint8Array {
    return this.runAt(0)?.bytes ?? new Uint8Array(0);
  }

  read(start: number, length: number): Uint8Array {
    const end = this.size === undefined ? start + length : Math.min(start + length, this.size);
    if (end <= start) return new Uint8Array(0);
    const run = this.runAt(start);
    const held = run === undefined ? start : run.start + run.bytes.length;
    if (held < end && !this.task.final) throw new NeedBytes(held, end);
    if (run === undefined) return new Uint8Array(0);
    return run.bytes.subarray(start - run.start, Math.min(end, held) - run.start);
  }
}

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

/** One step of reading a file: what it is from its first bytes, then its duration and frame rate. */
export async function parseStep(task: ParseTask): Promise<ParseStep> {
  const held = new Held(task);
  const head = held.prefix().subarray(0, HEAD_BYTES);
  const { fileTypeFromBuffer } = await import("file-type");
  const type = await fileTypeFromBuffer(head);
  if (type === undefined) return { done: { family: "other", format: textFormat(head) } };
  const format = FORMATS[type.ext] ?? { family: "other", name: `a ${type.mime} file` };
  const info: MediaInfo = { family: format.family, format: format.name, ext: type.ext };
  if (format.reader === undefined) return { done: info };
  try {
    const read =
      format.reader === "isobmff"
        ? await readIsoBmff(held)
        : format.reader === "matroska"
          ? await readMatroska(held)
          : await readAudioStream(held, type.mime);
    return "need" in read ? { need: read.need, info } : { done: { ...info, ...read } };
  } catch (error) {
    if (error instanceof NeedBytes) return { need: { start: error.start, length: error.end - error.start }, info };
    // a parser's own failure on these bytes: the format is known, its duration is not
    return { done: { ...info, problem: "its parser failed on its bytes" } };
  }
}

type Read = Partial<MediaInfo> | { need: { start: number; length: number } };

/**
 * MP4, MOV, M4A: mp4box reads boxes and says where the next one it needs starts (a `moov` at
 * the end, past an `mdat` it skips by its header). Every box it is given was checked first
 * (isobmff.ts): sizes within their parents, tables no longer than their bytes.
 */
async function readIsoBmff(held: Held): Promise<Read> {
  const problem = checkIsoBmff(held);
  if (problem !== undefined) return { problem };
  const { createFile, MP4BoxBuffer, Log } = await import("mp4box");
  // mp4box logs what it skips (an unknown `©swr` box) with console.error, and has no level above
  // error: a preflight reports through its diagnostics only, so its log goes nowhere
  Log.error = () => {};
  const file = createFile();
  let movie: import("mp4box").Movie | undefined;
  file.onReady = (m) => {
    movie = m;
  };
  // each run once, from where mp4box asks (it keeps the buffer, so it gets its own copy); when
  // it asks for bytes it has (a box not whole yet), it needs those after them
  const given = new Set<number>();
  let next = 0;
  while (movie === undefined) {
    const run = held.runAt(next);
    if (run !== undefined && !given.has(run.start)) {
      given.add(run.start);
      const bytes = run.bytes.subarray(next - run.start);
      next = file.appendBuffer(MP4BoxBuffer.fromArrayBuffer(new Uint8Array(bytes).buffer, next));
      continue;
    }
    const from = run === undefined ? next : run.start + run.bytes.length;
    if (held.size !== undefined && from >= held.size) break;
    held.read(from, held.size === undefined ? DEEP_READ_BYTES : held.size - from); // NeedBytes, unless final
    break;
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
 * video packets' timestamps. A read of bytes not held yet asks for them by 64 KiB blocks, and at
 * least as many as are held (so a parse takes a few steps, not one per block).
 */
async function readMatroska(held: Held): Promise<Read> {
  const { Input, StreamSource, WEBM, MATROSKA } = await import("./mediabunny.js");
  let need: NeedBytes | undefined;
  const input = new Input({
    formats: [WEBM, MATROSKA],
    source: new StreamSource({
      getSize: () => held.size ?? held.prefix().length,
      read: (start, end) => {
        try {
          return held.read(start, end - start);
        } catch (error) {
          if (error instanceof NeedBytes) need ??= error;
          throw error;
        }
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
    // bytes not read yet (below), or what was read up to the budget: the rest stays unknown
  } finally {
    input.dispose();
  }
  if (need === undefined) return out;
  const start = Math.floor(need.start / HEAD_BYTES) * HEAD_BYTES;
  const end = Math.ceil(need.end / HEAD_BYTES) * HEAD_BYTES;
  return { need: { start, length: Math.max(end - start, held.total) } };
}

/** MP3, WAV, FLAC, Ogg: the header and the file's size give the duration (a CBR MP3 by its size). */
async function readAudioStream(held: Held, mimeType: string): Promise<Read> {
  const { parseWebStream } = await import("music-metadata");
  const bytes = held.prefix();
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new Uint8Array(bytes));
      controller.close();
    },
  });
  try {
    const fileInfo = held.size === undefined ? { mimeType } : { mimeType, size: held.size };
    const meta = await parseWebStream(stream, fileInfo, { duration: false, skipCovers: true });
    if (meta.format.duration !== undefined) return { duration: meta.format.duration };
  } catch {
    // the header runs past the bytes read so far (large ID3 tags): read more, below
  }
  const whole = held.size !== undefined && bytes.length >= held.size;
  if (whole || bytes.length < HEAD_BYTES) return {};
  // as many again (the budget stops it)
  held.read(bytes.length, bytes.length);
  return {};
}
