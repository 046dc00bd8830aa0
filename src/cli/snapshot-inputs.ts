/**
 * The committed snapshot as emit's inputs, and what a snapshot that does not load says to do:
 * one home for what `vsk generate` and `vsk udf` both read.
 */
import type { ModelRef } from "../config/index.js";
import type { EmitInput } from "../emit/index.js";
import { readSnapshot } from "../snapshot/index.js";
import type { StageErrorName } from "./errors.js";

/** `models`' snapshots in `snapshotDir`, each labelled as the snapshot file it came from. */
export function snapshotInputs(snapshotDir: string, models: readonly ModelRef[]): EmitInput[] {
  return readSnapshot(snapshotDir, models).map((m) => ({
    ref: m.ref,
    sourceLabel: `schemas-cache/${m.ref.id}/latest.json`,
    sha256: m.sha256,
    endpoints: m.schema.endpoints,
  }));
}

/** `toCliError`'s wording for the snapshot stage: a snapshot that does not load says what to do. */
export function snapshotAdvice(message: string, name: StageErrorName): string {
  return name === "SchemaLoadError" ? `${message}\nFix the snapshot file or run \`vsk pull\` again.` : message;
}
