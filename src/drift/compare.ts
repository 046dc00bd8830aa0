/**
 * One model, both sides: the committed snapshot and the source's latest.json (spec 9.1),
 * loaded into `EndpointModel`s and diffed. A model the source does not have is `missing`, one
 * that cannot be fetched or loaded is `error`: neither is ever "no drift".
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { ModelRef } from "../config/index.js";
import {
  fetchModelSchema,
  FetchError,
  modelLocation,
  type FetchOptions,
  type RetryEvent,
  type SchemaSource,
} from "../fetch/index.js";
import { loadModelDocument, parseModelText, SchemaLoadError, splitModelId, type ModelSchema } from "../schema/index.js";
import { readSnapshotFile, sha256, snapshotFile, SnapshotError, type FetchedModel } from "../snapshot/index.js";
import { classifyModel } from "./classify.js";
import { diffModels } from "./diff.js";
import type { Change, ModelReport } from "./types.js";

export interface ModelComparison {
  ref: ModelRef;
  report: ModelReport;
  changes: Change[];
  /** the snapshot file, when it exists */
  snapshotFile: string;
  /** both sides loaded, when they could be */
  before?: ModelSchema;
  after?: ModelSchema;
  /** what `--update` writes */
  fetched?: FetchedModel;
}

function isMissing(error: FetchError, source: SchemaSource, model: string): boolean {
  if (error.status === 404 || error.status === 410) return true;
  if (source.kind !== "directory" || !existsSync(source.dir)) return false;
  const { owner, name } = splitModelId(model);
  return !existsSync(modelLocation(source, owner, name));
}

/** Fetches and loads the source side, reads the snapshot side, and diffs them. Never throws for a bad model. */
export async function compareModel(
  ref: ModelRef,
  snapshotDir: string,
  source: SchemaSource,
  onRetry?: (event: RetryEvent) => void,
  /** fetch settings from the command line (`--timeout`) */
  fetchOptions: FetchOptions = {},
): Promise<ModelComparison> {
  const file = join(snapshotDir, snapshotFile(ref.id));
  const result = (
    status: ModelReport["status"],
    snapshotSha: string | null,
    sourceSha: string | null,
    message?: string,
  ): ModelComparison => ({
    ref,
    snapshotFile: file,
    changes: [],
    report: {
      model: ref.id,
      status,
      sha256: { snapshot: snapshotSha, source: sourceSha },
      ...(message === undefined ? {} : { message }),
    },
  });

  let before: ModelSchema | undefined;
  let beforeSha: string | null = null;
  let snapshotProblem: string | undefined;
  if (!existsSync(file)) snapshotProblem = `${ref.id}: no snapshot at ${file}; run \`vsk pull\` to fetch it`;
  else {
    try {
      // the same hash as pull and lint: of the file's bytes
      const { text, sha256: fileSha } = readSnapshotFile(file);
      beforeSha = fileSha;
      const origin = { model: ref.id, file };
      before = loadModelDocument(parseModelText(text, origin), origin);
    } catch (error) {
      if (!(error instanceof SchemaLoadError) && !(error instanceof SnapshotError)) throw error;
      snapshotProblem = `snapshot: ${error.message}`;
    }
  }

  let fetched: FetchedModel;
  let after: ModelSchema;
  try {
    const got = await fetchModelSchema(source, ref.id, {
      ...fetchOptions,
      ...(onRetry === undefined ? {} : { onRetry }),
    });
    fetched = { model: ref.id, text: got.text, source: got.source };
    after = loadModelDocument(got.document, { model: ref.id, file: got.source });
  } catch (error) {
    if (error instanceof FetchError) {
      const missing = isMissing(error, source, ref.id);
      return result(missing ? "missing" : "error", beforeSha, null, error.message);
    }
    if (error instanceof SchemaLoadError)
      return result("error", beforeSha, null, `not a model document at the source: ${error.message}`);
    throw error;
  }
  const afterSha = sha256(fetched.text);
  if (before === undefined) return { ...result("error", beforeSha, afterSha, snapshotProblem), fetched, after };
  if (beforeSha === afterSha) return { ...result("unchanged", beforeSha, afterSha), before, after, fetched };
  const changes = classifyModel(diffModels(before, after), before, after, ref);
  return { ...result("changed", beforeSha, afterSha), changes, before, after, fetched };
}
