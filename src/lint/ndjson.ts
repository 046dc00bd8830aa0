/**
 * Reading payloads, part 2: NDJSON / JSONL (`.ndjson`, `.jsonl`, or stdin with `--ndjson`), one
 * payload per line, streamed in chunks so a log of a million requests is read in constant memory.
 */
import type { ReadStream } from "node:fs";
import type { PlatformBuffer, ReadableLike } from "../platform/index.js";
import {
  chunksOf,
  decode,
  duplicateWarnings,
  type PayloadSource,
  DEFAULT_MAX_LINE_BYTES,
  looksBinary,
  binaryProblem,
  parse,
  type PayloadHandler,
  type ReadOptions,
  type ReadProblem,
  type ReadWarning,
} from "./decode.js";
import { limitSize } from "../words/index.js";

/** The problem of a line longer than `limit` bytes (`--max-line-bytes`). */
export function tooLongProblem(limit: number): ReadProblem {
  return {
    rule: "lint/line-too-long",
    message: `line is longer than ${limitSize(limit)} (--max-line-bytes); skipped without being read: split the payload or raise the limit`,
  };
}

/** The problem of an NDJSON file without a payload (also a file linted by ranges, src/lint/jobs.ts). */
export function emptyProblem(): ReadProblem {
  // an empty log is more often a truncated export than a day without traffic: say so
  return {
    rule: "lint/empty-file",
    message: "the file holds no payload (empty or blank lines only); expected one JSON request payload per line",
  };
}

/**
 * One non-blank line (`buffer[start, end)`, its CR and BOM already cut) read into a payload and
 * handed over: the byte path, for runs that {@link readLines} does not decode at once.
 */
export function readLine(
  buffer: PlatformBuffer,
  start: number,
  end: number,
  at: PayloadSource,
  handle: PayloadHandler,
  limit: number,
): void | Promise<void> {
  if (end - start > limit) return handle(at, undefined, tooLongProblem(limit));
  const text = decode(buffer, start, end, at.line);
  if (typeof text !== "string") return handle(at, undefined, { rule: text.rule, message: text.message });
  return readText(text, at, handle);
}

/**
 * One line's text parsed and handed over (with the repeated keys the reader noticed): `parse`
 * without its result object on the common path (a line that parses), `parse` itself when not.
 */
function readText(text: string, at: PayloadSource, handle: PayloadHandler): void | Promise<void> {
  let value: unknown;
  let warnings: ReadWarning[] | undefined;
  try {
    value = JSON.parse(text);
    warnings = duplicateWarnings(text, value, at.line);
  } catch {
    const parsed = parse(text, at, true);
    return handle(at, parsed.value, parsed.problem, parsed.warnings, text);
  }
  return handle(at, value, undefined, warnings, text);
}

/**
 * A run this long or shorter is decoded to text at once (the reader's runs are what one chunk
 * holds of whole lines, 64 KiB; a longer one is a single line joined across chunks).
 */
const RUN_TEXT_MAX = 1 << 20;

/**
 * Reads whole lines `buffer[start, end)` (see {@link eachLine}), the first numbered `first`: each
 * non-blank one is parsed and handed to `handle`, after `seen` is told its length in bytes.
 * Returns the number of lines cut, blank ones too; a promise only when `handle` returned one.
 *
 * The run is decoded once and its lines are slices of that text (one call into the decoder per
 * 64 KiB instead of one per line, and JSON.parse reads a slice in place). Exact as the byte path
 * is: a run whose text holds U+FFFD (invalid UTF-8, or a U+FFFD written as such) goes line by line
 * through {@link readLine}, which says where the bytes are wrong; a newline byte is never part of
 * a UTF-8 sequence, so the text's lines are the bytes' lines; a line's length in bytes (the
 * `--max-line-bytes` check) is its length in characters when the run is ASCII, else counted.
 */
export function readLines(
  buffer: PlatformBuffer,
  start: number,
  end: number,
  first: number,
  source: string,
  handle: PayloadHandler,
  limit: number,
  seen: (bytes: number) => void,
): number | Promise<number> {
  let from = start;
  let line = first;
  const next = (): number | Promise<number> => {
    while (from <= end) {
      // a piece of whole lines of at most TEXT_PIECE bytes (a longer line: that line alone)
      let cut = end;
      if (end - from > TEXT_PIECE) {
        cut = buffer.lastIndexOf(10, from + TEXT_PIECE - 1);
        if (cut < from) cut = buffer.indexOf(10, from + TEXT_PIECE);
        if (cut === -1 || cut > end) cut = end;
      }
      const piece = readPiece(buffer, from, cut, line, source, handle, limit, seen);
      from = cut + 1;
      if (typeof piece !== "number")
        return piece.then((n) => {
          line += n;
          return next();
        });
      line += piece;
    }
    return line - first;
  };
  return next();
}

