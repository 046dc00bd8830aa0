/**
 * `vsk drift --update`: accept the source as the new snapshot, atomically as `vsk pull` writes it
 * (spec 9.1), or write nothing and say why. Changes the report's summary (exit 0, `updated`).
 */
import { dirname } from "node:path";
import { snapshotWriteDir, type VskConfig } from "../config/index.js";
import { readManifest, sha256, sourceLabel, writeSnapshot } from "../snapshot/index.js";
import { plural } from "../words/index.js";
import type { ModelComparison } from "./compare.js";
import { DriftStageError } from "./errors.js";
import type { DriftReport } from "./types.js";

/** Writes the compared sources as the snapshot when every model could be compared; `log` gets one line either way. */
export function updateSnapshot(
  report: DriftReport,
  comparisons: readonly ModelComparison[],
  config: VskConfig,
  cwd: string,
  log: (line: string) => void,
): void {
  // a source with no queue-shaped endpoint (spec 4.1) would be a snapshot generate and lint cannot read
  const unusable = comparisons.filter((c) => c.report.status === "changed" && c.after?.endpoints.length === 0);
  if (report.summary.exitCode === 3) {
    log(
      `vsk: drift --update: nothing written; ${config.snapshotDir} left unchanged because a model could not be compared`,
    );
    return;
  }
  if (unusable.length > 0) {
    log(
      `vsk: drift --update: nothing written; ${config.snapshotDir} left unchanged because ${unusable.map((c) => c.ref.id).join(", ")} has no queue-shaped endpoint at the source (vsk generate and vsk lint could not read it)`,
    );
    return;
  }
  // The snapshot written is the project's own schemas-cache/, never the installed package's.
  const dir = snapshotWriteDir(config, cwd);
  let manifest;
  try {
    manifest = readManifest(dir);
  } catch (error) {
    throw new DriftStageError("update", error);
  }
  const base = config.file === undefined ? cwd : dirname(config.file);
  const toWrite = comparisons
    .map((c) => ({ ...c.fetched!, source: sourceLabel(c.fetched!.source, base) }))
    .filter((f) => {
      const entry = manifest.models[f.model];
      return (
        entry === undefined ||
        entry.sha256 !== sha256(f.text) ||
        entry.source !== f.source ||
        dir !== config.snapshotDir
      );
    });
  try {
    if (toWrite.length > 0) writeSnapshot(dir, toWrite, new Date(), "drift --update");
  } catch (error) {
    throw new DriftStageError("update", error);
  }
  report.summary.exitCode = 0;
  report.summary.updated = toWrite.map((f) => f.model);
  log(
    `vsk: drift --update: ${plural(toWrite.length, "model")} written to ${dir}${toWrite.length > 0 ? ` (${toWrite.map((f) => f.model).join(", ")})` : ""}`,
  );
}
