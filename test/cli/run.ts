/**
 * The `vsk` command (`node bin/vsk.mjs …`, the package's bin) as a user runs it, in a child process with a
 * clean environment (no VSK_*, no colour settings), for the CLI tests of init, config and the
 * command-line details. Every run is also checked for a stack trace, which no input may cause.
 */
import { execFile, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { format } from "node:util";
import { afterAll, expect } from "vitest";

export const ROOT = resolve(import.meta.dirname, "../..");
/** The installed `vsk` command (package.json "bin"), which users run: not dist/ directly. */
export const CLI = join(ROOT, "bin/vsk.mjs");
/** A mirror directory laid out as spec 9.1 (`main/<owner>/<name>/latest.json`) of the three example models. */
export const MIRROR = join(ROOT, "test/fixtures/pull/mirror");

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A run that has not ended by then is killed (code null): a hang fails its test instead of the suite. */
const RUN_TIMEOUT_MS = 120_000;

/** The environment of a run: the test's own, without VSK_* and colour settings, plus `env`. */
function cleanEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !k.startsWith("VSK_") && !["NO_COLOR", "FORCE_COLOR", "GITHUB_STEP_SUMMARY"].includes(k),
    ),
  );
  return { ...base, VSK_FETCH_RETRIES: "0", ...env };
}

function checked(result: Run): Run {
  expect(result.stderr, "a stack trace").not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/);
  return result;
}

export function vsk(args: string[], cwd: string, env: Record<string, string> = {}, cli = CLI): Run {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\` first (npm test does)`);
  const run = spawnSync(process.execPath, [cli, ...args], {
    cwd,
    env: cleanEnv(env),
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    timeout: RUN_TIMEOUT_MS,
  });
  return checked({ code: run.status, stdout: run.stdout, stderr: run.stderr });
}

/** `vsk` without blocking the test's worker, so that independent runs can go side by side. */
export function vskAsync(args: string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first (npm test does)`);
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [CLI, ...args],
      { cwd, env: cleanEnv(env), encoding: "utf8", timeout: RUN_TIMEOUT_MS },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : null;
        resolve(checked({ code, stdout, stderr }));
      },
    );
    child.stdin?.end();
  });
}

/**
 * `vsk` run inside the test's own process (issue 42.4): the same program as {@link vsk} (the built
 * bin's bundle, dist/cli/vsk.js: main.ts's `main` and `reportFailure`, as `runAsProgram` calls them) with
 * the same clean environment and working directory, stdout and stderr captured, no stdin. A run
 * costs milliseconds instead of a node start and ~0.3 s of loading; use it where the spawn itself
 * is not what is tested (each behaviour keeps one real spawn through {@link vsk}). Runs are one at
 * a time (the process's cwd, env and output are shared); not for `--watch`, stdin or `--jobs`
 * workers, nor for a test that changes a module vsk has already loaded (the lint cache).
 */
export async function vskInProcess(
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
  /** "exact": the run's environment is `env` alone (as a spawn given `env`), not the test's own plus `env` */
  environment: "clean" | "exact" = "clean",
): Promise<Run> {
  const previous = inProcessQueue;
  let release!: () => void;
  inProcessQueue = new Promise<void>((r) => (release = r));
  await previous;
  const program = await loadProgram();
  const saved = { ...process.env };
  const savedCwd = process.cwd();
  const out = process.stdout.write;
  const err = process.stderr.write;
  // yargs (a package, loaded by node as it is) prints help and some errors with console.log/error
  const consoleMethods = { log: console.log, info: console.info, warn: console.warn, error: console.error };
  let stdout = "";
  let stderr = "";
  const capture =
    (append: (text: string) => void) =>
    (chunk: string | Uint8Array, encoding?: unknown, callback?: unknown): boolean => {
      append(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
      const done = typeof encoding === "function" ? encoding : callback;
      if (typeof done === "function") queueMicrotask(() => (done as () => void)());
      return true;
    };
  try {
    for (const key of Object.keys(process.env)) delete process.env[key];
    Object.assign(process.env, environment === "exact" ? env : cleanEnv(env));
    process.chdir(cwd);
    // as a child process's piped output: not a terminal (no colour, no progress line), no width
    for (const stream of STREAMS) for (const key of ["isTTY", "columns"] as const) hide(stream, key);
    process.stdout.write = capture((t) => (stdout += t)) as typeof process.stdout.write;
    process.stderr.write = capture((t) => (stderr += t)) as typeof process.stderr.write;
    console.log = console.info = (...args: unknown[]) => void (stdout += `${format(...args)}\n`);
    console.warn = console.error = (...args: unknown[]) => void (stderr += `${format(...args)}\n`);
    let code: number;
    try {
      code = await program.main(args);
    } catch (error) {
      code = program.reportFailure(error);
    }
    return checked({ code, stdout, stderr });
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
    Object.assign(console, consoleMethods);
    restoreStreams();
    process.chdir(savedCwd);
    for (const key of Object.keys(process.env)) delete process.env[key];
    Object.assign(process.env, saved);
    release();
  }
}

let inProcessQueue: Promise<void> = Promise.resolve();

const STREAMS = [process.stdin, process.stdout, process.stderr];
const hidden: Array<() => void> = [];
/** Makes `stream[key]` read undefined until {@link restoreStreams}. */
function hide(stream: object, key: "isTTY" | "columns"): void {
  const own = Object.getOwnPropertyDescriptor(stream, key);
  Object.defineProperty(stream, key, { configurable: true, get: () => undefined });
  hidden.push(() => {
    if (own === undefined) delete (stream as Record<string, unknown>)[key];
    else Object.defineProperty(stream, key, own);
  });
}
function restoreStreams(): void {
  for (const restore of hidden.splice(0).reverse()) restore();
}
let program: Promise<{ main(argv: string[]): Promise<number>; reportFailure(thrown: unknown): number }> | undefined;
/** The bundle, loaded by node itself (not transformed by vitest), as bin/vsk.mjs loads it: its main.ts (src/cli/program.ts `loadMain`). */
function loadProgram(): NonNullable<typeof program> {
  const bundle = join(ROOT, "dist/cli/vsk.js");
  if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run \`npm run build\` first (npm test does)`);
  return (program ??= import(/* @vite-ignore */ pathToFileURL(bundle).href).then((entry: { loadMain(): never }) =>
    entry.loadMain(),
  ));
}

/** A usage error: exit 2, nothing on stdout, exactly one line on stderr; returns that line. */
export function usageError(run: Run): string {
  expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 2, stdout: "" });
  const lines = run.stderr.split("\n").filter((l) => l !== "");
  expect(lines, run.stderr).toHaveLength(1);
  return lines[0]!;
}

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh temp directory, removed after the file's tests. */
export function tempDir(prefix = "vsk-cli-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
}

/** stderr without the one notice a run in a directory with no config prints (the built-in example models are in use). */
export function withoutExampleNotice(stderr: string): string {
  return stderr.replace(/^vsk: no vsk\.config\.json .*using the built-in example models.*\n/m, "");
}
