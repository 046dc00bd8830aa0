/**
 * `--jobs N` on a plain NDJSON file (issue 40.2): the file cut into chunks that each thread reads
 * itself, by positional reads of the one file descriptor, so that the main thread neither reads nor
 * copies the lines a worker lints (src/lint/jobs.ts `LintJobs.ranges`).
 *
 * - A chunk holds the lines that start in its bytes `[k × chunk, (k + 1) × chunk)`: line 1 starts at
 *   byte 0, every other line just after a newline byte. Its last line is read on past the chunk's
 *   end, to its newline (or the end of the file), and no further than `--max-line-bytes` allows: a
 *   longer line is reported too long without being read (as ndjson.ts does).
 * - A chunk's first line number is 1 + the line starts of the chunks before it. Each thread counts
 *   a chunk's starts when it reads it and shares the number (`counts`, shared memory); a thread that
 *   needs a number not counted yet counts those bytes itself (the same bytes give the same number,
 *   so it does not matter which thread writes it).
 * - Bytes past the size the file had when the run began are not read; a file that got shorter
 *   meanwhile is an error (`FILE_CHANGED`), never a silent gap.
 */
import { readSync } from "node:fs";

/** One plain file linted by ranges: what each thread needs to read its chunks (posted to workers with each batch). */
export interface FileRange {
  /** this range's own number (per process): a thread keeps the sums of one range at a time */
  id: number;
  fd: number;
  /** the file's size when the run began */
  size: number;
  /** bytes per chunk */
  chunk: number;
  /** line starts per chunk, -1 where not counted yet (a view of a SharedArrayBuffer) */
  counts: Int32Array;
  /** `--max-line-bytes` */
  limit: number;
}

/** The code of the error a file that got shorter while it was read gives (src/lint/run.ts words it). */
export const FILE_CHANGED = "VSK_FILE_CHANGED";

/** The chunks of a file of `size` bytes. */
export function chunkCount(size: number, chunk: number): number {
  return Math.ceil(size / chunk);
}

/** Read on past a chunk's end at once, to finish its last line without a second read (most lines are shorter). */
const READ_ON = 16 * 1024;

/** One chunk's lines: `runs` as a `--jobs` batch holds them (src/lint/batch.ts), a line over the limit as `(-1, -1, its number)`. */
export interface ChunkLines {
  bytes: Buffer;
  runs: number[];
}

/**
 * A thread's reader of ranges: one buffer it reads into (a chunk's bytes are used before the next
 * chunk is read: batches are linted one at a time) and the line count so far of the range it reads.
 */
export class ChunkReader {
  private scratch = Buffer.allocUnsafeSlow(0);
  private rangeId = -1;
  /** chunks summed so far, and their line starts */
  private upTo = 0;
  private sum = 0;

  /** Bytes `[position, position + length)` of the file, all of them (in the scratch buffer: valid until the next read). */
  private read(range: FileRange, position: number, length: number): Buffer {
    if (this.scratch.length < length) this.scratch = Buffer.allocUnsafeSlow(Math.max(length, 2 * this.scratch.length));
    let got = 0;
    while (got < length) {
      const n = readSync(range.fd, this.scratch, got, length - got, position + got);
      if (n === 0) break;
      got += n;
    }
    if (got < length)
      throw Object.assign(
        new Error(
          `it got shorter while it was read (it had ${range.size} bytes when the run began): lint it again once it is written`,
        ),
        { code: FILE_CHANGED },
      );
    return this.scratch.subarray(0, length);
  }

  /** The line starts in chunk `k`: the newlines in bytes `[k × chunk - 1, (k + 1) × chunk - 1)`, and line 1's start in chunk 0. */
  count(range: FileRange, k: number): number {
    const lo = k * range.chunk;
    const hi = Math.min(lo + range.chunk, range.size);
    const from = Math.max(lo - 1, 0);
    let n = k === 0 && range.size > 0 ? 1 : 0;
    if (hi - 1 <= from) return n;
    const bytes = this.read(range, from, hi - 1 - from);
    for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, i + 1)) n++;
    return n;
  }

  /** The line starts before chunk `k` (its first line is this + 1), counting the chunks no thread has counted yet. */
  base(range: FileRange, k: number): number {
    if (range.id !== this.rangeId || k < this.upTo) {
      this.rangeId = range.id;
      this.upTo = 0;
      this.sum = 0;
    }
    const { counts } = range;
    for (; this.upTo < k; this.upTo++) {
      let n = Atomics.load(counts, this.upTo);
      if (n < 0) Atomics.store(counts, this.upTo, (n = this.count(range, this.upTo)));
      this.sum += n;
    }
    return this.sum;
  }

  /** Chunk `k`'s lines, numbered (its line starts are shared on the way). */
  lines(range: FileRange, k: number): ChunkLines {
    const { size, chunk, limit } = range;
    const first = this.base(range, k) + 1;
    const lo = k * chunk;
    const hi = Math.min(lo + chunk, size);
    const from = k === 0 ? 0 : lo - 1;
    let bytes = this.read(range, from, Math.min(hi - from + READ_ON, size - from));
    // the first line start: byte 0, or just after the first newline at or past lo - 1
    let s0 = 0;
    if (k > 0) {
      const nl = bytes.indexOf(10);
      if (nl === -1 || from + nl + 1 >= hi) {
        Atomics.store(range.counts, k, 0);
        return { bytes, runs: [] };
      }
      s0 = nl + 1;
    }
    // the line starts in [s0, hi): s0 and one after each newline before hi - 1
    const end = hi - from; // the chunk's end in `bytes`
    let starts = 1;
    let last = s0; // the last start
    for (let i = bytes.indexOf(10, s0); i !== -1 && i < end - 1; i = bytes.indexOf(10, i + 1)) {
      starts++;
      last = i + 1;
    }
    Atomics.store(range.counts, k, starts);
    // the last line's end: its newline, or the end of the file, read on for as long as the line may be
    let lineEnd = bytes.indexOf(10, last);
    while (lineEnd === -1 && from + bytes.length < size && bytes.length - last <= limit + 1) {
      // twice as much each time, never past limit + 2 bytes of the line (enough to know it is too long)
      bytes = this.read(range, from, Math.min(2 * bytes.length, last + limit + 2, size - from));
      lineEnd = bytes.indexOf(10, last);
    }
    if (lineEnd === -1 && from + bytes.length === size) lineEnd = bytes.length;
    if (lineEnd !== -1) return { bytes, runs: [s0, lineEnd, first] };
    // the last line is longer than the limit: the lines before it, then it, unread
    const runs = last > s0 ? [s0, last - 1, first] : [];
    runs.push(-1, -1, first + starts - 1);
    return { bytes, runs };
  }
}
