/**
 * The parser process: every parse of a referenced file's bytes (parse.ts) runs in a child
 * process of its own, under limits it cannot escape (issue 37): a V8 heap limit, a resident
 * memory limit watched from here, and a time limit per file after which it is killed. A parser
 * that throws, loops, runs out of memory or crashes the process fails that file's parse with a
 * problem in words, never the process that asked. Not a worker thread: on Node 20 a worker that
 * reaches its `resourceLimits` while growing an array can abort the whole process (measured).
 *
 * One process serves the whole program, started when a first file is read (not before: a run
 * with no media pays nothing), reused by every run and every file, one step at a time (a step
 * is CPU work on bytes already read: the network waits happen here, concurrently), and ended
 * after a few idle seconds or with the program. Killed, it starts again for the next step.
 */
import { fork, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { PlatformAbortSignal } from "../platform/index.js";
import type { ParseStep, ParseTask } from "./parse.js";

/** The bounds, documented in docs/preflight.md. */
export const SANDBOX_LIMITS = {
  /** the parser process's V8 heap (`--max-old-space-size`) */
  heapMb: 256,
  /** its resident memory, watched every 50 ms (Linux: /proc) while it parses */
  rssMb: 512,
  /** parsing one file, all its steps together */
  parseMs: 5_000,
  /** to start (Node and the four parsers' modules) */
  startMs: 30_000,
  /** idle this long, it ends (the next parse starts another) */
  idleMs: 5_000,
};

/** A parse that did not finish: `problem` says why, in words for a diagnostic. */
export class ParseFailed extends Error {
  constructor(readonly problem: string) {
    super(problem);
  }
}

interface Job {
  task: ParseTask;
  limitMs: number;
  signal: PlatformAbortSignal | undefined;
  resolve(result: { step: ParseStep; ms: number }): void;
  reject(error: ParseFailed): void;
}

type Reply = { ready: true } | { id: number; step: ParseStep } | { id: number; error: string };

/** Where the child's module is, beside this one: built (.js), or the sources run by tsx (.ts, tests). */
function childEntry(): { path: string; execArgv: string[] } {
  const here = import.meta.url;
  if (here.endsWith(".ts")) {
    const tsx = pathToFileURL(createRequire(here).resolve("tsx")).href;
    return { path: fileURLToPath(new URL("./sandbox-child.ts", here)), execArgv: ["--import", tsx] };
  }
  // dist/src/preflight/sandbox-child.js; in the bundled CLI, dist/cli/sandbox-child.js (scripts/bundle.mjs)
  return { path: fileURLToPath(new URL("./sandbox-child.js", here)), execArgv: [] };
}

/** The child's resident memory in MiB, where the system says (Linux), else undefined. */
function residentMb(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, "latin1"));
    return match === null ? undefined : Number(match[1]) / 1024;
  } catch {
    return undefined;
  }
}

const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;

class Sandbox {
  private child: ChildProcess | undefined;
  private ready = false;
  private readonly queue: Job[] = [];
  private current: { id: number; job: Job; began: number; timer: NodeJS.Timeout; watch?: NodeJS.Timeout } | undefined;
  /** why the child was killed, for the job it was running */
  private killedFor: string | undefined;
  private nextId = 0;
  private readonly watched = new Map<PlatformAbortSignal, { jobs: Set<Job>; onAbort: () => void }>();
  private idle: NodeJS.Timeout | undefined;
  private startTimer: NodeJS.Timeout | undefined;

  /** Starts the process ahead of a parse (while the first bytes are read). */
  warm(): void {
    if (this.child === undefined) this.spawn();
    // started, not held: a run whose fetch fails does not keep the program alive for it
    if (this.current === undefined && this.queue.length === 0) this.release();
  }

  run(task: ParseTask, limitMs: number, signal?: PlatformAbortSignal): Promise<{ step: ParseStep; ms: number }> {
    return new Promise((resolve, reject) => {
      if (limitMs <= 0) return reject(new ParseFailed(tooSlow()));
      if (signal?.aborted) return reject(new ParseFailed(deadlinePassed));
      const job: Job = { task, limitMs, signal, resolve, reject };
      if (signal !== undefined) this.watch(signal, job);
      this.queue.push(job);
      this.pump();
    });
  }

  /** One listener per signal (a run's deadline), not one per job: a run has many files waiting. */
  private watch(signal: PlatformAbortSignal, job: Job): void {
    let watched = this.watched.get(signal);
    if (watched === undefined) {
      const jobs = new Set<Job>();
      const onAbort = () => {
        for (const j of [...jobs]) this.abort(j);
      };
      watched = { jobs, onAbort };
      this.watched.set(signal, watched);
      signal.addEventListener("abort", onAbort, { once: true });
    }
    watched.jobs.add(job);
  }

  private settle(job: Job): void {
    if (job.signal === undefined) return;
    const watched = this.watched.get(job.signal);
    if (watched === undefined) return;
    watched.jobs.delete(job);
    if (watched.jobs.size > 0) return;
    job.signal.removeEventListener("abort", watched.onAbort);
    this.watched.delete(job.signal);
  }

  private abort(job: Job): void {
    const queued = this.queue.indexOf(job);
    if (queued !== -1) {
      this.queue.splice(queued, 1);
      this.settle(job);
      job.reject(new ParseFailed(deadlinePassed));
    } else if (this.current?.job === job) this.kill(deadlinePassed);
  }

  /** Keeps the program alive while a parse is queued or running; lets it end when idle. */
  private hold(): void {
    if (this.idle !== undefined) clearTimeout(this.idle);
    this.idle = undefined;
    this.child?.ref();
    this.child?.channel?.ref();
  }

