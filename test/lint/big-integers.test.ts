/**
 * `frame_index` values beyond 2^53: JSON.parse rounds 9007199254740993 to 9007199254740992, so
 * `vsk lint` decides uniqueness on the payload's text (spec 2.2). The real CLI (generate, then
 * lint) in a temp project whose endpoint has the keyframes shape and no `duration`.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CLI = join(ROOT, "dist/cli/vsk.js");

function vsk(args: string[], cwd: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { cwd, env, encoding: "utf8", timeout: 120_000 },
      (error, stdout, stderr) =>
        resolve({ status: error === null ? 0 : typeof error.code === "number" ? error.code : null, stdout, stderr }),
    );
  });
}

let dir = "";
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "vsk-bigint-"));
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  mkdirSync(join(dir, "snapshot/t/m"), { recursive: true });
  const input = {
    type: "object",
    required: ["keyframes"],
    properties: {
      keyframes: {
        type: "array",
        items: {
          type: "object",
          required: ["frame_index"],
          properties: { frame_index: { type: "integer", minimum: 0 } },
        },
      },
    },
  };
  const ok = { description: "ok", content: { "application/json": { schema: { type: "object" } } } };
  const post = { requestBody: { content: { "application/json": { schema: input } } }, responses: { "200": ok } };
  writeFileSync(
    join(dir, "snapshot/t/m/latest.json"),
    JSON.stringify({ openapi: "3.1.0", info: { title: "t", version: "1" }, paths: { "/t/m/keyframes": { post } } }),
  );
  writeFileSync(
    join(dir, "vsk.config.json"),
    JSON.stringify({ snapshotDir: "snapshot", outDir: "out", models: [{ id: "t/m" }] }),
  );
  const run = await vsk(["generate"], dir);
  expect(run.stderr).toBe("");
  expect(run.stdout).toContain("t/m/keyframes: frame-index-unique");
});
afterAll(() => {
  if (dir !== "") rmSync(dir, { recursive: true, force: true });
});

const payload = (...frames: string[]) => `{"keyframes":[${frames.map((f) => `{"frame_index":${f}}`).join(",")}]}`;

interface Report {
  results: Array<{
    line: number;
    valid: boolean;
    diagnostics: Array<{ pointer: string; rule: string; message: string }>;
  }>;
}

it("integers beyond 2^53 are equal when written alike, whatever JSON.parse rounds them to", async () => {
  writeFileSync(
    join(dir, "frames.ndjson"),
    [
      payload("9007199254740993", "9007199254740992"),
      payload("9007199254740993", "9007199254740993"),
      payload("3", "3"),
      payload("9007199254740993", "9007199254740992", "9007199254740993"),
    ].join("\n") + "\n",
  );
  const run = await vsk(["lint", "frames.ndjson", "--model", "t/m", "--format", "json"], dir);
  expect(run.stderr).toBe("");
  const report = JSON.parse(run.stdout) as Report;
  const unique = (n: number) =>
    report.results[n]!.diagnostics.filter((d) => d.rule === "frame-index-unique").map((d) => [d.pointer, d.message]);
  expect(report.results[0]!.valid).toBe(true);
  expect(unique(1)).toEqual([
    ["/keyframes/0/frame_index", expect.stringContaining("9007199254740993 is also used by keyframes[1]")],
    ["/keyframes/1/frame_index", expect.stringContaining("9007199254740993 is also used by keyframes[0]")],
  ]);
  expect(unique(2).map(([p]) => p)).toEqual(["/keyframes/0/frame_index", "/keyframes/1/frame_index"]);
  expect(unique(3)).toEqual([
    ["/keyframes/0/frame_index", expect.stringContaining("9007199254740993 is also used by keyframes[2];")],
    ["/keyframes/2/frame_index", expect.stringContaining("9007199254740993 is also used by keyframes[0];")],
  ]);
  expect(run.status).toBe(1);
});

it("the same in a .json file and in an envelope", async () => {
  writeFileSync(
    join(dir, "one.json"),
    `{"model": "t/m", "endpoint": "keyframes",\n "input": ${payload("9007199254740993", "9007199254740992")}}`,
  );
  const run = await vsk(["lint", "one.json", "--format", "json"], dir);
  expect(run.stderr).toBe("");
  expect((JSON.parse(run.stdout) as Report).results[0]!.valid).toBe(true);
  expect(run.status).toBe(0);
});
