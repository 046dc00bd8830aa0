/**
 * The committed snapshot: `schemas-cache/<owner>/<name>/latest.json` per model plus
 * `schemas-cache/manifest.json` (sha256, source URL without query string, fetch time).
 * Writes are all-or-nothing: temp files first, existing files backed up, then renamed in; any
 * failure restores the backups.
 */
import { createHash, randomBytes } from "node:crypto";
import { existsSync, lstatSync, mkdirSync, readFileSync, renameSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative } from "node:path";
import type { ModelRef } from "../config/index.js";
import { jsonSyntaxError } from "../json/index.js";
import { loadModelDocument, parseModelText, splitModelId, type ModelSchema } from "../schema/index.js";

export interface ManifestEntry {
  file: string;
  sha256: string;
  source: string;
  fetchedAt: string;
}
export interface Manifest {
  models: Record<string, ManifestEntry>;
}

export const MANIFEST_FILE = "manifest.json";

export function sha256(text: string | Buffer): string {
  return createHash("sha256").update(text).digest("hex");
}

/** `<owner>/<name>/latest.json`, relative to the snapshot directory. */
export function snapshotFile(model: string): string {
  const { owner, name } = splitModelId(model);
  return `${owner}/${name}/latest.json`;
}

export class SnapshotError extends Error {
  override name = "SnapshotError";
}

export interface SnapshotModel {
  ref: ModelRef;
  file: string;
  text: string;
  sha256: string;
  schema: ModelSchema;
}

/** One snapshot file: hashed as the bytes on disk (as `generate`, `lint` and `pull` do), decoded for parsing. */
export function readSnapshotFile(file: string): { text: string; sha256: string } {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    throw new SnapshotError(`${file} cannot be read (${errorCode(error)})`);
  }
  return { text: bytes.toString("utf8"), sha256: sha256(bytes) };
}

/** Reads and loads every model of the snapshot; a missing file says how to get it. */
export function readSnapshot(dir: string, models: readonly ModelRef[]): SnapshotModel[] {
  return models.map((ref) => {
    const file = join(dir, snapshotFile(ref.id));
    if (!existsSync(file)) {
      throw new SnapshotError(`${ref.id}: no snapshot at ${file}; run \`vsk pull\` to fetch it`);
    }
    const { text, sha256 } = readSnapshotFile(file);
    const origin = { model: ref.id, file };
    return { ref, file, text, sha256, schema: loadModelDocument(parseModelText(text, origin), origin) };
  });
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException | undefined)?.code ?? (error instanceof Error ? error.message : String(error));
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The manifest, or an empty one when there is none yet. One that exists but cannot be read,
 * is not JSON or is not `{ "models": { … } }` is a `SnapshotError`: treating it as empty would
 * make the next `pull --model X` drop every other model's entry.
 */
export function readManifest(dir: string): Manifest {
  const file = join(dir, MANIFEST_FILE);
  if (!existsSync(file)) return { models: {} };
  const fix =
    "fix it (or restore it from version control), or delete it and run `vsk pull` for every model to rebuild it";
  const { text } = readSnapshotFile(file);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch {
    const { line, column, problem } = jsonSyntaxError(text.replace(/^\uFEFF/, ""));
    throw new SnapshotError(`${file} is not valid JSON (line ${line}, column ${column}: ${problem}); ${fix}`);
  }
  if (!isObject(parsed) || !isObject(parsed.models))
    throw new SnapshotError(`${file} is not a snapshot manifest (expected { "models": { … } }); ${fix}`);
  for (const [model, entry] of Object.entries(parsed.models)) {
    const bad = !isObject(entry)
      ? "is not an object"
      : (["file", "sha256", "source", "fetchedAt"] as const).find((k) => typeof entry[k] !== "string");
    if (bad !== undefined)
      throw new SnapshotError(
        `${file}: the entry of ${JSON.stringify(model)} ${bad === "is not an object" ? bad : `has no string "${bad}"`}; ${fix}`,
      );
  }
  return parsed as unknown as Manifest;
}

/**
 * Writes files relative to `dir` all-or-nothing. Every file goes to a temp file first; then each
 * existing target is renamed to a backup, and the temps are renamed in. A failure at any step
 * (EACCES, EXDEV, ENOSPC…) puts the backups back and removes the temps and any directory made, so
 * the snapshot is left as it was; it is thrown as a `SnapshotError`. Backups are removed at the end.
 */
