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
  sizeText,
  type PayloadHandler,
  type ReadOptions,
  type ReadProblem,
} from "./decode.js";

/** The problem of a line longer than `limit` bytes (`--max-line-bytes`). */
function tooLongProblem(limit: number): ReadProblem {
  return {
    rule: "lint/line-too-long",
    message: `line is longer than ${sizeText(limit)} (--max-line-bytes); skipped without being read: split the payload or raise the limit`,
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
 * Where `readNdjson` sends each non-blank line: read here (the default), or batched to worker
 * threads (`--jobs N`, src/lint/jobs.ts), whose results come back in the same order.
 */
export interface LineSink {
  line(buffer: PlatformBuffer, start: number, end: number, at: PayloadSource): void | Promise<void>;
  /** everything sent so far is reported: called before a result readNdjson reports itself, and at the end */
  flush(): void | Promise<void>;
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
  const tooLong = (): ReadProblem => tooLongProblem(limit);
  const lines: LineSink = sink ?? {
    line: (buffer, start, end, at) => readLine(buffer, start, end, at, handle, limit),
    flush: () => {},
  };
  try {
    return await framed(stream, source, handle, limit, tooLong, lines);
  } finally {
    await lines.flush();
  }
}

/** readNdjson's loop: cuts the stream into lines; what only it can tell (binary, too long, empty) it reports after a flush. */
async function framed(
  stream: ReadableLike,
  source: string,
  handle: PayloadHandler,
  limit: number,
  tooLong: () => ReadProblem,
  lines: LineSink,
): Promise<number> {
  let parts: Buffer[] = [];
  let pending = 0; // bytes in parts
  let line = 0;
  let count = 0;
  let first = true;
  /** Handles one line; returns a promise only when the handler did. */
  const emit = (buffer: Buffer, start: number, end: number): void | Promise<void> => {
    line++;
    if (end > start && buffer[end - 1] === 13) end--; // CRLF
    if (
      line === 1 &&
      end - start >= 3 &&
      buffer[start] === 0xef &&
      buffer[start + 1] === 0xbb &&
      buffer[start + 2] === 0xbf
    )
      start += 3; // BOM
    let blank = true;
    for (let i = start; i < end; i++) {
      const c = buffer[i];
      if (c !== 32 && c !== 9 && c !== 13) {
        blank = false;
        break;
      }
    }
    if (blank) return;
    count++;
    return lines.line(buffer, start, end, { source, line });
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
    let newline = chunk.indexOf(10, start);
    while (newline !== -1) {
      let result: void | Promise<void>;
      if (pending > 0) {
        parts.push(chunk.subarray(start, newline));
        const joined = Buffer.concat(parts, pending + newline - start);
        parts = [];
        pending = 0;
        result = emit(joined, 0, joined.length);
      } else result = emit(chunk, start, newline);
      if (result) await result;
      start = newline + 1;
      newline = chunk.indexOf(10, start);
    }
    if (start < chunk.length) {
      parts.push(chunk.subarray(start));
      pending += chunk.length - start;
    }
    if (pending > limit) {
      // reported at its line and dropped up to its newline: a line is never buffered past the cap
      line++;
      count++;
      await lines.flush();
      await handle({ source, line }, undefined, tooLong());
      parts = [];
      pending = 0;
      skipping = true;
    }
  }
  if (pending > 0) {
    // no trailing newline
    const joined = Buffer.concat(parts, pending);
    const result = emit(joined, 0, joined.length);
    if (result) await result;
  }
  if (count === 0) {
    // an empty log is more often a truncated export than a day without traffic: say so
    count = 1;
    await lines.flush();
    await handle({ source, line: 1 }, undefined, {
      rule: "lint/empty-file",
      message: "the file holds no payload (empty or blank lines only); expected one JSON request payload per line",
    });
  }
  return count;
}
