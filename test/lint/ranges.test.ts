/**
 * Issue 40.2: a plain NDJSON file linted by ranges (src/lint/ranges.ts). Whatever the chunk size
 * and whichever thread reads which chunk in which order, the chunks' lines are the file's lines,
 * each once, in order, numbered as the stream reader numbers them; a line over the limit that a
 * chunk cannot finish is marked too long without being read; a file that got shorter is an error.
 * (Through the CLI, test/lint/jobs.test.ts compares `--jobs 2` with `--jobs 1` byte for byte.)
 */
import { closeSync, openSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ChunkReader, chunkCount, FILE_CHANGED, type FileRange } from "../../src/lint/ranges.js";
import { tempDir } from "../cli/run.js";
import { random } from "./random.js";

/** A file of short, blank, CRLF, long and multi-byte lines, with or without a trailing newline. */
function randomFile(next: () => number): Buffer {
  const lines: string[] = [];
  const count = 1 + Math.floor(next() * 60);
  for (let i = 0; i < count; i++) {
    const kind = next();
    if (kind < 0.15) lines.push("");
    else if (kind < 0.25) lines.push("  \t");
    else if (kind < 0.35) lines.push(`{"crlf":${i}}\r`);
    else if (kind < 0.45) lines.push(`{"long":"${"x".repeat(Math.floor(next() * 200))}"}`);
    else if (kind < 0.5) lines.push(`{"é":"${"ü".repeat(Math.floor(next() * 20))}"}`);
    else lines.push(`{"i":${i}}`);
  }
  const text = lines.join("\n") + (next() < 0.5 ? "\n" : "");
  return Buffer.from(next() < 0.1 ? "\n" + text : text);
}

/** The file's lines as the stream reader numbers them (ndjson.ts: a trailing newline ends the last line, it does not start one). */
function expectedLines(file: Buffer): Array<{ line: number; text: string }> {
  const parts = file.toString("latin1").split("\n");
  if (parts[parts.length - 1] === "") parts.pop();
  return parts.map((text, i) => ({ line: i + 1, text }));
}

/** Every chunk's lines, in chunk order, read in `order` by `readers` (round robin) sharing one range. */
function chunkedLines(
  range: FileRange,
  order: number[],
  readers: ChunkReader[],
): Array<{ line: number; text: string } | { line: number; tooLong: true }> {
  const byChunk = new Map<number, Array<{ line: number; text: string } | { line: number; tooLong: true }>>();
  order.forEach((k, i) => {
    const { bytes, runs } = readers[i % readers.length]!.lines(range, k);
    const out: Array<{ line: number; text: string } | { line: number; tooLong: true }> = [];
    for (let r = 0; r < runs.length; r += 3) {
      if (runs[r]! < 0) {
        out.push({ line: runs[r + 2]!, tooLong: true });
        continue;
      }
      const texts = bytes.toString("latin1", runs[r]!, runs[r + 1]!).split("\n");
      texts.forEach((text, j) => out.push({ line: runs[r + 2]! + j, text }));
    }
    byChunk.set(k, out);
  });
  return [...byChunk.keys()].sort((a, b) => a - b).flatMap((k) => byChunk.get(k)!);
}

let dir: string;
beforeAll(() => {
  dir = tempDir("vsk-ranges-");
});
const opened: number[] = [];
afterAll(() => opened.forEach((fd) => closeSync(fd)));

function rangeOf(file: Buffer, chunk: number, limit: number, name: string): FileRange {
  const path = join(dir, name);
  writeFileSync(path, file);
  const fd = openSync(path, "r");
  opened.push(fd);
  const n = chunkCount(file.length, chunk);
  return {
    id: Math.floor(Math.random() * 1e9),
    fd,
    size: file.length,
    chunk,
    counts: new Int32Array(new SharedArrayBuffer(4 * Math.max(n, 1))).fill(-1),
    limit,
  };
}

describe("a file read by ranges", () => {
  it("gives every line once, in order and numbered, for any chunk size and any order of reading", () => {
    const next = random(40_2);
    for (let round = 0; round < 300; round++) {
      const file = randomFile(next);
      const chunk = 1 + Math.floor(next() * 96);
      // a limit above every line: no line is cut
      const range = rangeOf(file, chunk, 1 << 20, `f${round}.ndjson`);
      const n = chunkCount(file.length, chunk);
      const inOrder = [...Array(n).keys()];
      const shuffled = [...inOrder].sort(() => next() - 0.5);
      const expected = expectedLines(file);
      // one reader in order (it counts as it reads); then, with the counts forgotten, three readers
      // in a random order, each counting the chunks before its own that no one counted yet
      expect(chunkedLines(range, inOrder, [new ChunkReader()]), `round ${round}, chunk ${chunk}`).toEqual(expected);
      range.counts.fill(-1);
      range.id++;
      const readers = [new ChunkReader(), new ChunkReader(), new ChunkReader()];
      expect(chunkedLines(range, shuffled, readers), `round ${round}, chunk ${chunk}, shuffled`).toEqual(expected);
    }
  });

  it("marks a line over the limit that a chunk cannot finish, without reading it, and numbers the rest on", () => {
    const next = random(40_3);
    let marked = 0;
    for (let round = 0; round < 60; round++) {
      // lines around a limit past what a chunk reads on at once (16 KiB): the longer ones are read on
      // for, up to the limit; a line of limit + 1 bytes is read whole (ndjson.ts decides on it, as
      // for --jobs 1), one of limit + 2 or more is marked
      const limit = 17_000 + Math.floor(next() * 100);
      const lines: string[] = [];
      for (let i = 0, count = 2 + Math.floor(next() * 8); i < count; i++)
        lines.push(next() < 0.5 ? `{"i":${i}}` : "x".repeat(limit - 1 + Math.floor(next() * 5)));
      const file = Buffer.from(lines.join("\n") + (next() < 0.5 ? "\n" : ""));
      const chunk = 1 + Math.floor(next() * 600);
      const range = rangeOf(file, chunk, limit, `g${round}.ndjson`);
      const got = chunkedLines(range, [...Array(chunkCount(file.length, chunk)).keys()], [new ChunkReader()]);
      const expected = expectedLines(file);
      expect(got.map((l) => l.line)).toEqual(expected.map((l) => l.line));
      got.forEach((l, i) => {
        const length = expected[i]!.text.length;
        if ("tooLong" in l) {
          marked++;
          expect(length, `round ${round} line ${l.line}`).toBeGreaterThan(limit + 1);
        } else expect(l.text).toBe(expected[i]!.text);
      });
    }
    // the marking path ran (a line that starts near a chunk's end and runs past the first read)
    expect(marked).toBeGreaterThan(10);
  });

  it("says a file that got shorter while it was read changed, with a code the run words (never a silent gap)", () => {
    const file = Buffer.from('{"a":1}\n'.repeat(100));
    const range = rangeOf(file, 64, 1 << 20, "shrinks.ndjson");
    const reader = new ChunkReader();
    reader.lines(range, 0);
    truncateSync(join(dir, "shrinks.ndjson"), 300);
    let thrown: unknown;
    try {
      reader.lines(range, 7);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({
      code: FILE_CHANGED,
      message: expect.stringContaining("it got shorter while it was read"),
    });
  });
});
