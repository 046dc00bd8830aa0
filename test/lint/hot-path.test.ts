/**
 * Issue 40's hot path says what the plain path says. `readLines` decodes a run of lines once and
 * slices it (src/lint/ndjson.ts); what each line becomes (its number, its text, its problem:
 * invalid UTF-8, too long, invalid JSON, a repeated key) must be what the line-by-line byte path
 * gives, on seeded runs mixing CRLF, a BOM, blank lines, non-ASCII text, a U+FFFD written as such,
 * invalid bytes and lines over the limit. And the Sink (src/lint/format/sink.ts), which encodes
 * writes into 64 KiB buffers, hands the stream whole characters in every chunk (the Action decodes
 * each chunk on its own) and, joined, exactly the text written.
 */
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { eachLine, readLine, readLines } from "../../src/lint/ndjson.js";
import type { PayloadHandler } from "../../src/lint/decode.js";
import { Sink } from "../../src/lint/format/sink.js";
import { random } from "./random.js";

const PIECES: Array<string | Uint8Array> = [
  '{"a":1}',
  '{"prompt":"ünïcode ✓ 🎬","n":2}',
  '{"a":1,"a":2}',
  '{"k":{"x":1, "x" :2}}',
  '{"bad":',
  "   ",
  "",
  '"\uFFFD written as such"',
  '{"long":"' + "é".repeat(40) + '"}',
  '{"long":"' + "x".repeat(70) + '"}',
  new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]), // {"a":"<bad>"}
  new Uint8Array([0xff, 0xfe]),
  "[1,2,3]",
];

/** One run of lines: bytes, with CRLF and a BOM on line 1 now and then. */
function run(next: () => number): Buffer {
  const parts: Buffer[] = [];
  if (next() < 0.3) parts.push(Buffer.from([0xef, 0xbb, 0xbf]));
  const count = 1 + Math.floor(next() * 12);
  for (let i = 0; i < count; i++) {
    const piece = PIECES[Math.floor(next() * PIECES.length)]!;
    parts.push(typeof piece === "string" ? Buffer.from(piece) : Buffer.from(piece));
    if (i < count - 1) parts.push(Buffer.from(next() < 0.2 ? "\r\n" : "\n"));
  }
  return Buffer.concat(parts);
}

/** Everything a handler is told, as text. */
function recorder(): { handle: PayloadHandler; seen: string[] } {
  const seen: string[] = [];
  const handle: PayloadHandler = (at, value, problem, warnings, text) => {
    seen.push(JSON.stringify({ at, value, problem, warnings, text }));
  };
  return { handle, seen };
}

describe("lint's hot path", () => {
  it("readLines (a run decoded once) reads every line as the byte path does", () => {
    const next = random(40);
    for (let k = 0; k < 2000; k++) {
      const bytes = run(next);
      const limit = 20 + Math.floor(next() * 80);
      const first = next() < 0.5 ? 1 : 7;
      const fast = recorder();
      const sizes: number[] = [];
      const n = readLines(bytes, 0, bytes.length, first, "log.ndjson", fast.handle, limit, (b) => sizes.push(b));
      const slow = recorder();
      const slowSizes: number[] = [];
      const m = eachLine(bytes, 0, bytes.length, first, (b, s, e, line) => {
        slowSizes.push(e - s);
        return readLine(b, s, e, { source: "log.ndjson", line }, slow.handle, limit);
      });
      expect(fast.seen, bytes.toString("hex")).toEqual(slow.seen);
      expect(n).toBe(m);
      expect(sizes).toEqual(slowSizes);
    }
  });

  it("a run over 64 KiB is decoded in pieces of whole lines, and reads as the byte path does (a --jobs range is 256 KiB)", async () => {
    const next = random(41);
    for (let k = 0; k < 40; k++) {
      // hundreds of short runs' lines, now and then a line longer than a piece
      const parts: Buffer[] = [];
      while (parts.reduce((n, b) => n + b.length, 0) < 300_000) {
        parts.push(next() < 0.01 ? Buffer.from(`{"big":"${"y".repeat(65_000 + Math.floor(next() * 70_000))}"}`) : run(next));
        parts.push(Buffer.from(next() < 0.1 ? "\r\n" : "\n"));
      }
      if (next() < 0.5) parts.pop(); // the run's last line without its newline, or an empty last line
      const bytes = Buffer.concat(parts);
      const limit = next() < 0.5 ? 100 : 200_000;
      // a handler that answers with a promise now and then: the pieces go on after it
      const fast = recorder();
      const asyncHandle: PayloadHandler = (...args) => {
        fast.handle(...args);
        return args[0].line % 97 === 0 ? Promise.resolve() : undefined;
      };
      const sizes: number[] = [];
      const n = await readLines(bytes, 0, bytes.length, 3, "log.ndjson", asyncHandle, limit, (b) => sizes.push(b));
      const slow = recorder();
      const slowSizes: number[] = [];
      const m = eachLine(bytes, 0, bytes.length, 3, (b, s, e, line) => {
        slowSizes.push(e - s);
        return readLine(b, s, e, { source: "log.ndjson", line }, slow.handle, limit);
      });
      expect(fast.seen.length).toBe(slow.seen.length);
      expect(fast.seen).toEqual(slow.seen);
      expect(n).toBe(m);
      expect(sizes).toEqual(slowSizes);
    }
  });

  it("the Sink writes whole characters per chunk and exactly the text written", async () => {
    const chunks: Buffer[] = [];
    const out = new Writable({
      highWaterMark: 1024,
      write(chunk: Buffer | string, _encoding, done) {
        chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
        setImmediate(done); // a slow reader: writes wait for the drain
      },
    });
    const sink = new Sink(out);
    const next = random(7);
    let expected = "";
    for (let i = 0; i < 20_000; i++) {
      const pick = next();
      const text =
        pick < 0.001
          ? "€".repeat(30_000)
          : pick < 0.002
            ? "é".repeat(5_000) // past the short texts the Sink joins, within a buffer
            : pick < 0.5
              ? `line ${i} ✓ 🎬 ü\n`
              : `{"n":${i},"s":"${"x".repeat(i % 300)}"}\n`;
      expected += text;
      // now and then text already encoded (a --jobs worker's batch), after what was written before it
      const waited = next() < 0.01 ? sink.writeBytes(Buffer.from(text)) : sink.write(text);
      if (waited) await waited;
    }
    await sink.flush();
    await new Promise<void>((resolve) => out.end(resolve));
    for (const chunk of chunks) expect(Buffer.from(chunk.toString("utf8")).equals(chunk)).toBe(true);
    expect(Buffer.concat(chunks).toString("utf8")).toBe(expected);
  });
});
