/**
 * Reading payloads, part 2: NDJSON / JSONL (`.ndjson`, `.jsonl`, or stdin with `--ndjson`), one
 * payload per line, streamed in chunks so a log of a million requests is read in constant memory.
 */
import type { ReadStream } from "node:fs";
import type { PlatformBuffer, ReadableLike } from "../platform/index.js";
import {
  chunksOf,
  decode,
  type PayloadSource,
  DEFAULT_MAX_LINE_BYTES,
  looksBinary,
  parse,
  type PayloadHandler,
  type ReadOptions,
  type ReadProblem,
} from "./decode.js";
import { limitSize } from "../words/index.js";

/** The problem of a line longer than `limit` bytes (`--max-line-bytes`). */
function tooLongProblem(limit: number): ReadProblem {
  return {
    rule: "lint/line-too-long",
    message: `line is longer than ${limitSize(limit)} (--max-line-bytes); skipped without being read: split the payload or raise the limit`,
  };
}

/**
 * One non-blank line (`buffer[start, end)`, its CR and BOM already cut) read into a payload and
 * handed over: the part of reading that `--jobs N` runs on worker threads (src/lint/jobs.ts).
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
  const parsed = parse(text, at, true);
  return handle(at, parsed.value, parsed.problem, parsed.warnings, text);
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
      eachLine(buffer, start, end, first, (b, s, e, line) => {
        sink.nonBlank++;
        return readLine(b, s, e, { source, line }, handle, limit);
      }),
    flush: () => {},
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
        await handle({ source, line: 1 }, undefined, {
          rule: "lint/binary-file",
          message: "the file is binary, not JSON or NDJSON; pass request payload files only",
        });
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
    await handle({ source, line: 1 }, undefined, {
      rule: "lint/empty-file",
      message: "the file holds no payload (empty or blank lines only); expected one JSON request payload per line",
    });
    return 1;
  }
  return own + lines.nonBlank;
}