export function writeFilesAtomically(
  dir: string,
  files: ReadonlyArray<{ path: string; content: string | Buffer }>,
): void {
  const tag = `${process.pid}-${randomBytes(4).toString("hex")}`;
  const madeDirs: string[] = [];
  const staged: Array<{ temp: string; target: string; backup?: string; installed?: boolean }> = [];
  try {
    for (const f of files) {
      const target = join(dir, f.path);
      const made = mkdirSync(dirname(target), { recursive: true });
      for (let d = dirname(target); made !== undefined; d = dirname(d)) {
        madeDirs.push(d);
        if (d === made || d === dirname(d)) break;
      }
      const entry: (typeof staged)[number] = { temp: `${target}.vsk-tmp-${tag}`, target };
      staged.push(entry);
      writeFileSync(entry.temp, f.content);
    }
    for (const entry of staged) {
      const info = lstatSync(entry.target, { throwIfNoEntry: false });
      if (info === undefined) continue;
      if (info.isDirectory()) throw Object.assign(new Error(`${entry.target} is a directory`), { code: "EISDIR" });
      const backup = `${entry.target}.vsk-bak-${tag}`;
      renameSync(entry.target, backup);
      entry.backup = backup;
    }
    for (const entry of staged) {
      renameSync(entry.temp, entry.target);
      entry.installed = true;
    }
  } catch (error) {
    const left = rollBack(staged, madeDirs);
    const note =
      left.length === 0
        ? "nothing was changed"
        : `some files could not be put back, restore them by hand: ${left.join("; ")}`;
    throw new SnapshotError(`cannot write the snapshot in ${dir} (${errorCode(error)}); ${note}`, { cause: error });
  }
  for (const entry of staged) {
    try {
      if (entry.backup !== undefined) rmSync(entry.backup, { force: true });
    } catch {
      // the new snapshot is in place; a backup left behind is only clutter
    }
  }
}

/** Undoes a partial `writeFilesAtomically`; returns the targets it could not restore. */
function rollBack(
  staged: ReadonlyArray<{ temp: string; target: string; backup?: string; installed?: boolean }>,
  madeDirs: readonly string[],
): string[] {
  const left: string[] = [];
  for (const entry of [...staged].reverse()) {
    try {
      if (entry.backup !== undefined) renameSync(entry.backup, entry.target);
      else if (entry.installed === true) rmSync(entry.target, { force: true });
    } catch {
      left.push(`${entry.target} (its previous content is in ${entry.backup})`);
    }
    rmSync(entry.temp, { force: true });
  }
  // deepest first, so that a directory made for one file is empty once its subdirectories are gone
  for (const made of [...madeDirs].sort((a, b) => b.length - a.length)) {
    try {
      rmdirSync(made);
    } catch {
      // not empty or already gone: leave it
    }
  }
  return left;
}

/**
 * How the manifest records where a model came from: a URL as it is (its query string already
 * removed), a local file relative to `baseDir` (the config file's directory), `/`-separated, so
 * the committed manifest is the same on every machine.
 */
export function sourceLabel(source: string, baseDir: string): string {
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(source) || !isAbsolute(source)) return source;
  return relative(baseDir, source).split("\\").join("/") || ".";
}

export interface FetchedModel {
  model: string;
  text: string;
  /** the URL it came from without its query string, or the file relative to the config (`sourceLabel`) */
  source: string;
}

/** Replaces the given models in the snapshot and records them in the manifest. */
export function writeSnapshot(dir: string, fetched: readonly FetchedModel[], now: Date = new Date()): void {
  const manifest = readManifest(dir);
  for (const f of fetched) {
    manifest.models[f.model] = {
      file: snapshotFile(f.model),
      sha256: sha256(f.text),
      source: f.source,
      fetchedAt: now.toISOString(),
    };
  }
  const sorted: Manifest = {
    models: Object.fromEntries(
      Object.keys(manifest.models)
        .sort()
        .map((id) => [id, manifest.models[id]!]),
    ),
  };
  writeFilesAtomically(dir, [
    ...fetched.map((f) => ({ path: snapshotFile(f.model), content: f.text })),
    { path: MANIFEST_FILE, content: JSON.stringify(sorted, null, 2) + "\n" },
  ]);
}
