/**
 * `vsk lint --jobs` batches (src/lint/batch.ts) linted one after another even when they are
 * handed over together: the main thread lints the batches it keeps while every worker is busy
 * (src/lint/jobs.ts `lintHere`) without waiting for the one before, and a batch whose payloads
 * wait (a validator still loading, a finding beside an integer over 2^53 re-checked on the text)
 * shared its Linter's counts and output with the next one. The reply of each batch handed over
 * at once must be the reply it gets alone.
 */
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/index.js";
import { batchLinter, type Batch, type BatchReply, type WorkerOutput } from "../../src/lint/batch.js";
import { openRegistry } from "../../src/lint/registry.js";
import { ROOT } from "../cli/run.js";

/** A batch of NDJSON lines, one run starting at line `first` (src/lint/jobs.ts `Batch`). */
function batch(id: number, lines: string[], first: number): Batch {
  const bytes = new TextEncoder().encode(lines.map((l) => `${l}\n`).join(""));
  return { id, source: "log.ndjson", bytes, runs: Int32Array.from([0, bytes.length, first]) };
}

/** Lines that wait inside the Linter: an invalid payload with an integer over 2^53 (re-checked on its text). */
function waiting(from: number, count: number): string[] {
  return Array.from(
    { length: count },
    (_, i) =>
      `{"model":"modelC","endpoint":"text-to-video","input":{"prompt":"kite ${from + i}","duration":${i % 2 === 0 ? 2 : 5},"seed":12345678901234567890}}`,
  );
}
const plain = (from: number, count: number): string[] =>
  Array.from({ length: count }, (_, i) =>
    JSON.stringify({ model: "modelA", endpoint: "text-to-video", input: { prompt: `sun ${from + i}`, duration: 40 } }),
  );

const OUTPUTS: Record<string, WorkerOutput> = {
  rendered: {
    kind: "rendered",
    format: "json",
    context: { color: false, showValid: true },
    errorsOnly: false,
    hideResults: false,
    tally: true,
  },
  results: { kind: "results" },
};

/** A reply's text decoded, so that a mismatch shows as lines. */
function shown(reply: BatchReply): unknown {
  if ("rendered" in reply)
    return { ...reply, rendered: { ...reply.rendered, text: Buffer.from(reply.rendered.text).toString() } };
  return reply;
}

describe("a --jobs batch handed over while another is linting", () => {
  for (const [name, output] of Object.entries(OUTPUTS))
    it(`gets the reply it gets alone (${name})`, async () => {
      const registry = openRegistry(loadConfig(ROOT));
      const make = (): Batch[] => [
        batch(0, [...waiting(1, 40), ...plain(41, 10)], 1),
        batch(1, [...plain(51, 10), ...waiting(61, 40)], 51),
        batch(2, waiting(101, 30), 101),
      ];
      const alone = batchLinter(registry, {}, 1 << 20, output, 100);
      const expected: unknown[] = [];
      for (const b of make()) expected.push(shown(await alone(b)));
      const together = batchLinter(registry, {}, 1 << 20, output, 100);
      const replies = await Promise.all(make().map((b) => together(b)));
      expect(replies.map(shown)).toEqual(expected);
      // and the expected replies are what they should be: each batch's own lines, counted once
      const requests = expected.map((r) =>
        "rendered" in (r as BatchReply)
          ? (r as { rendered: { summary: { requests: number } } }).rendered.summary.requests
          : (r as { results: { lines: Int32Array } }).results.lines.length,
      );
      expect(requests).toEqual([50, 50, 30]);
    });
});
