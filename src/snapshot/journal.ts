/**
 * The snapshot's write-ahead journal: every model file and the manifest change as one unit, and
 * a process killed at any instant leaves either the old unit or the new one (after recovery).
 *
 * Commit, holding `<snapshot>/.vsk-lock`:
 *   1. each new file is written beside its target as `<target>.vsk-tmp` and flushed;
 *   2. `.vsk-journal` (targets and their sha256) is written as `.vsk-journal.vsk-tmp`, flushed and
 *      renamed into place: the commit point;
 *   3. each `<target>.vsk-tmp` is renamed over its target;
 *   4. `.vsk-journal` is removed.
 * Recovery, at the start of every command: with a `.vsk-journal`, roll forward (rename the staged
 * files still there, after checking their hashes); without one, the staged files are an
 * unfinished step 1 or 2: remove them, and the directories made for them.
 */
import { readdirSync, rmdirSync } from "node:fs";
import type { PlatformBuffer } from "../platform/index.js";
import { dirname, join } from "node:path";
import {
  announce,
  entryAt,
  kindOf,
  mkdirStep,
  readRegularFile,
  renameStep,
  SpecialFileError,
  syncDir,
  unlinkStep,
  writeFileDurable,
} from "../durable/index.js";
import { createHash } from "node:crypto";

export const LOCK_FILE = ".vsk-lock";
export const JOURNAL_FILE = ".vsk-journal";
export const STAGED = ".vsk-tmp";
export const MANIFEST_FILE = "manifest.json";
/** No snapshot file (model schema or manifest) is anywhere near this: a bigger one is refused, never read. */
export const MAX_SNAPSHOT_FILE_BYTES = 64 * 1024 * 1024;

const hash = (bytes: Buffer | string): string => createHash("sha256").update(bytes).digest("hex");

/** The only paths a journal may name: the manifest and `<owner>/<name>/latest.json`. */
const TARGET = /^(?:manifest\.json|[A-Za-z0-9][A-Za-z0-9._-]*\/[A-Za-z0-9][A-Za-z0-9._-]*\/latest\.json)$/;

interface JournalEntry {
  target: string;
  sha256: string;
}
interface Journal {
  vsk: "snapshot-journal";
  command: string;
  files: JournalEntry[];
}

export class JournalError extends Error {
  override name = "JournalError";
}

/** Reads and checks `.vsk-journal`; undefined when there is none. */
export function readJournal(dir: string): Journal | undefined {
  const file = join(dir, JOURNAL_FILE);
  if (entryAt(file) === undefined) return undefined;
  const fix = `it was not written by vsk; delete it and check ${dir} with \`git status\``;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readRegularFile(file, 1024 * 1024).toString("utf8"));
  } catch (error) {
    if (error instanceof SpecialFileError) throw new JournalError(`${error.message}; ${fix}`);
    throw new JournalError(`${file} is not a vsk journal (not JSON); ${fix}`);
  }
  const j = parsed as Partial<Journal>;
  const ok =
    j !== null &&
    typeof j === "object" &&
    j.vsk === "snapshot-journal" &&
    Array.isArray(j.files) &&
    j.files.every(
      (f) =>
        typeof f === "object" &&
        f !== null &&
        typeof f.target === "string" &&
        TARGET.test(f.target) &&
        !f.target.split("/").some((p) => p === "." || p === "..") &&
        typeof f.sha256 === "string" &&
        /^[0-9a-f]{64}$/.test(f.sha256),
    );
  if (!ok) throw new JournalError(`${file} is not a vsk journal; ${fix}`);
  return { vsk: "snapshot-journal", command: typeof j.command === "string" ? j.command : "write", files: j.files! };
}

/**
 * Writes `files` (paths relative to `dir`) as one unit. Call it holding the lock, after
 * `recoverSnapshotDir`. A target that exists and is not a regular file is refused before anything
 * is written. A failure before the commit point removes what was staged; after it, the journal
 * stays and the next command finishes the job.
 */
export function commitFiles(
  dir: string,
  files: ReadonlyArray<{ path: string; content: string | PlatformBuffer }>,
  command: string,
): void {
  for (const f of files) {
    const info = entryAt(join(dir, f.path));
    const kind = info === undefined ? undefined : kindOf(info);
    if (kind !== undefined)
      throw new SpecialFileError(join(dir, f.path), `is ${kind}, not a regular file; vsk replaces only files it wrote`);
  }
  const made: string[] = [];
  const staged: string[] = [];
  const dirs = new Set<string>([dir]);
  const journalTemp = join(dir, JOURNAL_FILE + STAGED);
  let committed = false;
  try {
    for (const f of files) {
      const target = join(dir, f.path);
      for (const d of missingDirs(dir, dirname(target))) {
        mkdirStep(d, d.slice(dir.length + 1));
        made.push(d);
      }
      dirs.add(dirname(target));
      writeFileDurable(target + STAGED, f.content, f.path + STAGED);
      staged.push(target + STAGED);
    }
    for (const d of [...dirs].reverse()) syncDir(d);
    const journal: Journal = {
      vsk: "snapshot-journal",
      command,
      files: files.map((f) => ({ target: f.path, sha256: hash(f.content) })),
    };
    writeFileDurable(journalTemp, JSON.stringify(journal, null, 2) + "\n", JOURNAL_FILE + STAGED);
    renameStep(journalTemp, join(dir, JOURNAL_FILE), `${JOURNAL_FILE + STAGED} to ${JOURNAL_FILE} (the commit point)`);
    syncDir(dir);
    committed = true;
    for (const f of files) renameStep(join(dir, f.path) + STAGED, join(dir, f.path), `${f.path + STAGED} to ${f.path}`);
    for (const d of dirs) syncDir(d);
    unlinkStep(join(dir, JOURNAL_FILE), JOURNAL_FILE);
    syncDir(dir);
  } catch (error) {
    if (!committed) {
      for (const file of [...staged, journalTemp]) removeQuietly(file);
      for (const d of made.reverse()) removeDirQuietly(d);
    }
    throw error;
  }
}

