/**
 * Issue 25.2 through the installed command (bin/vsk.mjs): NDJSON piped on stdin is recognised
 * without --ndjson (a complete JSON value on the first line, another value on a later line); a
 * single document, pretty-printed or on one line, still reads as one payload.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const VSK = join(resolve(import.meta.dirname, "../.."), "bin/vsk.mjs");
const OK = { model: "modelA", endpoint: "text-to-video", input: { prompt: "a cat" } };
const BAD = { model: "modelA", endpoint: "text-to-video", input: { prompt: 1 } };

let dir: string;
beforeAll(() => (dir = mkdtempSync(join(tmpdir(), "vsk-lint-stdin-"))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function lintStdin(input: string | Buffer) {
  const run = spawnSync(process.execPath, [VSK, "lint", "-", "--format", "json"], {
    cwd: dir,
    encoding: "utf8",
    input,
  });
  expect(run.stderr).not.toMatch(/^\s+at /m);
  const report = JSON.parse(run.stdout) as { results: Array<{ line: number; valid: boolean; diagnostics: unknown[] }> };
  return { code: run.status, results: report.results.map((r) => [r.line, r.valid]) };
}

describe("stdin without --ndjson", () => {
  it("NDJSON is read line by line, each payload at its line", () => {
    const ndjson = [OK, BAD, OK].map((p) => JSON.stringify(p)).join("\n") + "\n";
    expect(lintStdin(ndjson)).toEqual({
      code: 1,
      results: [
        [1, true],
        [2, false],
        [3, true],
      ],
    });
    // blank lines between, and gzip-compressed: the same
    const spaced = [OK, BAD].map((p) => JSON.stringify(p)).join("\n\n");
    expect(lintStdin(spaced)).toEqual({
      code: 1,
      results: [
        [1, true],
        [3, false],
      ],
    });
    // issue 38.5: a byte order mark or blank lines before the first payload are skipped, as in a file
    for (const lead of ["\uFEFF", "\n", "\r\n  \n", "\uFEFF\n"]) {
      const lines = lead.split("\n").length - 1;
      expect(lintStdin(lead + ndjson), JSON.stringify(lead)).toEqual({
        code: 1,
        results: [
          [1 + lines, true],
          [2 + lines, false],
          [3 + lines, true],
        ],
      });
    }
    expect(lintStdin(gzipSync(ndjson))).toEqual({
      code: 1,
      results: [
        [1, true],
        [2, false],
        [3, true],
      ],
    });
  });

  it("one document, pretty-printed or on one line, is one payload", () => {
    expect(lintStdin(JSON.stringify(BAD, null, 2) + "\n")).toEqual({ code: 1, results: [[1, false]] });
    expect(lintStdin(JSON.stringify(OK) + "\n\n")).toEqual({ code: 0, results: [[1, true]] });
    // an array of envelopes over several lines: each element at its own line, as from a file
    expect(lintStdin(`[\n${JSON.stringify(OK)},\n${JSON.stringify(BAD)}\n]\n`)).toEqual({
      code: 1,
      results: [
        [2, true],
        [3, false],
      ],
    });
  });
});
