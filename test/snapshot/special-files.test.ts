/**
 * A FIFO, a symlink loop or a 600 MB file inside schemas-cache/ or generated/ never hangs or
 * crashes pull, generate, drift or lint: each is named in one line, nothing is read from it
 * (the 600 MB file is sparse, so the test writes nothing that large), and nothing is written.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { vskInProcess } from "../cli/run.js";
import { leftovers, MIRROR, tree, vsk, type Run } from "./crash-harness.js";

/**
 * In this process (issue 42.4), for the cases where the file is no FIFO: a FIFO opened by mistake
 * would block this thread for good, so every command that meets one stays a real process, whose
 * hang the harness's timer ends; those runs are the real spawns of each message.
 */
const inProcess = async (args: string[], cwd: string): Promise<Run> => ({
  ...(await vskInProcess(args, cwd)),
  signal: null,
});

const work = mkdtempSync(join(tmpdir(), "vsk-special-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let counter = 0;
let generated: string;

const MODEL_C = "schemas-cache/example/model-c/latest.json";

/** A one-model project (model C) with its snapshot; with `generated/` once made. */
function project(withGenerated = false): string {
  const dir = join(work, `p-${counter++}`);
  if (withGenerated) {
    cpSync(generated, dir, { recursive: true });
    return dir;
  }
  mkdirSync(join(dir, "schemas-cache/example/model-c"), { recursive: true });
  cpSync(join(MIRROR, "main/example/model-c/latest.json"), join(dir, MODEL_C));
  writeFileSync(join(dir, "vsk.config.json"), JSON.stringify({ models: [{ id: "example/model-c", alias: "modelC" }] }));
  writeFileSync(join(dir, "payload.json"), '{"prompt": "A paper boat drifts down a rain gutter"}\n');
  return dir;
}

const fifo = (path: string): void => void spawnSync("mkfifo", [path]);
const loop = (path: string): void => symlinkSync(path.split("/").pop()!, path);
function huge(path: string): void {
  writeFileSync(path, "");
  truncateSync(path, 600 * 1024 * 1024);
}

/** One line on stderr (after any recovery notes), no stack trace. */
function oneLine(run: Run): string {
  expect(run.signal, "it did not hang").toBeNull();
  expect(run.stderr).not.toMatch(/\n\s+at /);
  const lines = run.stderr.trimEnd().split("\n");
  expect(lines).toHaveLength(1);
  return lines[0]!;
}

beforeAll(async () => {
  generated = project();
  // a project with its generated/ (made in process: the generates under test are below)
  const run = await inProcess(["generate"], generated);
  expect(run.code, run.stderr).toBe(0);
}, 60_000);

describe.skipIf(process.platform === "win32")("special files in schemas-cache/", () => {
  it.each([
    ["a FIFO", fifo, "is a named pipe (FIFO), not a regular file"],
    ["a symlink loop", loop, "is a symbolic link loop"],
    ["a 600 MB file", huge, "is 600 MiB, more than the 64 MiB vsk reads"],
  ])(
    "%s as a model's snapshot: generate, pull, lint and drift name it",
    async (name, make, problem) => {
      const run = name === "a FIFO" ? vsk : inProcess;
      const dir = project();
      rmSync(join(dir, MODEL_C));
      make(join(dir, MODEL_C));
      const before = tree(join(dir, "schemas-cache"));
      const file = join(dir, MODEL_C);

      const generate = await run(["generate"], dir);
      expect(generate.code).toBe(2);
      expect(oneLine(generate)).toBe(`vsk: ${file} ${problem}; remove it, or restore it from version control`);

      const pull = await run(["pull", "--schema-url", MIRROR], dir);
      expect(pull.code).toBe(2);
      expect(oneLine(pull)).toMatch(new RegExp(`^vsk: pull: ${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} is `));
      expect(tree(join(dir, "schemas-cache"))).toEqual(before);

      const drift = await run(["drift", "--schema-url", MIRROR], dir);
      expect(drift.signal).toBeNull();
      expect(drift.stdout + drift.stderr).toContain(file);
      expect(drift.stderr).not.toMatch(/\n\s+at /);
      expect(leftovers(dir)).toEqual([]);
    },
    60_000,
  );

  it("lint warns that it cannot check staleness against a FIFO, and lints", async () => {
    const dir = project(true);
    rmSync(join(dir, MODEL_C));
    fifo(join(dir, MODEL_C));
    const run = await vsk(["lint", "--model", "modelC", "payload.json"], dir);
    expect(run.code).toBe(0);
    expect(oneLine(run)).toBe(
      `vsk: warning: cannot tell whether the generated validators are up to date: ${join(dir, MODEL_C)} is a named pipe (FIFO), not a regular file; remove it, or restore it from version control`,
    );
  }, 60_000);
});

describe.skipIf(process.platform === "win32")("special files in generated/", () => {
  it("a FIFO and a symlink loop: generate and generate --check refuse them by name (exit 2), changing nothing", async () => {
    const dir = project(true);
    fifo(join(dir, "generated/pipe"));
    loop(join(dir, "generated/example/loop"));
    const before = tree(join(dir, "generated"));
    const message = `vsk: outDir ${join(dir, "generated")} holds entries that vsk never writes: example/loop (a symbolic link), pipe (a named pipe (FIFO)); vsk writes only regular files there: remove them`;
    const generate = await vsk(["generate"], dir);
    expect(generate.code).toBe(2);
    expect(oneLine(generate)).toBe(message);
    const check = await vsk(["generate", "--check"], dir);
    expect(check.code).toBe(2);
    expect(oneLine(check)).toBe(message.replace("outDir ", ""));
    expect(tree(join(dir, "generated"))).toEqual(before);
    expect(leftovers(dir)).toEqual([]);
  }, 60_000);

  it("a 600 MB file: --check says it is not generated without reading it; generate refuses it as foreign", async () => {
    const dir = project(true);
    huge(join(dir, "generated/big.bin"));
    const check = await inProcess(["generate", "--check"], dir);
    expect(check.code).toBe(1);
    expect(oneLine(check)).toMatch(
      /is stale: 1 file differs from what the snapshot gives \(big\.bin \(not generated\)\)/,
    );
    const generate = await inProcess(["generate"], dir);
    expect(generate.code).toBe(2);
    expect(oneLine(generate)).toMatch(/holds files that vsk did not generate \(big\.bin\)/);
  }, 60_000);

  it("lint with a FIFO as endpoints.json names it (exit 2)", async () => {
    const dir = project(true);
    rmSync(join(dir, "generated/endpoints.json"));
    fifo(join(dir, "generated/endpoints.json"));
    const run = await vsk(["lint", "--model", "modelC", "payload.json"], dir);
    expect(run.code).toBe(2);
    expect(oneLine(run)).toBe(
      `vsk: ${join(dir, "generated/endpoints.json")} is a named pipe (FIFO), not a regular file; run \`vsk generate\` again`,
    );
  }, 60_000);
});
