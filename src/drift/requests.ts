/**
 * `--requests FILES…`: your own payloads against both sides. Each is validated against the
 * snapshot's and the source's request schema (compiled here at run time: a diagnostic path)
 * with the endpoint's cross-field rules; those valid before and rejected now are grouped by
 * the change that rejects them. Files are read by the linter's reader, as `vsk lint` reads them
 * (JSON, NDJSON/JSONL, envelopes `{"model", "endpoint", "input"}`; stdin holds one JSON value
 * unless `ndjson`). A file that cannot be read is an input error (exit 2); a request schema Ajv
 * cannot compile, or one with a super-linear pattern (never run: it could hang on a payload), is
 * an error of its model (exit 3), never a crash.
 */
import type { AnySchema } from "ajv";
import { findModel, type VskConfig } from "../config/index.js";
import {
  expandInputs,
  isNdjsonPath,
  openFile,
  readNdjson,
  readSingleJson,
  describeEndpoints,
  resolvePayload,
  resolveTarget,
  type EndpointCatalog,
  type PayloadHandler,
} from "../lint/index.js";
import { createAjv, rulesFor, runValidation, type Diagnostic } from "../rules/index.js";
import { findUnsafePattern, type EndpointModel } from "../schema/index.js";
import type { ModelComparison } from "./compare.js";
import { NAME_TOKEN, UNLISTED } from "./diff/index.js";
import type { Change, RequestImpact } from "./types.js";

export interface RequestTarget {
  /** model id or alias for payloads that are not envelopes */
  model?: string;
  endpoint?: string;
}

type Validate = (input: unknown) => Diagnostic[];

export interface RequestReading {
  /** read stdin (`-`) as NDJSON, one payload per line (`--ndjson`); otherwise it holds one JSON value */
  ndjson?: boolean;
}

/** A model whose request schema could not be compiled: it could not be compared. */
export interface ModelProblem {
  model: string;
  message: string;
}

/**
 * Field tokens that stand for many payload locations: `*` any array index, `{unlisted}` a
 * property the object does not list, `{name}` any property name, `{/pattern/}` any property
 * (its `/` escaped `~1` in a change's field; the deepest field decides, the pattern is never run).
 */
function wildcard(token: string, key: string): boolean {
  if (token === "*") return /^\d+$/.test(key);
  return token === UNLISTED || token === NAME_TOKEN || /^\{(\/|~1).*(\/|~1)\}$/s.test(token);
}

/** Whether change field `/keyframes/*\/frame_index` covers diagnostic pointer `/keyframes/1/frame_index` (or something under it). */
function covers(field: string, pointer: string): number {
  const f = field === "" ? [] : field.slice(1).split("/");
  const p = pointer === "" ? [] : pointer.slice(1).split("/");
  if (f.length > p.length) return -1;
  for (let i = 0; i < f.length; i++) if (f[i] !== p[i] && !wildcard(f[i]!, p[i]!)) return -1;
  return f.length;
}

/** The request changes of one endpoint that best explain a new error at `pointer`: the deepest field, breaking first. */
function explain(changes: readonly Change[], pointer: string): Change[] {
  let best = -1;
  let found: Change[] = [];
  for (const c of changes) {
    const depth = covers(c.field ?? "", pointer);
    if (depth > best) [best, found] = [depth, [c]];
    else if (depth === best && depth >= 0) found.push(c);
  }
  const breaking = found.filter((c) => c.severity === "breaking");
  return breaking.length > 0 ? breaking : found;
}