/**
 * What {@link readLines} decodes at once: 64 KiB, the stream reader's chunk. A `--jobs` range is
 * 256 KiB: decoded whole, its text was a large object (V8 allocates strings over ~128 KiB in
 * their own pages, mapped and unmapped each time), and decoding took 2.5 times as long a byte.
 */
const TEXT_PIECE = 64 * 1024;

/** {@link readLines} on one piece. */
function readPiece(
  buffer: PlatformBuffer,
  start: number,
  end: number,
  first: number,
  source: string,
  handle: PayloadHandler,
  limit: number,
  seen: (bytes: number) => void,
): number | Promise<number> {
  const text = end - start <= RUN_TEXT_MAX ? buffer.toString("utf8", start, end) : undefined;
  if (text === undefined || text.indexOf("\uFFFD") !== -1)
    return eachLine(buffer, start, end, first, (b, s, e, line) => {
      seen(e - s);
      return readLine(b, s, e, { source, line }, handle, limit);
    });
  const ascii = text.length === end - start;
  const length = text.length;
  let line = first;
  let from = 0;
  const loop = (): number | Promise<number> => {
    while (from <= length) {
      let e = text.indexOf("\n", from);
      if (e === -1) e = length;
      let s = from;
      const at = line;
      from = e + 1;
      line++;
      if (e > s && text.charCodeAt(e - 1) === 13) e--; // CRLF
      if (at === 1 && e > s && text.charCodeAt(s) === 0xfeff) s++; // BOM
      let blank = true;
      for (let i = s; i < e; i++) {
        const c = text.charCodeAt(i);
        if (c !== 32 && c !== 9 && c !== 13) {
          blank = false;
          break;
        }
      }
      if (blank) continue;
      const lineText = text.slice(s, e);
      const bytes = ascii ? e - s : Buffer.byteLength(lineText);
      seen(bytes);
      const where = { source, line: at };
      const done = bytes > limit ? handle(where, undefined, tooLongProblem(limit)) : readText(lineText, where, handle);
      if (done) return done.then(loop);
    }
    return line - first;
  };
  return loop();
}

/**
 * Cuts `buffer[start, end)`, whole lines (the last one without its newline), into lines numbered
 * from `first`, and hands each non-blank one to `each` with its CR (and on line 1 its BOM) cut.
 * Returns the number of lines it cut, blank ones too; a promise only when `each` returned one.
 * The inline reader and `--jobs` workers (src/lint/worker.ts) frame lines with it alike.
 */
export function eachLine(
  buffer: PlatformBuffer,
  start: number,
  end: number,
  first: number,
  each: (buffer: PlatformBuffer, start: number, end: number, line: number) => void | Promise<void>,
): number | Promise<number> {
  let line = first;
  let from = start;
  const loop = (): number | Promise<number> => {
    while (from <= end) {
      let newline = buffer.indexOf(10, from);
      if (newline === -1 || newline > end) newline = end;
      let s = from;
      let e = newline;
      const at = line;
      from = newline + 1;
      line++;
      if (e > s && buffer[e - 1] === 13) e--; // CRLF
      if (at === 1 && e - s >= 3 && buffer[s] === 0xef && buffer[s + 1] === 0xbb && buffer[s + 2] === 0xbf) s += 3; // BOM
      let blank = true;
      for (let i = s; i < e; i++) {
        const c = buffer[i];
        if (c !== 32 && c !== 9 && c !== 13) {
          blank = false;
          break;
        }
      }
      if (blank) continue;
      const done = each(buffer, s, e, at);
      if (done) return done.then(loop);
    }
    return line - first;
  };
  return loop();
}

/** The number of lines in `buffer[start, end)`, whole lines, the last one without its newline. */
export function countLines(buffer: PlatformBuffer, start: number, end: number): number {
  let n = 1;
  for (let i = buffer.indexOf(10, start); i !== -1 && i < end; i = buffer.indexOf(10, i + 1)) n++;
  return n;
}

/**
 * Where `readNdjson` sends the whole lines it cut from a stream: read here (the default), or
 * batched to worker threads (`--jobs N`, src/lint/jobs.ts), whose results come back in the same order.
 */
