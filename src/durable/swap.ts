/**
 * Replacing a whole directory (`generated/`) so that, whenever the process dies, the next vsk
 * command finds it entirely as before or entirely as after. Siblings with fixed names carry the
 * state, so recovery needs no other record:
 *
 *   <dir>.vsk-lock  the writer's lock
 *   <dir>.vsk-tmp   being written: incomplete, always deleted by recovery
 *   <dir>.vsk-new   complete (every file written and flushed), not yet swapped in
 *   <dir>.vsk-old   the previous directory, being swapped out
 *
 * Write: stage into .vsk-tmp, flush, rename it to .vsk-new (the commit point), rename <dir> to
 * .vsk-old, rename .vsk-new to <dir>, remove .vsk-old. Recovery, deterministic from which names
 * exist: .vsk-tmp is removed; a .vsk-new is swapped in (rolled forward); a .vsk-old is put back
 * when <dir> is missing and no .vsk-new exists, else removed.
 */
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { announce } from "./recovery-notice.js";
import { entryAt, mkdirStep, removeTree, renameStep, syncDir, writeFileDurable } from "./files.js";
import { acquireLock, LockBusyError } from "./lock.js";

export interface SwapNames {
  dir: string;
  lock: string;
  staging: string;
  ready: string;
  old: string;
}

export function swapNames(dir: string): SwapNames {
  const d = resolve(dir);
  return { dir: d, lock: `${d}.vsk-lock`, staging: `${d}.vsk-tmp`, ready: `${d}.vsk-new`, old: `${d}.vsk-old` };
}

const exists = (path: string): boolean => entryAt(path) !== undefined;

/** Leftovers of vsk before 0.2, named with a pid: `<dir>.vsk-tmp-<pid>`, `<dir>.vsk-old-<pid>`. */
function legacyLeftovers(names: SwapNames): { temps: string[]; olds: string[] } {
  const base = basename(names.dir);
  let entries: string[];
  try {
    entries = readdirSync(dirname(names.dir));
  } catch {
    return { temps: [], olds: [] };
  }
  const pick = (kind: string) =>
    entries.filter((e) => e.startsWith(`${base}.vsk-${kind}-`) && /^\d+$/.test(e.slice(base.length + kind.length + 6)));
  return {
    temps: pick("tmp").map((e) => join(dirname(names.dir), e)),
    olds: pick("old").map((e) => join(dirname(names.dir), e)),
  };
}

/**
 * Finishes or undoes an interrupted replacement of `dir`. Call it holding the lock. Says what it
 * did on stderr; returns whether there was anything to do.
 */
export function recoverDirectory(dir: string, what = "generate"): boolean {
  const n = swapNames(dir);
  const parent = dirname(n.dir);
  let acted = false;
  const legacy = legacyLeftovers(n);
  for (const old of legacy.olds) {
    if (!exists(n.dir)) renameStep(old, n.dir, "a legacy backup back into place");
    else removeTree(old, "a legacy backup");
    acted = true;
  }
  for (const temp of legacy.temps) {
    removeTree(temp, "a legacy temp directory");
    acted = true;
  }
  if (exists(n.staging)) {
    removeTree(n.staging, `${basename(n.staging)} (an unfinished ${what})`);
    announce(`removed ${n.staging}, left unfinished by an interrupted ${what}; ${n.dir} is as it was`);
    acted = true;
  }
  if (exists(n.ready)) {
    if (exists(n.dir)) {
      if (exists(n.old)) removeTree(n.old, basename(n.old));
      renameStep(n.dir, n.old, `${basename(n.dir)} to ${basename(n.old)}`);
    }
    renameStep(n.ready, n.dir, `${basename(n.ready)} to ${basename(n.dir)}`);
    syncDir(parent);
    announce(`finished an interrupted ${what}: ${n.dir} now holds its complete output`);
    acted = true;
  }
  if (exists(n.old)) {
    if (!exists(n.dir)) {
      renameStep(n.old, n.dir, `${basename(n.old)} back to ${basename(n.dir)}`);
      announce(`undid an interrupted ${what}: ${n.dir} is as it was`);
    } else removeTree(n.old, basename(n.old));
    syncDir(parent);
    acted = true;
  }
  return acted;
}

