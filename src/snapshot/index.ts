/**
 * The committed snapshot: `schemas-cache/<owner>/<name>/latest.json` per model plus
 * `schemas-cache/manifest.json` (sha256, source URL without query string, fetch time).
 * Writers (`pull`, `drift --update`) take the snapshot's lock and change every file and the
 * manifest as one unit through a write-ahead journal (./journal.ts); every command first finishes
 * or undoes a write that a killed process left (docs/pull.md, "Crash safety").
 */
export { prepareSnapshotRead, readSnapshotFile, sha256, SnapshotError, withSnapshotLock } from "./read.js";
export { JOURNAL_FILE, LOCK_FILE, MANIFEST_FILE, MAX_SNAPSHOT_FILE_BYTES } from "./journal.js";
export {
  type FetchedModel,
  type Manifest,
  type ManifestEntry,
  readManifest,
  readSnapshot,
  snapshotFile,
  type SnapshotModel,
  sourceLabel,
  UNKNOWN,
  writeFilesAtomically,
  writeSnapshot,
} from "./store.js";
