/**
 * The committed snapshot: `schemas-cache/<owner>/<name>/latest.json` per model plus
 * `schemas-cache/manifest.json` (sha256, source URL without query string, fetch time).
 * Writes are all-or-nothing: every file goes to a temp file first, then each is renamed.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { ModelRef } from "../config/index.js";
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

/** Reads and loads every model of the snapshot; a missing file says how to get it. */
export function readSnapshot(dir: string, models: readonly ModelRef[]): SnapshotModel[] {
  return models.map((ref) => {
    const file = join(dir, snapshotFile(ref.id));
    if (!existsSync(file)) {
      throw new SnapshotError(`${ref.id}: no snapshot at ${file}; run \`vsk pull\` to fetch it`);
    }
    const text = readFileSync(file, "utf8");
    const origin = { model: ref.id, file };
    return { ref, file, text, sha256: sha256(text), schema: loadModelDocument(parseModelText(text, origin), origin) };
  });
}

export function readManifest(dir: string): Manifest {
  const file = join(dir, MANIFEST_FILE);
  if (!existsSync(file)) return { models: {} };
  try {
    const parsed = JSON.parse(readFileSync(file, "utf8")) as Manifest;
    return parsed && typeof parsed.models === "object" && parsed.models !== null ? parsed : { models: {} };
  } catch {
    return { models: {} };
  }
}

/** Writes files relative to `dir` all-or-nothing: temp files first, renames after. */
export function writeFilesAtomically(dir: string, files: ReadonlyArray<{ path: string; content: string }>): void {
  const temps: Array<{ temp: string; target: string }> = [];
  try {
    for (const f of files) {
      const target = join(dir, f.path);
      mkdirSync(dirname(target), { recursive: true });
      const temp = `${target}.vsk-tmp-${process.pid}`;
      writeFileSync(temp, f.content);
      temps.push({ temp, target });
    }
  } catch (error) {
    for (const t of temps) rmSync(t.temp, { force: true });
    throw error;
  }
  for (const t of temps) renameSync(t.temp, t.target);
}

export interface FetchedModel {
  model: string;
  text: string;
  /** the URL or path it came from, query string already removed */
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
  const sorted: Manifest = { models: {} };
  for (const id of Object.keys(manifest.models).sort()) sorted.models[id] = manifest.models[id]!;
  writeFilesAtomically(dir, [
    ...fetched.map((f) => ({ path: snapshotFile(f.model), content: f.text })),
    { path: MANIFEST_FILE, content: JSON.stringify(sorted, null, 2) + "\n" },
  ]);
}
