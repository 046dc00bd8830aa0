/**
 * src/cli/gc-tuning.ts: with the hold on, V8's young generation stops at 2 MiB
 * semispaces however fast a program churns short-lived objects (lint's peak RSS stays flat,
 * issue 40); without it V8 grows it to its maximum; on a V8 it does not know it does nothing
 * and prints nothing. Each run is its own node process: the flag is the whole process's.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { mayRunLong } from "../../src/cli/gc-tuning.js";

const CHURN = fileURLToPath(new URL("../fixtures/cli/churn.mts", import.meta.url));
const MIB = 1 << 20;

function churn(mode: "free" | "hold" | "future", cacheFile?: string): { max: number; stderr: string } {
  const args = ["--import", "tsx", CHURN, mode, ...(cacheFile === undefined ? [] : [cacheFile])];
  const run = spawnSync(process.execPath, args, { encoding: "utf8", timeout: 60_000 });
  expect(run.status, run.stderr).toBe(0);
  return { max: (JSON.parse(run.stdout) as { max: number }).max, stderr: run.stderr };
}

describe("tuneGarbageCollector", () => {
  it("V8 alone grows the new space past 8 MiB under this churn (what the hold is for)", () => {
    expect(churn("free").max).toBeGreaterThan(8 * MIB);
  });
  it("held: the new space stays at two 2 MiB semispaces, and nothing is printed", () => {
    const { max, stderr } = churn("hold");
    expect(max).toBeLessThanOrEqual(4 * MIB);
    expect(stderr).toBe("");
  });
  it("on a V8 major it does not know, it sets no flag (V8 would print 'unrecognized flag') and the growth is V8's", () => {
    const { max, stderr } = churn("future");
    expect(stderr).toBe("");
    expect(max).toBeGreaterThan(8 * MIB);
  });
  it("released, the flag is back: a code cache made after the run is taken by a process with node's own flags", () => {
    const dir = mkdtempSync(join(tmpdir(), "vsk-young-"));
    try {
      const file = join(dir, "script.bin");
      expect(churn("hold", file).max).toBeLessThanOrEqual(4 * MIB);
      // a fresh node with its own flags (not this process: an in-process vsk run of another test may
      // have its flags tuned at this instant): V8 takes a cache only if it was made under the same flags
      const taken = spawnSync(
        process.execPath,
        [
          "-e",
          `const { Script } = require("node:vm");
           const cachedData = require("node:fs").readFileSync(${JSON.stringify(file)});
           process.stdout.write(String(new Script("(function () { return 6 * 7; })", { cachedData }).cachedDataRejected));`,
        ],
        { encoding: "utf8" },
      );
      expect(taken.stdout, taken.stderr).toBe("false");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("mayRunLong: the runs the CLI tunes (a short one would only pay the tuning's ~3 ms of start)", () => {
  it("stdin, a directory, a glob or a file of 1 MiB or more: yes; small files and missing ones: no", () => {
    const dir = mkdtempSync(join(tmpdir(), "vsk-long-"));
    try {
      writeFileSync(join(dir, "one.json"), "{}");
      writeFileSync(join(dir, "big.ndjson"), Buffer.alloc(1 << 20, 0x20));
      mkdirSync(join(dir, "logs"));
      expect(mayRunLong(["one.json"], dir)).toBe(false);
      expect(mayRunLong(["one.json", "missing.ndjson"], dir)).toBe(false);
      expect(mayRunLong(["one.json", "big.ndjson"], dir)).toBe(true);
      expect(mayRunLong(["-"], dir)).toBe(true);
      expect(mayRunLong(["logs"], dir)).toBe(true);
      expect(mayRunLong(["logs/**/*.ndjson"], dir)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