/** Whether anything of an interrupted replacement (or a writer at work) is there to look at. */
function pending(n: SwapNames): boolean {
  if (exists(n.lock) || exists(n.staging) || exists(n.ready) || exists(n.old)) return true;
  const legacy = legacyLeftovers(n);
  return legacy.temps.length > 0 || legacy.olds.length > 0;
}

/**
 * The directory a reader should read: `dir` itself, after recovering an interrupted write when
 * there is one (taking the lock for that, waiting for a live writer the usual bounded time).
 * When the lock cannot be had (a writer stuck past the wait, or a read-only tree), nothing is
 * changed and the consistent side is read instead: `dir`, else the complete `.vsk-new`, else
 * `.vsk-old`.
 */
export function readableDirectory(dir: string, what = "generate"): string {
  const n = swapNames(dir);
  if (!pending(n)) return n.dir;
  try {
    const lock = acquireLock(n.lock, `${what} (recovering)`);
    try {
      recoverDirectory(dir, what);
    } finally {
      lock.release();
    }
    return n.dir;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (!(error instanceof LockBusyError) && code !== "EACCES" && code !== "EROFS" && code !== "EPERM") throw error;
  }
  if (existsSync(n.dir)) return n.dir;
  if (exists(n.ready)) return n.ready;
  if (exists(n.old)) return n.old;
  return n.dir;
}

export interface DirectoryFile {
  /** relative to the directory, `/`-separated */
  path: string;
  content: string | Buffer;
}

/**
 * Replaces `dir` with exactly `files`, crash-safely (see the top of this file), holding
 * `<dir>.vsk-lock`. `check` runs under the lock, after recovery and before anything is written;
 * what it throws is thrown as it is. Any other failure (EACCES, ENOSPC) puts back what was there
 * and is thrown.
 */
export function replaceDirectory(
  dir: string,
  files: readonly DirectoryFile[],
  command: string,
  check: () => void = () => {},
): void {
  const n = swapNames(dir);
  const parent = dirname(n.dir);
  const lock = acquireLock(n.lock, command);
  try {
    recoverDirectory(dir, command);
    check();
    try {
      stage(n.staging, files);
      syncDir(parent);
      renameStep(n.staging, n.ready, `${basename(n.staging)} to ${basename(n.ready)} (the commit point)`);
      syncDir(parent);
      if (exists(n.dir)) renameStep(n.dir, n.old, `${basename(n.dir)} to ${basename(n.old)}`);
      renameStep(n.ready, n.dir, `${basename(n.ready)} to ${basename(n.dir)}`);
      syncDir(parent);
    } catch (error) {
      undo(n);
      throw error;
    }
    if (exists(n.old)) {
      removeTree(n.old, basename(n.old));
      syncDir(parent);
    }
  } finally {
    lock.release();
  }
}

/** Writes every file under `staging` and flushes them and their directories. */
function stage(staging: string, files: readonly DirectoryFile[]): void {
  mkdirStep(staging, "for the new output");
  const made = new Set<string>([staging]);
  files.forEach((f, i) => {
    const target = join(staging, f.path);
    const parts = f.path.split("/").slice(0, -1);
    for (let k = 1; k <= parts.length; k++) {
      const sub = join(staging, ...parts.slice(0, k));
      if (!made.has(sub)) {
        mkdirSync(sub);
        made.add(sub);
      }
    }
    // one step per stage of the staging, not per file: however many files a kill leaves, the
    // unfinished directory is removed the same way
    writeFileDurable(target, f.content, i === 0 ? `${f.path} (the first new file)` : undefined);
  });
  for (const d of made) syncDir(d);
}

/** After a failure (not a crash): the previous directory back, the new one gone. */
function undo(n: SwapNames): void {
  try {
    if (exists(n.old) && !exists(n.dir)) renameStep(n.old, n.dir, `${basename(n.old)} back`);
    if (exists(n.ready)) removeTree(n.ready, basename(n.ready));
    if (exists(n.staging)) removeTree(n.staging, basename(n.staging));
  } catch {
    // the next command's recovery finishes this
  }
}
