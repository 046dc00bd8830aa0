/**
 * Killing a real `vsk` at every write step (the test-only `VSK_TEST_KILL_AT=N` of
 * src/durable/crash-hook.ts makes it SIGKILL itself right before its N-th change to the disk), then
 * running the next command and looking at what it finds.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, lstatSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { expect } from "vitest";

export const ROOT = resolve(import.meta.dirname, "../..");
export const CLI = join(ROOT, "dist/cli/vsk.js");
export const MIRROR = join(ROOT, "test/fixtures/pull/mirror");

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** The built CLI as a child process (node directly), with no VSK_* from the caller. */
export function vsk(args: readonly string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("VSK_")));
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd,
      env: { ...base, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    // a command that hangs fails the test instead of hanging it
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", fail);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      done({ code, signal, stdout, stderr });
    });
  });
}

/** Every file (sha256 of its bytes, `normalize` applied first) and every directory under `dir`. */
export function tree(
  dir: string,
  normalize: (path: string, bytes: Buffer) => Buffer | string = (_p, b) => b,
): Record<string, string> {
  const out: Record<string, string> = {};
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const full = join(entry.parentPath, entry.name);
    const rel = relative(dir, full).split("\\").join("/");
    const info = lstatSync(full);
    // a FIFO would hang this read, a 600 MB file slow it: they are recorded by kind and size
    out[rel] = info.isDirectory()
      ? "<dir>"
      : !info.isFile()
        ? `<special ${info.mode.toString(8)}>`
        : info.size > 16 * 1024 * 1024
          ? `<${info.size} bytes>`
          : createHash("sha256")
              .update(normalize(rel, readFileSync(full)))
              .digest("hex");
  }
  return out;
}

/** Names vsk uses for what is in flight (and used before: with a pid). */
const IN_FLIGHT = /\.vsk-(lock|journal|tmp|new|old)$|\.vsk-(tmp|bak|old)-\d/;

/** Every in-flight name anywhere under `dir`. */
export function leftovers(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .filter((p) => IN_FLIGHT.test(p));
}

export interface KillRun {
  step: number;
  /** the step's name, as the killed process said it */
  name: string;
  /** what `check` returned for the state the next command found */
  outcome: string;
}

/**
 * Runs `command` in a fresh project (`prepare`) killed at step 1, 2, 3… until a run completes
 * without reaching the step, `concurrency` runs at a time. After each kill, `next` runs the next
 * command in that project and `check` says what it found ("old" / "new"). Returns every kill, in
 * order.
 */
export async function killAtEveryStep(options: {
  prepare: () => string;
  command: readonly string[];
  env?: Record<string, string>;
  /** runs the next command in the killed project; `name` is the step the kill came at */
  next: (dir: string, name: string) => Promise<Run>;
  check: (dir: string, step: number) => string;
  concurrency?: number;
}): Promise<KillRun[]> {
  const runs: KillRun[] = [];
  const width = options.concurrency ?? 3;
  let completedAt: number | undefined;
  for (let first = 1; completedAt === undefined; first += width) {
    const batch = Array.from({ length: width }, (_, i) => first + i);
    const results = await Promise.all(
      batch.map(async (step) => {
        const dir = options.prepare();
        const run = await vsk(options.command, dir, { ...options.env, VSK_TEST_KILL_AT: String(step) });
        if (run.signal !== "SIGKILL") {
          expect(run, `the run with VSK_TEST_KILL_AT=${step} completes`).toMatchObject({ code: 0 });
          return { step, completed: true as const };
        }
        const name = /vsk: test: killed at step (\d+) \((.*)\)\n/.exec(run.stderr);
        expect(name?.[1], `the run killed at step ${step} says where`).toBe(String(step));
        const after = await options.next(dir, name![2]!);
        expect(after.stderr, "never a stack trace").not.toMatch(/\n\s+at /);
        expect(after.signal).toBeNull();
        return { step, completed: false as const, name: name![2]!, outcome: options.check(dir, step) };
      }),
    );
    for (const r of results) {
      if (r.completed) completedAt ??= r.step;
      else {
        expect(completedAt, `step ${r.step} was reached although step ${completedAt} was not`).toBeUndefined();
        runs.push({ step: r.step, name: r.name, outcome: r.outcome });
      }
    }
  }
  return runs;
}

/** The outcomes in step order are some "old" then some "new", both present: the switch is at one step. */
export function expectOneSwitch(runs: readonly KillRun[], commitStep: RegExp): void {
  const outcomes = runs.map((r) => r.outcome);
  const firstNew = outcomes.indexOf("new");
  expect(firstNew, "some kill leaves the old state, some the new").toBeGreaterThan(0);
  expect(outcomes.slice(0, firstNew).every((o) => o === "old")).toBe(true);
  expect(outcomes.slice(firstNew).every((o) => o === "new")).toBe(true);
  // the last kill that leaves the old state is right before the commit point
  expect(runs[firstNew - 1]!.name).toMatch(commitStep);
}