  private release(): void {
    this.child?.unref();
    this.child?.channel?.unref();
    this.idle ??= setTimeout(() => this.kill(undefined), SANDBOX_LIMITS.idleMs);
    this.idle.unref();
  }

  private pump(): void {
    if (this.current !== undefined) return;
    if (this.queue.length === 0) return this.release();
    this.hold();
    if (this.child === undefined) this.spawn();
    if (!this.ready) return;
    const job = this.queue.shift()!;
    const id = this.nextId++;
    const timer = setTimeout(() => this.kill(tooSlow()), job.limitMs);
    this.current = { id, job, began: performance.now(), timer };
    const pid = this.child!.pid;
    if (process.platform === "linux" && pid !== undefined)
      this.current.watch = setInterval(() => {
        const mb = residentMb(pid);
        if (mb !== undefined && mb > SANDBOX_LIMITS.rssMb) this.kill(tooBig());
      }, 50);
    this.child!.send({ id, task: job.task }, (error) => {
      if (error !== null && this.current?.id === id)
        this.kill(`the parser process could not be given its bytes (${error.message})`);
    });
  }

  private finish(result: { step: ParseStep } | { error: ParseFailed }): void {
    const current = this.current!;
    this.current = undefined;
    clearTimeout(current.timer);
    if (current.watch !== undefined) clearInterval(current.watch);
    this.settle(current.job);
    if ("step" in result) current.job.resolve({ step: result.step, ms: performance.now() - current.began });
    else current.job.reject(result.error);
  }

  private spawn(): void {
    const { path, execArgv } = childEntry();
    let child: ChildProcess;
    this.ready = false;
    this.killedFor = undefined;
    try {
      child = fork(path, [], {
        execArgv: [...execArgv, `--max-old-space-size=${SANDBOX_LIMITS.heapMb}`, "--max-semi-space-size=16"],
        serialization: "advanced",
        // its output, a V8 fatal error's included, is nobody's business: the problem says it
        stdio: ["ignore", "ignore", "ignore", "ipc"],
      });
    } catch (error) {
      return this.failAll(notStarted(error));
    }
    this.child = child;
    this.startTimer = setTimeout(
      () => this.kill(`the parser process did not start within ${seconds(SANDBOX_LIMITS.startMs)}`),
      SANDBOX_LIMITS.startMs,
    );
    this.startTimer.unref();
    child.on("message", (reply: Reply) => {
      if (child !== this.child) return;
      if ("ready" in reply) {
        this.ready = true;
        clearTimeout(this.startTimer);
        return this.pump();
      }
      if (this.current?.id !== reply.id) return;
      // a parser's own error the child caught (parse.ts catches the parsers'): said plainly
      this.finish(
        "step" in reply ? { step: reply.step } : { error: new ParseFailed("its parser failed on its bytes") },
      );
      this.pump();
    });
    child.on("error", (error) => {
      // a fork that could not start (ENOENT, EAGAIN): every waiting parse fails with it, not only one
      if (child === this.child && !this.ready) this.gone(child, notStarted(error));
    });
    child.on("exit", (code, signal) => {
      if (child !== this.child) return;
      const why =
        this.killedFor ??
        (this.ready
          ? `parsing it stopped the parser process (${signal ?? `exit code ${code}`}: out of memory, over the ${SANDBOX_LIMITS.heapMb} MiB heap, or a crash)`
          : `the parser process stopped as it started (${signal ?? `exit code ${code}`})`);
      this.gone(child, why);
    });
  }

  /** The child is gone: the parse it ran fails with `why`; the queue goes on in a new one (or fails, if it never started). */
  private gone(child: ChildProcess, why: string): void {
    if (child !== this.child) return;
    const started = this.ready;
    this.child = undefined;
    this.ready = false;
    clearTimeout(this.startTimer);
    child.removeAllListeners("message");
    if (this.current !== undefined) this.finish({ error: new ParseFailed(why) });
    if (!started) return this.failAll(why);
    this.pump();
  }

  private failAll(why: string): void {
    for (const job of this.queue.splice(0)) {
      this.settle(job);
      job.reject(new ParseFailed(why));
    }
    this.release();
  }

  /** Ends the child; the parse it runs fails with `why` (undefined: idle, nothing fails). */
  private kill(why: string | undefined): void {
    const child = this.child;
    if (child === undefined) return;
    if (why === undefined && (this.current !== undefined || this.queue.length > 0)) return;
    this.killedFor = why ?? "the parser process was ended";
    if (this.idle !== undefined) clearTimeout(this.idle);
    this.idle = undefined;
    child.kill("SIGKILL");
    if (why === undefined) {
      this.child = undefined;
      this.ready = false;
    }
  }
}

const tooSlow = (): string =>
  `parsing it took longer than ${seconds(SANDBOX_LIMITS.parseMs)}, the preflight's limit per file`;
const tooBig = (): string =>
  `parsing it needed more than ${SANDBOX_LIMITS.rssMb} MiB of memory, the preflight's limit per file`;
const deadlinePassed = "the preflight's overall deadline passed before it was parsed";
const notStarted = (error: unknown): string =>
  `the preflight could not start its parser process (${error instanceof Error ? ((error as NodeJS.ErrnoException).code ?? error.message) : String(error)})`;

let shared: Sandbox | undefined;

/** Starts the parser process, if it is not running, while the first bytes are read. */
export function warmParser(): void {
  (shared ??= new Sandbox()).warm();
}

/** One parse step in the parser process, within `limitMs`; rejects with ParseFailed. */
export function parseBounded(
  task: ParseTask,
  limitMs: number,
  signal?: PlatformAbortSignal,
): Promise<{ step: ParseStep; ms: number }> {
  return (shared ??= new Sandbox()).run(task, limitMs, signal);
}
