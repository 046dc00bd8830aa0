/** schemas-cache/: the snapshot files and their manifest, read and written as one unit under the writers' lock. */
import { isAbsolute, join, relative } from "node:path";
import type { PlatformBuffer } from "../platform/index.js";
import { MODEL_ID, type ModelRef } from "../config/index.js";
import { announce, entryAt, SpecialFileError } from "../durable/index.js";
import { jsonSyntaxError } from "../json/index.js";
import { errorCode, prepareSnapshotRead, readSnapshotFile, sha256, SnapshotError, withSnapshotLock } from "./read.js";
import { loadModelDocument, parseModelText, splitModelId, type ModelSchema } from "../schema/index.js";
import { commitFiles, JOURNAL_FILE, MANIFEST_FILE, modelDirs } from "./journal.js";

export interface ManifestEntry {
  file: string;
  sha256: string;
  source: string;
  fetchedAt: string;
}
export interface Manifest {
  models: Record<string, ManifestEntry>;
}

/** `<owner>/<name>/latest.json`, relative to the snapshot directory. */
export function snapshotFile(model: string): string {
  const { owner, name } = splitModelId(model);
  return `${owner}/${name}/latest.json`;
}

export interface SnapshotModel {
  ref: ModelRef;
  file: string;
  text: string;
  sha256: string;
  schema: ModelSchema;
}

/**
 * Reads and loads every model of the snapshot; a missing file says how to get it. An interrupted
 * write is recovered first, and the files are read again if a writer committed while they were
 * read, so they are all of one snapshot.
 */
export function readSnapshot(dir: string, models: readonly ModelRef[]): SnapshotModel[] {
  prepareSnapshotRead(dir);
  let texts: Array<{ file: string; text: string; sha256: string }> = [];
  for (let attempt = 0; attempt < 5; attempt++) {
    const before = commitStamp(dir);
    texts = models.map((ref) => {
      const file = join(dir, snapshotFile(ref.id));
      if (entryAt(file) === undefined) {
        throw new SnapshotError(`${ref.id}: no snapshot at ${file}; run \`vsk pull\` to fetch it`);
      }
      return { file, ...readSnapshotFile(file) };
    });
    if (commitStamp(dir) === before) break;
  }
  return models.map((ref, i) => {
    const { file, text, sha256 } = texts[i]!;
    const origin = { model: ref.id, file };
    return { ref, file, text, sha256, schema: loadModelDocument(parseModelText(text, origin), origin) };
  });
}

/** Changes with every commit: each replaces the manifest (a new inode) and has a journal meanwhile. */
function commitStamp(dir: string): string {
  const m = entryAt(join(dir, MANIFEST_FILE));
  return `${m?.ino}:${m?.mtimeMs}:${m?.size}:${entryAt(join(dir, JOURNAL_FILE)) !== undefined}`;
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
  if (entryAt(file) === undefined) return { models: {} };
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
 * Writes files relative to `dir` as one unit, crash-safely (the journal of ./journal.ts), holding
 * the snapshot's lock: a second writer waits for it, and a process killed at any instant leaves
 * the old unit or the new one for the next command. A failure is thrown as a `SnapshotError`.
 */
export function writeFilesAtomically(
  dir: string,
  files: ReadonlyArray<{ path: string; content: string | PlatformBuffer }>,
  command = "write",
): void {
  withSnapshotLock(dir, command, () => commitOrExplain(dir, files, command));
}

function commitOrExplain(
  dir: string,
  files: ReadonlyArray<{ path: string; content: string | PlatformBuffer }>,
  command: string,
): void {
  try {
    commitFiles(dir, files, command);
  } catch (error) {
    if (error instanceof SpecialFileError) throw new SnapshotError(`${error.message}; nothing was changed`);
    const committed = entryAt(join(dir, JOURNAL_FILE)) !== undefined;
    const note = committed
      ? `the update is recorded in ${join(dir, JOURNAL_FILE)} and the next vsk command finishes it`
      : "nothing was changed";
    throw new SnapshotError(`cannot write the snapshot in ${dir} (${errorCode(error)}); ${note}`, { cause: error });
  }
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

/**
 * Replaces the given models in the snapshot and records them in the manifest, as one unit, under
 * the lock (the manifest is read under it too, so two writers never lose each other's entries).
 */
export function writeSnapshot(
  dir: string,
  fetched: readonly FetchedModel[],
  now: Date = new Date(),
  command = "pull",
): void {
  withSnapshotLock(dir, command, () => {
    const manifest = readManifestOrRebuild(dir);
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
    commitOrExplain(
      dir,
      [
        ...fetched.map((f) => ({ path: snapshotFile(f.model), content: f.text })),
        { path: MANIFEST_FILE, content: JSON.stringify(sorted, null, 2) + "\n" },
      ],
      command,
    );
  });
}

/** What a manifest rebuilt from the files says where it cannot know. */
export const UNKNOWN = "unknown (manifest.json was rebuilt from the file on disk)";

/**
 * The manifest; when it is missing but model files are there (deleted by hand, lost in a merge),
 * their entries are rebuilt from the files on disk (hashed as they are; source and fetch time
 * `UNKNOWN`) and that is said on stderr. Dropping them would make `pull --model X` forget every
 * other model; refusing would force a pull of every model, possibly changing them, to get a
 * manifest back.
 */
function readManifestOrRebuild(dir: string): Manifest {
  const manifest = readManifest(dir);
  if (entryAt(join(dir, MANIFEST_FILE)) !== undefined) return manifest;
  for (const id of modelDirs(dir)) {
    const file = join(dir, id, "latest.json");
    if (!MODEL_ID.test(id) || !entryAt(file)?.isFile()) continue;
    manifest.models[id] = {
      file: snapshotFile(id),
      sha256: readSnapshotFile(file).sha256,
      source: UNKNOWN,
      fetchedAt: UNKNOWN,
    };
  }
  const rebuilt = Object.keys(manifest.models);
  if (rebuilt.length > 0)
    announce(
      `${join(dir, MANIFEST_FILE)} was missing: rebuilt the entries of ${rebuilt.join(", ")} from the files on disk (source and fetch time unknown until they are pulled again)`,
    );
  return manifest;
}