export async function checkRequests(
  inputs: readonly string[],
  cwd: string,
  config: VskConfig,
  comparisons: readonly ModelComparison[],
  changes: readonly Change[],
  target: RequestTarget,
  reading: RequestReading = {},
): Promise<{
  impact: RequestImpact;
  inputErrors: string[];
  modelProblems: ModelProblem[];
  /** what is wrong with --model/--endpoint (a usage error), checked before any payload is read */
  targetProblem?: string;
}> {
  // the endpoints payloads may be for: the snapshot's, resolved as `vsk lint` resolves them
  const byId = new Map(comparisons.map((c) => [c.ref.id, c]));
  const modelIds = [...byId.keys()];
  const endpointsOf = (id: string): readonly string[] => byId.get(id)?.before?.endpoints.map((e) => e.endpoint) ?? [];
  const catalog: EndpointCatalog = {
    modelIds,
    resolveModel: (idOrAlias) => {
      const id = findModel(config, idOrAlias)?.id;
      return id !== undefined && byId.has(id) ? id : undefined;
    },
    endpointsOf,
    noEndpoints: "no endpoints in the snapshot; run `vsk pull` first",
    describe: () => describeEndpoints(modelIds, endpointsOf, (id) => byId.get(id)?.ref.alias),
  };
  const resolvedTarget = resolveTarget(catalog, target.model, target.endpoint);
  const impact: RequestImpact = { checked: 0, rejectedNow: 0, invalidBefore: 0, skipped: [], groups: [] };
  const groups = new Map<Change | null, RequestImpact["groups"][number]>();
  const modelProblems: ModelProblem[] = [];
  /** each endpoint's validator, or why there is none */
  const validators = new Map<EndpointModel, Validate | { problem: string }>();
  const validatorFor = (
    endpoint: EndpointModel,
    comparison: ModelComparison,
    side: "snapshot" | "source",
  ): Validate | { problem: string } => {
    let v = validators.get(endpoint);
    if (v === undefined) {
      const unsafe = findUnsafePattern(endpoint.input);
      const problem = (what: string): { problem: string } => {
        const found = { problem: `the ${side}'s request schema of ${endpoint.endpoint} ${what}` };
        if (!modelProblems.some((p) => p.model === comparison.ref.id))
          modelProblems.push({ model: comparison.ref.id, message: `${comparison.ref.id}: ${found.problem}` });
        return found;
      };
      if (unsafe !== undefined)
        // it could hang on a payload: never compiled (src/schema/unsafe-patterns.ts)
        v = problem(
          `has a pattern that can take super-linear time, ${JSON.stringify(unsafe.pattern)} at ${unsafe.pointer} (${unsafe.reason}): drift does not run it on payloads`,
        );
      else
        try {
          const compiled = createAjv().compile(endpoint.input as AnySchema);
          const rules = rulesFor(endpoint, comparison.ref);
          v = (input) => runValidation(compiled, rules, input);
        } catch (error) {
          v = problem(`cannot be compiled: ${error instanceof Error ? error.message : String(error)}`);
        }
      validators.set(endpoint, v);
    }
    return v;
  };
  const addTo = (change: Change | null, entry: RequestImpact["groups"][number]["requests"][number]): void => {
    let group = groups.get(change);
    if (group === undefined) {
      const shown =
        change === null
          ? null
          : {
              id: change.id,
              severity: change.severity,
              model: change.model,
              endpoint: change.endpoint,
              direction: change.direction,
              pointer: change.pointer,
              text: change.text,
            };
      group = { change: shown, requests: [] };
      groups.set(change, group);
    }
    group.requests.push(entry);
  };

  const handle: PayloadHandler = (at, value, problem) => {
    impact.checked++;
    const skip = (message: string): void => void impact.skipped.push({ source: at.source, line: at.line, message });
    if (problem !== undefined) return skip(problem.message);
    const resolved = resolvePayload(value, "problem" in resolvedTarget ? {} : resolvedTarget, catalog);
    // a known model (resolvePayload only names the catalog's) whose two sides are not both there
    const comparison = resolved.model === null ? undefined : byId.get(resolved.model);
    if (comparison !== undefined && (comparison.before === undefined || comparison.after === undefined))
      return skip(`${comparison.ref.id} could not be compared (${comparison.report.status})`);
    if ("rule" in resolved) return skip(resolved.message);
    if (comparison?.before === undefined || comparison.after === undefined)
      return skip(`${resolved.model} could not be compared`); // (resolvePayload names only the catalog's models)
    const { endpoint: endpointName, input, prefix } = resolved;
    const ref = comparison.ref;
    const before = comparison.before.endpoints.find((e) => e.endpoint === endpointName)!;
    const validateBefore = validatorFor(before, comparison, "snapshot");
    if (typeof validateBefore !== "function") return skip(`${ref.id}: ${validateBefore.problem}`);
    const errorsBefore = validateBefore(input).filter((d) => d.severity === "error");
    if (errorsBefore.length > 0) {
      impact.invalidBefore++;
      return;
    }
    const after = comparison.after.endpoints.find((e) => e.endpoint === endpointName);
    const mine = changes.filter((c) => c.model === ref.id && c.endpoint === endpointName);
    if (after === undefined) {
      impact.rejectedNow++;
      const removed = mine.find((c) => c.direction === "endpoint") ?? null;
      addTo(removed, {
        source: at.source,
        line: at.line,
        pointer: "",
        message: `the endpoint ${endpointName} is gone from the source`,
      });
      return;
    }
    const validateAfter = validatorFor(after, comparison, "source");
    if (typeof validateAfter !== "function") return skip(`${ref.id}: ${validateAfter.problem}`);
    const errorsAfter = validateAfter(input).filter((d) => d.severity === "error");
    if (errorsAfter.length === 0) return;
    impact.rejectedNow++;
    const requestChanges = mine.filter((c) => c.direction === "request");
    const placed = new Set<Change | null>();
    for (const d of errorsAfter) {
      const culprits = explain(requestChanges, d.pointer);
      for (const change of culprits.length > 0 ? culprits : [null]) {
        if (placed.has(change)) continue;
        placed.add(change);
        addTo(change, { source: at.source, line: at.line, pointer: prefix + d.pointer, message: d.message });
      }
    }
  };

  if ("problem" in resolvedTarget)
    return { impact, inputErrors: [], modelProblems, targetProblem: resolvedTarget.problem };
  const { files, errors } = await expandInputs(inputs, cwd);
  const inputErrors = errors.map((e) => e.message);
  for (const file of files) {
    try {
      if (file === "-") {
        if (reading.ndjson === true) await readNdjson(process.stdin, "<stdin>", handle);
        else await readSingleJson(process.stdin, "<stdin>", handle);
      } else if (isNdjsonPath(file)) await readNdjson(openFile(file, cwd), file, handle);
      else await readSingleJson(openFile(file, cwd), file, handle);
    } catch (error) {
      // as `vsk lint` reports it: a file (or stdin) that cannot be read, EACCES, EISDIR, …
      const code = (error as NodeJS.ErrnoException).code;
      if (code === undefined) throw error;
      inputErrors.push(
        `${file === "-" ? "<stdin>" : file}: cannot be read (${code === "EISDIR" ? "a directory" : code})`,
      );
    }
  }
  // Classified changes first, in report order; then what no change explains.
  const order = [...changes];
  impact.groups = [...groups.entries()]
    .sort(([a], [b]) => (a === null ? 1 : b === null ? -1 : order.indexOf(a) - order.indexOf(b)))
    .map(([, g]) => g);
  return { impact, inputErrors, modelProblems };
}