/** The directories between `root` and `dir` (inclusive) that do not exist yet, outermost first. */
function missingDirs(root: string, dir: string): string[] {
  const out: string[] = [];
  for (let d = dir; d.length > root.length && entryAt(d) === undefined; d = dirname(d)) out.unshift(d);
  return out;
}

function removeQuietly(file: string): void {
  try {
    if (entryAt(file) !== undefined) unlinkStep(file, file);
  } catch {
    // the next command's recovery removes it
  }
}
function removeDirQuietly(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // not empty, or gone
  }
}

/** The `<owner>/<name>` directories of the snapshot (real directories only, never through a symlink). */
export function modelDirs(dir: string): string[] {
  const out: string[] = [];
  for (const owner of safeList(dir)) {
    const ownerDir = join(dir, owner);
    if (!entryAt(ownerDir)?.isDirectory()) continue;
    for (const name of safeList(ownerDir))
      if (entryAt(join(ownerDir, name))?.isDirectory()) out.push(`${owner}/${name}`);
  }
  return out;
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

/** Files that vsk before 0.2 left behind, named with a pid: `<file>.vsk-tmp-<pid>-<hex>`, `<file>.vsk-bak-<pid>-<hex>`. */
const LEGACY = /^(manifest\.json|latest\.json)\.vsk-(tmp|bak)-\d+-[0-9a-f]+$/;

/**
 * Finishes (journal present) or undoes (journal absent) an interrupted snapshot write. Call it
 * holding the lock. `afterCrash` (the lock was taken over from a dead process) also removes the
 * empty model directories such a process may have made. Says what it did on stderr.
 */
export function recoverSnapshotDir(dir: string, afterCrash: boolean): void {
  if (entryAt(dir) === undefined) return;
  const journal = readJournal(dir);
  if (journal !== undefined) {
    for (const f of journal.files) {
      const target = join(dir, f.target);
      const staged = target + STAGED;
      if (entryAt(staged) !== undefined) {
        const bytes = readRegularFile(staged, MAX_SNAPSHOT_FILE_BYTES);
        if (hash(bytes) !== f.sha256)
          throw new JournalError(
            `${staged} does not match ${join(dir, JOURNAL_FILE)} (the disk lost data?); restore ${dir} from version control, then delete both`,
          );
        renameStep(staged, target, `${f.target + STAGED} to ${f.target} (recovery)`);
      }
    }
    for (const d of new Set(journal.files.map((f) => dirname(join(dir, f.target))))) syncDir(d);
    unlinkStep(join(dir, JOURNAL_FILE), `${JOURNAL_FILE} (recovery)`);
    syncDir(dir);
    announce(
      `finished an interrupted ${journal.command} in ${dir}: ${journal.files.map((f) => f.target).join(", ")} now hold its complete result`,
    );
  }
  const removed: string[] = [];
  const drop = (rel: string): void => {
    unlinkStep(join(dir, rel), `${rel} (recovery)`);
    removed.push(rel);
  };
  for (const name of safeList(dir))
    if (name === JOURNAL_FILE + STAGED || name === MANIFEST_FILE + STAGED || LEGACY.test(name)) {
      if (name.includes(".vsk-bak-") && entryAt(join(dir, MANIFEST_FILE)) === undefined)
        renameStep(join(dir, name), join(dir, MANIFEST_FILE), `${name} back (recovery)`);
      else drop(name);
    }
  for (const model of modelDirs(dir)) {
    const names = safeList(join(dir, model));
    for (const name of names)
      if (name === "latest.json" + STAGED || LEGACY.test(name)) {
        const rel = `${model}/${name}`;
        if (name.includes(".vsk-bak-") && entryAt(join(dir, model, "latest.json")) === undefined)
          renameStep(join(dir, rel), join(dir, model, "latest.json"), `${rel} back (recovery)`);
        else drop(rel);
      }
  }
  if (removed.length > 0 || afterCrash) {
    // the empty model directories an interrupted write made (git keeps no empty directory either)
    for (const owner of safeList(dir)) {
      const ownerDir = join(dir, owner);
      if (!entryAt(ownerDir)?.isDirectory()) continue;
      for (const name of safeList(ownerDir))
        if (entryAt(join(ownerDir, name))?.isDirectory()) removeDirQuietly(join(ownerDir, name));
      removeDirQuietly(ownerDir);
    }
    syncDir(dir);
  }
  if (removed.length > 0)
    announce(
      `removed ${removed.join(", ")} in ${dir}, left unfinished by an interrupted write; the snapshot is as it was`,
    );
}

/** What a reader should read for `target` (relative) while a live writer is between its commit point and the end. */
export function stagedIfCommitted(dir: string, target: string): string | undefined {
  if (entryAt(join(dir, JOURNAL_FILE)) === undefined) return undefined;
  try {
    const journal = readJournal(dir);
    if (journal?.files.some((f) => f.target === target)) return join(dir, target) + STAGED;
  } catch {
    // a journal that cannot be read: the reader reads the target, and the next writer reports it
  }
  return undefined;
}
