/**
 * Harness for `vsk drift` end to end: the built CLI (`node dist/cli/vsk.js drift`) as a
 * child process, in a temp directory with its own vsk.config.json and snapshot (nothing is
 * written into the repository's schemas-cache/), against a real HTTP server on 127.0.0.1.
 * JSON output is validated against the committed schemas/drift-report.schema.json.
 */
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, afterEach, beforeAll, beforeEach, expect } from "vitest";
import { vskInProcess } from "../cli/run.js";
import { startMirror, type MirrorServer } from "./serve.js";

export const ROOT = join(import.meta.dirname, "../..");
const CLI = join(ROOT, "dist/cli/vsk.js");
const MODELS = ["example/model-a", "example/model-b", "example/model-c"];
export const snapshotText = (model: string): string =>
  readFileSync(join(ROOT, "schemas-cache", model, "latest.json"), "utf8");

const validateReport = new Ajv2020({ strict: true, allErrors: true }).compile(
  JSON.parse(readFileSync(join(ROOT, "schemas/drift-report.schema.json"), "utf8")),
);

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** What the child reads on stdin: text, or an open file descriptor; nothing (closed at once) by default. */
export type Stdin = { text: string } | { fd: number };

/** The tests that have run `vsk drift` as a child process: each test's first run is one (issue 42.4). */
const spawnedIn = new Set<string>();

/**
 * Runs the built CLI asynchronously (the server lives in this process): each test's first run and
 * every run given stdin as a child process, a test's later runs as the same program in this
 * process (test/cli/run.ts's vskInProcess; what they check is drift's output, not the process).
 */
export function vsk(args: string[], cwd: string, env: Record<string, string> = {}, stdin?: Stdin): Promise<Run> {
  const test = expect.getState().currentTestName ?? "";
  if (stdin === undefined && spawnedIn.has(test)) return vskInProcess(["drift", ...args], cwd, env);
  spawnedIn.add(test);
  return spawned(args, cwd, env, stdin);
}

function spawned(args: string[], cwd: string, env: Record<string, string>, stdin?: Stdin): Promise<Run> {
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith("VSK_") && k !== "GITHUB_STEP_SUMMARY"),
  ) as Record<string, string>;
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [CLI, "drift", ...args], {
      cwd,
      env: { ...base, VSK_FETCH_RETRIES: "0", ...env },
      stdio: [stdin !== undefined && "fd" in stdin ? stdin.fd : "pipe", "pipe", "pipe"],
    });
    if (child.stdin !== null) child.stdin.end(stdin !== undefined && "text" in stdin ? stdin.text : undefined);
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", fail);
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
}

/** Parses `--format json` output and checks it against the committed schema. */
export function report(run: Run): any {
  const parsed = JSON.parse(run.stdout);
  const ok = validateReport(parsed);
  expect(validateReport.errors ?? [], JSON.stringify(validateReport.errors)).toEqual([]);
  expect(ok).toBe(true);
  expect(parsed.summary.exitCode).toBe(run.code);
  return parsed;
}

type Doc = Record<string, any>;
export const edit = (model: string, change: (doc: Doc) => void): string => {
  const doc = JSON.parse(snapshotText(model)) as Doc;
  change(doc);
  return JSON.stringify(doc, null, 2);
};

/** the server of the running file and the workspace of the running test */
export const ctx = { server: undefined as unknown as MirrorServer, dir: "" };

export function serve(model: string, body: string, status = 200, type = "application/json"): void {
  ctx.server.routes.set(`/main/${model}/latest.json`, { status, type, body });
}

/** Starts the server for the file and gives every test a fresh workspace whose source serves the snapshot unchanged. */
export function useDriftWorkspace(): void {
  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build first (npx tsc -p tsconfig.build.json)`);
    ctx.server = await startMirror();
  });
  afterAll(async () => ctx.server.close());

  beforeEach(() => {
    const dir = (ctx.dir = mkdtempSync(join(tmpdir(), "vsk-drift-")));
    for (const m of MODELS) cpSync(join(ROOT, "schemas-cache", m), join(dir, "schemas-cache", m), { recursive: true });
    cpSync(join(ROOT, "schemas-cache/manifest.json"), join(dir, "schemas-cache/manifest.json"));
    writeFileSync(
      join(dir, "vsk.config.json"),
      JSON.stringify({
        schemaUrl: ctx.server.origin,
        models: [
          { id: MODELS[0], alias: "modelA" },
          { id: MODELS[1], alias: "modelB" },
          { id: MODELS[2], alias: "modelC" },
        ],
      }),
    );
    ctx.server.routes.clear();
    for (const m of MODELS) serve(m, snapshotText(m));
  });
  afterEach(() => rmSync(ctx.dir, { recursive: true, force: true }));
}

/** The source's changes used by several tests: a narrowed enum, a changed default, a lowered bound, a new required field. */
export function serveChanged(): void {
  serve(
    "example/model-a",
    edit("example/model-a", (d) => {
      const p = d.components.schemas.TextToVideoInput.properties;
      p.aspect_ratio.enum = p.aspect_ratio.enum.filter((v: string) => v !== "2:1");
      p.resolution.default = "1080p";
    }),
  );
  serve(
    "example/model-c",
    edit("example/model-c", (d) => {
      const schemas = d.components.schemas;
      const input = Object.values(schemas).find((s: any) => s.properties?.ratio !== undefined) as Doc;
      input.properties.duration.maximum = 12;
    }),
  );
}
