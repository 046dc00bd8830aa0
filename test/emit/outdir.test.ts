import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  lchownSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { vskInProcess } from "../cli/run.js";

const CLI = resolve("dist/cli/vsk.js");
const work = mkdtempSync(join(tmpdir(), "vsk-outdir-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function vsk(cwd: string, ...args: string[]) {
  const run = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: "utf8", input: "" });
  expect(run.stderr).not.toMatch(/\n\s+at /); // never a stack trace
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/**
 * The same program in this process (issue 42.4), for the refusals after the first one: each is a
 * message from one check, not something a child process adds (the first refusal, the
 * first generation of its own directory and the clash run as real child processes).
 */
async function inProcess(cwd: string, ...args: string[]) {
  const run = await vskInProcess(args, cwd);
  expect(run.stderr).not.toMatch(/\n\s+at /); // never a stack trace
  return { status: run.code, stdout: run.stdout, stderr: run.stderr };
}

function project(name: string, config: Record<string, unknown>): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "vsk.config.json"), JSON.stringify(config));
  return dir;
}

describe("vsk generate replaces only a directory it made", () => {
  it("refuses an outDir holding a file it did not write, even beside an endpoints.json, and deletes nothing", () => {
    const dir = project("foreign", { outDir: "api" });
    mkdirSync(join(dir, "api"));
    writeFileSync(join(dir, "api/endpoints.json"), '{"routes":[]}');
    writeFileSync(join(dir, "api/server.ts"), "export const handwritten = 1;\n");
    const run = vsk(dir, "generate");
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/outDir .*api holds files that vsk did not generate \(endpoints\.json, server\.ts\)/);
    expect(readFileSync(join(dir, "api/server.ts"), "utf8")).toBe("export const handwritten = 1;\n");
  });

  it("refuses / and an outDir under a file with one line, never walking or crashing", async () => {
    const slash = project("slash", { outDir: "/" });
    expect(await inProcess(slash, "generate")).toMatchObject({
      status: 2,
      stderr: expect.stringMatching(/current directory or one of its parents/),
    });
    const under = project("under", { outDir: "vsk.config.json/sub" });
    expect(await inProcess(under, "generate")).toMatchObject({
      status: 2,
      stderr: expect.stringMatching(/cannot write .*\(ENOTDIR\)/),
    });
  });

  it("refuses an outDir that is a file, or the project itself, with one line", async () => {
    const file = project("file", { outDir: "vsk.config.json" });
    expect(await inProcess(file, "generate")).toMatchObject({
      status: 2,
      stderr: expect.stringMatching(/is a file, not a directory/),
    });
    const self = project("self", { outDir: "." });
    writeFileSync(join(self, "notes.txt"), "mine");
    expect(await inProcess(self, "generate")).toMatchObject({
      status: 2,
      stderr: expect.stringMatching(/current directory or one of its parents/),
    });
    expect(existsSync(join(self, "notes.txt"))).toBe(true);
  });

  it("regenerates its own directory, and a config without models uses the embedded snapshot", async () => {
    const dir = project("own", { outDir: "gen" });
    expect(vsk(dir, "generate").status).toBe(0);
    writeFileSync(join(dir, "gen/index.mts"), readFileSync(join(dir, "gen/index.mts"), "utf8") + "// edited\n");
    const again = await inProcess(dir, "generate"); // the first generate above was the child process
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/for 4 endpoints of 3 models into gen\//);
  });

  it('makes the missing parents of "outDir": "src/gen" (a project with no src/ yet), and only for a run that writes', async () => {
    const dir = project("no-src", { outDir: "src/gen" });
    const run = await inProcess(dir, "generate");
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0); // it was exit 2: "cannot write …/src/gen (ENOENT) … and its parent exists"
    expect(run.stdout).toMatch(/into src\/gen\//);
    expect(existsSync(join(dir, "src/gen/index.mts"))).toBe(true);
    // a parent that is a file is still refused before any work, naming it
    const file = project("src-file", { outDir: "src/gen" });
    writeFileSync(join(file, "src"), "");
    const refused = await inProcess(file, "generate");
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain("(ENOTDIR)");
    // a link another user owns above the missing parents: no directory is made through it
    if (process.getuid?.() === 0) {
      const linked = project("foreign-link", { outDir: "link/sub/gen" });
      mkdirSync(join(linked, "target"));
      symlinkSync(join(linked, "target"), join(linked, "link"));
      lchownSync(join(linked, "link"), 4242, 4242);
      const no = await inProcess(linked, "generate");
      expect(no.status).toBe(2);
      expect(no.stderr).toContain(
        "above it is a symbolic link another user owns; vsk does not create directories through it",
      );
      expect(readdirSync(join(linked, "target"))).toEqual([]);
    }
  });

  it("two models that would generate the same names are a clear error", () => {
    const dir = project("clash", { models: [{ id: "example/model-a" }, { id: "other/model-a" }], outDir: "gen" });
    cpSync(resolve("schemas-cache/example"), join(dir, "schemas-cache/example"), { recursive: true });
    cpSync(resolve("schemas-cache/example/model-a"), join(dir, "schemas-cache/other/model-a"), { recursive: true });
    const run = vsk(dir, "generate");
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(
      /other\/model-a\/.* and example\/model-a\/.* would both generate build\w+\(\); give one of the models an alias/,
    );
    expect(existsSync(join(dir, "gen"))).toBe(false);
  });

  it("a refused outDir is said before any code is generated (issue 42.4), so a clash it never reached is not reported", async () => {
    // the same clash as above, which only generating finds: the refusal comes first
    const dir = project("refused-first", {
      models: [{ id: "example/model-a" }, { id: "other/model-a" }],
      outDir: "api",
    });
    cpSync(resolve("schemas-cache/example"), join(dir, "schemas-cache/example"), { recursive: true });
    cpSync(resolve("schemas-cache/example/model-a"), join(dir, "schemas-cache/other/model-a"), { recursive: true });
    mkdirSync(join(dir, "api"));
    writeFileSync(join(dir, "api/server.ts"), "export const handwritten = 1;\n");
    const run = await inProcess(dir, "generate");
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/outDir .*api holds files that vsk did not generate \(server\.ts\)/);
    expect(run.stderr).not.toMatch(/would both generate/);
    const under = project("refused-first-under", {
      models: [{ id: "example/model-a" }, { id: "other/model-a" }],
      outDir: "vsk.config.json/sub",
    });
    cpSync(join(dir, "schemas-cache"), join(under, "schemas-cache"), { recursive: true });
    expect(await inProcess(under, "generate")).toMatchObject({
      status: 2,
      stderr: expect.stringMatching(/^vsk: cannot write .*\(ENOTDIR\)/),
    });
  });
});

describe("lint: an envelope for a model with one endpoint needs no endpoint name", () => {
  it("model B", () => {
    const dir = join(work, "envelope");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "b.json"), JSON.stringify({ model: "modelB", input: { file_url: "https://d.io/x.pdf" } }));
    const run = vsk(dir, "lint", "b.json", "--format", "json");
    expect(run.status).toBe(1);
    const result = (
      JSON.parse(run.stdout) as { results: Array<{ endpoint: string; diagnostics: Array<{ rule: string }> }> }
    ).results[0]!;
    expect(result.endpoint).toBe("reference-to-video");
    expect(result.diagnostics.map((d) => d.rule)).toEqual(["file-url-requires-thinking"]);
  });
});
