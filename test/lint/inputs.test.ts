/**
 * Issue 30.3 / 25.0 / 30.4 through the installed command (bin/vsk.mjs): stdin is read only for
 * `-` (no file named is exit 2 at once, even with a pipe open); a directory with no payload file
 * or a glob matching nothing is exit 2 naming what was skipped; `--allow-empty` makes them 0;
 * `--color` / `--no-color`, FORCE_COLOR, and an empty NO_COLOR read as unset.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withoutExampleNotice } from "../cli/run.js";

const ROOT = resolve(import.meta.dirname, "../..");
const VSK = join(ROOT, "bin/vsk.mjs");
const BAD = '{"model":"modelA","endpoint":"text-to-video","input":{"prompt":1}}\n';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "vsk-lint-inputs-"));
  mkdirSync(join(dir, "logs"));
  writeFileSync(join(dir, "logs/archive.tar.gz"), Buffer.from([0x1f, 0x8b, 8, 0])); // not a payload file, compressed or not
  writeFileSync(join(dir, "logs/README"), "notes");
  mkdirSync(join(dir, "empty"));
  writeFileSync(join(dir, "bad.ndjson"), BAD);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function lint(args: string[], env: Record<string, string | undefined> = {}) {
  const run = spawnSync(process.execPath, [VSK, "lint", ...args], {
    cwd: dir,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: undefined, FORCE_COLOR: undefined, ...env },
  });
  expect(run.stderr).not.toMatch(/^\s+at /m);
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe("what lint reads", () => {
  it("no file named: exit 2 at once, stdin left unread even when a pipe is open", async () => {
    const child = spawn(process.execPath, [VSK, "lint"], { cwd: dir, stdio: ["pipe", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    // the pipe stays open: a lint that read stdin would wait here for ever
    const code = await new Promise<number | null>((done) => child.on("close", done));
    child.stdin.destroy();
    expect(code).toBe(2);
    expect(stderr).toBe(
      "vsk: lint: no input files: name files, directories or globs, or - to read stdin (--allow-empty: exit 0 when there are none) (see `vsk lint --help`)\n",
    );
  });

  it("a directory without payload files, or a glob matching nothing: exit 2 saying what was skipped", () => {
    const logs = lint(["logs"]);
    expect(logs.code).toBe(2);
    expect(logs.stderr).toContain(
      "vsk: no .json/.ndjson/.jsonl files in logs (1 file without an extension and 1 .gz file skipped: only .json, .ndjson and .jsonl files (also as .gz or .br) are read)\n",
    );
    const empty = lint(["empty", "--format", "json"]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain("vsk: no .json/.ndjson/.jsonl files in empty (it holds no files)\n");
    expect(lint(["nothing-*.json"]).code).toBe(2);
  });

  it("--allow-empty: nothing to lint is exit 0", () => {
    for (const args of [[], ["logs"], ["empty"], ["nothing-*.json"]]) {
      const run = lint([...args, "--allow-empty"]);
      expect([args, run.code, withoutExampleNotice(run.stderr)]).toEqual([args, 0, ""]);
      expect(run.stdout).toBe("0 requests: 0 valid, 0 invalid, 0 warnings\n");
    }
  });
});

describe("colour", () => {
  const RED = "\u001b[31m";
  it("--color / --no-color decide; FORCE_COLOR forces it on a pipe; an empty NO_COLOR is unset", () => {
    expect(lint(["bad.ndjson"]).stdout).not.toContain(RED); // a pipe
    expect(lint(["bad.ndjson", "--color"]).stdout).toContain(RED);
    expect(lint(["bad.ndjson"], { FORCE_COLOR: "1" }).stdout).toContain(RED);
    expect(lint(["bad.ndjson"], { FORCE_COLOR: "1", NO_COLOR: "" }).stdout).toContain(RED);
    expect(lint(["bad.ndjson"], { FORCE_COLOR: "1", NO_COLOR: "1" }).stdout).not.toContain(RED);
    expect(lint(["bad.ndjson"], { FORCE_COLOR: "0" }).stdout).not.toContain(RED);
    expect(lint(["bad.ndjson", "--no-color"], { FORCE_COLOR: "1" }).stdout).not.toContain(RED);
    expect(lint(["bad.ndjson", "--format", "json", "--color"]).stdout).not.toContain(RED);
  });
});
