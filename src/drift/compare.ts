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
import { diffModels } from "./diff/index.js";
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

  let snapshot: { text: string; sha256: string } | undefined;
  let snapshotProblem: string | undefined;
  if (!existsSync(file)) snapshotProblem = `${ref.id}: no snapshot at ${file}; run \`vsk pull\` to fetch it`;
  else {
    try {
      // the same hash as pull and lint: of the file's bytes
      snapshot = readSnapshotFile(file);
    } catch (error) {
      if (!(error instanceof SnapshotError)) throw error;
      snapshotProblem = `snapshot: ${error.message}`;
    }
  }
  const beforeSha = snapshot?.sha256 ?? null;
  const origin = { model: ref.id, file };
  const loadSnapshot = (text: string, parsed?: unknown): ModelSchema =>
    loadModelDocument(parsed ?? parseModelText(text, origin), origin);

  let fetched: FetchedModel;
  let document: unknown;
  try {
    const got = await fetchModelSchema(source, ref.id, {
      ...fetchOptions,
      ...(onRetry === undefined ? {} : { onRetry }),
    });
    fetched = { model: ref.id, text: got.text, source: got.source };
    document = got.document;
  } catch (error) {
    if (error instanceof FetchError) {
      const missing = isMissing(error, source, ref.id);
      return result(missing ? "missing" : "error", beforeSha, null, error.message);
    }
    throw error;
  }
  const afterSha = sha256(fetched.text);

  // Same bytes, or the same JSON document written differently (reformatted by prettier, keys in
  // another order): unchanged, known before either side is loaded (loading is most of the cost).
  // The loaded model is still there for --requests, read once on first use.
  let parsedSnapshot: unknown;
  if (snapshot !== undefined && beforeSha !== afterSha) {
    try {
      parsedSnapshot = parseModelText(snapshot.text, origin);
    } catch (error) {
      if (!(error instanceof SchemaLoadError)) throw error;
      snapshotProblem = `snapshot: ${error.message}`;
    }
  }
  const sameDocument = parsedSnapshot !== undefined && sameJson(parsedSnapshot, document);
  if (snapshot !== undefined && (beforeSha === afterSha || sameDocument)) {
    const unchanged: ModelComparison = { ...result("unchanged", beforeSha, afterSha), fetched };
    let loaded: ModelSchema | null | undefined;
    const get = (): ModelSchema | undefined => {
      if (loaded === undefined) {
        try {
          loaded = loadSnapshot(snapshot.text, parsedSnapshot);
        } catch (error) {
          if (!(error instanceof SchemaLoadError)) throw error;
          loaded = null;
        }
      }
      return loaded ?? undefined;
    };
    Object.defineProperty(unchanged, "before", { get, enumerable: true });
    Object.defineProperty(unchanged, "after", { get, enumerable: true });
    return unchanged;
  }

  let after: ModelSchema;
  try {
    // lenient: an endpoint whose method, media type or status changed is an endpoint change, not a load error
    after = loadModelDocument(document, { model: ref.id, file: fetched.source }, { lenient: true });
  } catch (error) {
    if (error instanceof SchemaLoadError)
      return result("error", beforeSha, null, `not a model document at the source: ${error.message}`);
    throw error;
  }
  let before: ModelSchema | undefined;
  if (snapshot !== undefined && snapshotProblem === undefined) {
    try {
      before = loadSnapshot(snapshot.text, parsedSnapshot);
    } catch (error) {
      if (!(error instanceof SchemaLoadError)) throw error;
      snapshotProblem = `snapshot: ${error.message}`;
    }
  }
  if (before === undefined) return { ...result("error", beforeSha, afterSha, snapshotProblem), fetched, after };
  const changes = classifyModel(diffModels(before, after), before, after, ref);
  // spec 4.1: without a queue-shaped endpoint the model cannot be called at all; the endpoint changes say why
  const noEndpoint =
    after.endpoints.length === 0
      ? "the source has no queue-shaped endpoint left (a POST with a JSON request body and a JSON success response, spec 4.1); see its endpoint changes"
      : undefined;
  return { ...result("changed", beforeSha, afterSha, noEndpoint), changes, before, after, fetched };
}

/**
 * Whether two parsed JSON values are the same document: equal scalars, arrays equal item by
 * item, objects with the same keys (in any order) and equal values. Iterative (a deeply nested
 * document does not overflow the stack), and not `canonical` (view.ts): that one remembers a
 * text per object, and these documents are still to be loaded.
 */
function sameJson(a: unknown, b: unknown): boolean {
  const stack: Array<[unknown, unknown]> = [[a, b]];
  for (let pair = stack.pop(); pair !== undefined; pair = stack.pop()) {
    const [x, y] = pair;
    if (x === y) continue;
    if (typeof x !== "object" || typeof y !== "object" || x === null || y === null) return false;
    if (Array.isArray(x) !== Array.isArray(y)) return false;
    if (Array.isArray(x)) {
      const other = y as unknown[];
      if (x.length !== other.length) return false;
      x.forEach((v, i) => stack.push([v, other[i]]));
      continue;
    }
    const xo = x as Record<string, unknown>;
    const yo = y as Record<string, unknown>;
    const keys = Object.keys(xo);
    if (keys.length !== Object.keys(yo).length) return false;
    for (const k of keys) {
      if (!Object.prototype.hasOwnProperty.call(yo, k)) return false;
      stack.push([xo[k], yo[k]]);
    }
  }
  return true;
}
