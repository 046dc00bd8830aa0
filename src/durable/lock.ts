/**
 * One writer at a time per directory: a lock file created with O_EXCL holding
 * `{"pid", "command", "host", "startedAt"}`. A second writer polls for it up to
 * `VSK_LOCK_TIMEOUT` seconds (default 10), then gives up with "another vsk pull is running (pid
 * N)". A lock whose process is gone (SIGKILL, a closed laptop) is stale and taken over.
 *
 * Taking over is itself guarded: the taker first creates `<lock>.vsk-tmp` with O_EXCL, reads the
 * lock again, and removes it only if it still names the same dead process, so two takers cannot
 * both remove a lock and then each believe they hold the next one.
 */
import { closeSync, constants, openSync, readFileSync, statSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { announce } from "./recovery-notice.js";
import { step } from "./crash-hook.js";

export interface LockInfo {
  pid: number;
  command: string;
  host: string;
  startedAt: string;
}

export class LockBusyError extends Error {
  override name = "LockBusyError";
  constructor(
    readonly lockFile: string,
    readonly holder: LockInfo | undefined,
    waitedMs: number,
  ) {
    super(
      `another vsk ${holder?.command ?? "command"} is running (pid ${holder?.pid ?? "unknown"}${holder?.host !== undefined && holder.host !== hostname() ? ` on ${holder.host}` : ""}${holder === undefined ? "" : `, since ${holder.startedAt}`}); waited ${(waitedMs / 1000).toFixed(0)} s for ${lockFile}. Try again when it has finished; if no vsk is running, delete that file`,
    );
  }
}

export interface Lock {
  file: string;
  /** whether the lock was taken over from a process that is gone (a crashed writer) */
  tookOver: boolean;
  /** that process, when its lock file said which it was */
  tookOverFrom?: LockInfo;
  release(): void;
}

const POLL_MS = 50;
/** A lock file too young to hold its content yet (created, not yet written) is someone's, not stale. */
const UNWRITTEN_GRACE_MS = 2000;

/** `VSK_LOCK_TIMEOUT` (seconds, default 10): how long a writer waits for another one. */
export function lockTimeoutMs(): number {
  const raw = process.env.VSK_LOCK_TIMEOUT;
  if (raw === undefined || raw.trim() === "") return 10_000;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  announce(
    `warning: VSK_LOCK_TIMEOUT must be a number of seconds (0 or more), not ${JSON.stringify(raw)}; waiting 10 s`,
  );
  return 10_000;
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
const sleep = (ms: number): void => void Atomics.wait(sleeper, 0, 0, ms);

/**
 * Takes the lock `file`, waiting up to `timeoutMs` for a live holder. Throws `LockBusyError` when
 * it is still held then; other errors (EACCES, ENOTDIR) as they are.
 */
export function acquireLock(file: string, command: string, timeoutMs = lockTimeoutMs()): Lock {
  const started = Date.now();
  let tookOver = false;
  let tookOverFrom: LockInfo | undefined;
  for (;;) {
    if (tryCreate(file, command)) return makeLock(file, tookOver, tookOverFrom);
    const holder = readLock(file);
    if (holder === "gone") continue;
    if (isStale(file, holder)) {
      tookOver = true;
      if (holder !== undefined) tookOverFrom = holder;
      breakStale(file, holder);
      continue;
    }
    const waited = Date.now() - started;
    if (waited >= timeoutMs) throw new LockBusyError(file, holder, waited);
    sleep(Math.min(POLL_MS, timeoutMs - waited));
  }
}

function makeLock(file: string, tookOver: boolean, tookOverFrom: LockInfo | undefined): Lock {
  let held = true;
  return {
    file,
    tookOver,
    ...(tookOverFrom === undefined ? {} : { tookOverFrom }),
    release() {
      if (!held) return;
      held = false;
      step("remove the lock");
      try {
        unlinkSync(file);
      } catch {
        // already gone: nothing to release
      }
    },
  };
}

function tryCreate(file: string, command: string, label = "create the lock"): boolean {
  step(label);
  let fd: number;
  try {
    fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o666);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  const info: LockInfo = { pid: process.pid, command, host: hostname(), startedAt: new Date().toISOString() };
  try {
    writeSync(fd, JSON.stringify(info) + "\n");
  } finally {
    closeSync(fd);
  }
  return true;
}

/** The holder, undefined when the file cannot be understood, "gone" when it vanished meanwhile. */
export function readLock(file: string): LockInfo | undefined | "gone" {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? "gone" : undefined;
  }
  try {
    const parsed = JSON.parse(text) as Partial<LockInfo>;
    if (typeof parsed.pid === "number" && Number.isInteger(parsed.pid) && parsed.pid > 0)
      return {
        pid: parsed.pid,
        command: typeof parsed.command === "string" ? parsed.command : "command",
        host: typeof parsed.host === "string" ? parsed.host : hostname(),
        startedAt: typeof parsed.startedAt === "string" ? parsed.startedAt : "an unknown time",
      };
  } catch {
    // a lock killed between its creation and its first write: judged by its age below
  }
  return undefined;
}

/** Whether the process named in a lock is gone (on this host); a lock with no readable pid counts by age. */
function isStale(file: string, holder: LockInfo | undefined): boolean {
  if (holder === undefined) {
    const info = statSync(file, { throwIfNoEntry: false });
    return info !== undefined && Date.now() - info.mtimeMs > UNWRITTEN_GRACE_MS;
  }
  if (holder.host !== hostname()) return false;
  if (holder.pid === process.pid) return true; // a reused pid: this process holds no lock it does not know of
  return !isAlive(holder.pid);
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Removes a stale lock, under `<lock>.vsk-tmp` so that two takers cannot both remove it. */
function breakStale(file: string, holder: LockInfo | undefined): void {
  const guard = `${file}.vsk-tmp`;
  if (!tryCreate(guard, "take over a stale lock", "create the guard of a stale lock")) {
    const other = readLock(guard);
    // a taker that died holding the guard leaves it behind: remove it, then try again from the start
    if (other !== "gone" && isStale(guard, other)) {
      try {
        unlinkSync(guard);
      } catch {
        // someone else removed it
      }
    } else sleep(POLL_MS);
    return;
  }
  try {
    const now = readLock(file);
    const same =
      now !== "gone" &&
      (holder === undefined
        ? now === undefined
        : now !== undefined && now.pid === holder.pid && now.startedAt === holder.startedAt);
    if (same) {
      step("remove a stale lock");
      try {
        unlinkSync(file);
      } catch {
        // gone meanwhile
      }
    }
  } finally {
    try {
      unlinkSync(guard);
    } catch {
      // already gone
    }
  }
}
