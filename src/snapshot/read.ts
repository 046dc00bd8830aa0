/**
 * The snapshot's lock and reading it as a reader must (lint's staleness check, every command's
 * start): one file as its bytes and hash, an interrupted write finished or undone first, and the
 * writers' lock that does the same before a write. Apart from the loader in store.ts, so that
 * `vsk lint` reads the snapshot without loading the schema stage. No signature here names a
 * Node type: the root entry's declarations re-export it (issue 30.10).
 */
import { mkdirSync } from "node:fs";
import { createHash } from "node:crypto";
import { basename, dirname, join } from "node:path";
import type { PlatformBuffer } from "../platform/index.js";
import {
  acquireLock,
  announce,
  entryAt,
  LockBusyError,
  readRegularFile,
  SpecialFileError,
  type Lock,
} from "../durable/index.js";
import {
  JOURNAL_FILE,
  JournalError,
  LOCK_FILE,
  MANIFEST_FILE,
  MAX_SNAPSHOT_FILE_BYTES,
  recoverSnapshotDir,
  STAGED,
  stagedIfCommitted,
} from "./journal.js";

export function sha256(text: string | PlatformBuffer): string {
  return createHash("sha256").update(text).digest("hex");
}

export class SnapshotError extends Error {
  override name = "SnapshotError";
}

/**
 * One snapshot file: hashed as the bytes on disk (as `generate`, `lint` and `pull` do), decoded
 * for parsing. A FIFO, a device, a symlink loop or a file over 64 MiB is refused with a
 * `SnapshotError` naming it, before anything is read. While a live writer is between its commit
 * point and its end, the file its journal names is read (whole, and new).
 */
export function readSnapshotFile(file: string): { text: string; sha256: string } {
  let bytes: Buffer | undefined;
  const staged = entryAt(file + STAGED) === undefined ? undefined : committedStaged(file);
  try {
    if (staged !== undefined) bytes = readOrUndefined(staged);
    bytes ??= readRegularFile(file, MAX_SNAPSHOT_FILE_BYTES);
  } catch (error) {
    if (error instanceof SpecialFileError)
      throw new SnapshotError(`${error.message}; remove it, or restore it from version control`);
    throw new SnapshotError(`${file} cannot be read (${errorCode(error)})`);
  }
  return { text: bytes.toString("utf8"), sha256: sha256(bytes) };
}

/** `<target>.vsk-tmp` when the journal of the snapshot holding `file` names it. */
function committedStaged(file: string): string | undefined {
  const name = basename(file);
  const root =
    name === MANIFEST_FILE ? dirname(file) : name === "latest.json" ? dirname(dirname(dirname(file))) : undefined;
  if (root === undefined) return undefined;
  return stagedIfCommitted(
    root,
    file
      .slice(root.length + 1)
      .split("\\")
      .join("/"),
  );
}

function readOrUndefined(file: string): Buffer | undefined {
  try {
    return readRegularFile(file, MAX_SNAPSHOT_FILE_BYTES);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined; // renamed in meanwhile: the target is new
    throw error;
  }
}

export function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException | undefined)?.code ?? (error instanceof Error ? error.message : String(error));
}

function recover(dir: string, lock: Lock): void {
  if (lock.tookOver)
    announce(
      `took over ${lock.file} from ${lock.tookOverFrom === undefined ? "a vsk process" : `pid ${lock.tookOverFrom.pid} (${lock.tookOverFrom.command})`} that is no longer running`,
    );
  try {
    recoverSnapshotDir(dir, lock.tookOver);
  } catch (error) {
    if (error instanceof JournalError || error instanceof SpecialFileError) throw new SnapshotError(error.message);
    throw new SnapshotError(`cannot finish an interrupted write in ${dir} (${errorCode(error)})`, { cause: error });
  }
}

/**
 * Before a reader reads the snapshot: when a writer was interrupted there (its lock or journal is
 * left), finish or undo that under the lock. When the lock cannot be had (a live writer past the
 * wait, a read-only tree), nothing is changed: `readSnapshotFile` then reads each file on the
 * side the journal says is whole.
 */
export function prepareSnapshotRead(dir: string): void {
  if (entryAt(join(dir, LOCK_FILE)) === undefined && entryAt(join(dir, JOURNAL_FILE)) === undefined) return;
  let lock: Lock;
  try {
    lock = acquireLock(join(dir, LOCK_FILE), "read (recovering)");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (error instanceof LockBusyError || code === "EACCES" || code === "EROFS" || code === "EPERM") return;
    throw new SnapshotError(`cannot lock the snapshot in ${dir} (${errorCode(error)})`, { cause: error });
  }
  try {
    recover(dir, lock);
  } finally {
    lock.release();
  }
}

/**
 * Runs `work` holding `<dir>/.vsk-lock` (made with `dir` if need be), after finishing or undoing
 * any interrupted write. Lock and recovery problems are `SnapshotError`s.
 */
export function withSnapshotLock<T>(dir: string, command: string, work: () => T): T {
  let lock: Lock;
  try {
    mkdirSync(dir, { recursive: true });
    lock = acquireLock(join(dir, LOCK_FILE), command);
  } catch (error) {
    if (error instanceof LockBusyError) throw new SnapshotError(error.message);
    throw new SnapshotError(
      `cannot lock the snapshot in ${dir} (${errorCode(error)}); check that you can write there`,
      {
        cause: error,
      },
    );
  }
  try {
    recover(dir, lock);
    return work();
  } finally {
    lock.release();
  }
}