export interface LineSink {
  /** whole lines `buffer[start, end)` (see {@link eachLine}), the first numbered `first`: returns how many lines that is */
  lines(buffer: PlatformBuffer, start: number, end: number, first: number): number | Promise<number>;
  /** everything sent so far is reported: called before a result readNdjson reports itself, and at the end */
  flush(): void | Promise<void>;
  /** the non-blank lines sent so far (complete after `flush`) */
  readonly nonBlank: number;
}

/** The default sink: each non-blank line read and handled on this thread (also a `--jobs` batch's, src/lint/batch.ts). */
export function inlineSink(source: string, handle: PayloadHandler, limit: number): LineSink {
  const sink = {
    nonBlank: 0,
    lines: (buffer: PlatformBuffer, start: number, end: number, first: number) =>
      readLines(buffer, start, end, first, source, handle, limit, seen),
    flush: () => {},
  };
  const seen = (): void => {
    sink.nonBlank++;
  };
  return sink;
}

/**
 * Reads one NDJSON stream line by line; a malformed line is reported and the rest still read.
 * A line split across chunks is kept as a list of its parts and joined once, at its newline,
 * so a long line costs linear time (joining on every chunk was quadratic: 12 s for a 50 MB line
 * arriving in 64 KiB pipe chunks).
 */
export async function readNdjson(
  stream: ReadableLike,
  source: string,
  handle: PayloadHandler,
  options: ReadOptions = {},
  sink?: LineSink,
): Promise<number> {
  const limit = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const lines = sink ?? inlineSink(source, handle, limit);
  try {
    return await framed(stream, source, handle, limit, lines);
  } finally {
    await lines.flush();
  }
}

/**
 * readNdjson's loop: cuts the stream into runs of whole lines for the sink; what only it can tell
 * (binary, too long, empty) it reports itself, after a flush. Returns the number of payloads.
 */
async function framed(
  stream: ReadableLike,
  source: string,
  handle: PayloadHandler,
  limit: number,
  lines: LineSink,
): Promise<number> {
  let parts: Buffer[] = [];
  let pending = 0; // bytes in parts
  let line = 0; // the number of the last line sent
  let own = 0; // results reported here (too-long lines)
  let first = true;
  /** Sends whole lines `buffer[start, end)` on. */
  const send = async (buffer: Buffer, start: number, end: number): Promise<void> => {
    const sent = lines.lines(buffer, start, end, line + 1);
    line += typeof sent === "number" ? sent : await sent;
  };
  let skipping = false; // inside a line over the limit: drop bytes up to its newline
  for await (const chunk of chunksOf(stream)) {
    if (first) {
      first = false;
      if (looksBinary(chunk)) {
        await lines.flush();
        await handle({ source, line: 1 }, undefined, binaryProblem(chunk, "JSON or NDJSON"));
        if ("destroy" in stream) (stream as ReadStream).destroy();
        return 1;
      }
    }
    let start = 0;
    if (skipping) {
      const nl = chunk.indexOf(10);
      if (nl === -1) continue;
      skipping = false;
      start = nl + 1;
    }
    if (pending > 0) {
      // the line begun in earlier chunks, joined once at its newline
      const nl = chunk.indexOf(10, start);
      if (nl !== -1) {
        parts.push(chunk.subarray(start, nl));
        const joined = Buffer.concat(parts, pending + nl - start);
        parts = [];
        pending = 0;
        await send(joined, 0, joined.length);
        start = nl + 1;
      }
    }
    const last = chunk.lastIndexOf(10); // before start when a line is still pending
    if (last >= start) {
      await send(chunk, start, last);
      start = last + 1;
    }
    if (start < chunk.length) {
      parts.push(chunk.subarray(start));
      pending += chunk.length - start;
    }
    if (pending > limit) {
      // reported at its line and dropped up to its newline: a line is never buffered past the cap
      line++;
      own++;
      await lines.flush();
      await handle({ source, line }, undefined, tooLongProblem(limit));
      parts = [];
      pending = 0;
      skipping = true;
    }
  }
  if (pending > 0) {
    // no trailing newline
    const joined = Buffer.concat(parts, pending);
    await send(joined, 0, joined.length);
  }
  await lines.flush();
  if (own + lines.nonBlank === 0) {
    // an empty log is more often a truncated export than a day without traffic: say so
    await handle({ source, line: 1 }, undefined, emptyProblem());
    return 1;
  }
  return own + lines.nonBlank;
}
