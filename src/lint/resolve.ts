/**
 * Which endpoint a payload is for, the one resolution `vsk lint` and `vsk drift --requests`
 * share: an envelope `{"model", "endpoint", "input"}` says it itself (spec 3: the model id and
 * endpoint name make the queue path); a bare payload takes `--model`/`--endpoint`; a model with
 * one endpoint needs no endpoint name. A bare payload's top-level `$schema` (the key a request
 * file carries for its editor) is not part of the request.
 */
import { describeValue } from "../diagnostics/index.js";

/**
 * A model or endpoint name as a message quotes it: redacted and cut as any value
 * (`describeValue`), and said so when the redaction cut a query string or fragment, or the
 * message would contradict itself (`"text-to-video" is not an endpoint …; known: … text-to-video`).
 */
function quotedName(value: unknown): string {
  const shown = describeValue(value);
  if (typeof value !== "string" || value.length > 60 || shown.startsWith(JSON.stringify(value))) return shown;
  return shown.endsWith("(secret withheld)") ? shown : `${shown} (query string or fragment removed)`;
}

/** The endpoints payloads may be for: lint's generated registry, drift's snapshot. */
export interface EndpointCatalog {
  /** the model ids, in the order messages list them */
  modelIds: readonly string[];
  /** `<owner>/<name>` or an alias → the model id, or undefined */
  resolveModel(idOrAlias: string): string | undefined;
  /** the endpoint names of a model id (none for an unknown one) */
  endpointsOf(model: string): readonly string[];
  /** "example/model-a (modelA): keyframes-to-video, text-to-video; …", for messages */
  describe(): string;
  /** what a model without endpoints lacks and how to get them ("no generated validators; run `vsk generate` first") */
  noEndpoints?: string;
}

/** `example/model-a (modelA): keyframes-to-video, text-to-video; …`: a catalog's `describe()`. */
export function describeEndpoints(
  modelIds: readonly string[],
  endpointsOf: (model: string) => readonly string[],
  aliasOf: (model: string) => string | undefined,
): string {
  return modelIds
    .map((id) => {
      const alias = aliasOf(id);
      return `${id}${alias ? ` (${alias})` : ""}: ${endpointsOf(id).join(", ")}`;
    })
    .join("; ");
}

/** `--model`/`--endpoint`, resolved: what a bare payload is for. */
export interface LintTarget {
  /** `<owner>/<name>` (already resolved from an alias) */
  model?: string;
  endpoint?: string;
  /** why a bare payload's top-level `$schema` named no endpoint: said with lint/no-endpoint (issue 42.3) */
  schemaNote?: string;
}

/**
 * The flags checked against the catalog: a target, or what is wrong with them (a usage error);
 * a flag's value is quoted as a message shows any value (redacted, then quoted: issue 23.2).
 */
export function resolveTarget(
  catalog: EndpointCatalog,
  model: string | undefined,
  endpoint: string | undefined,
): LintTarget | { problem: string } {
  if (model === undefined) {
    if (endpoint === undefined) return {};
    const matches = catalog.modelIds.filter((m) => catalog.endpointsOf(m).includes(endpoint));
    if (matches.length === 1) return { model: matches[0]!, endpoint };
    return {
      problem:
        matches.length === 0
          ? `unknown endpoint ${quotedName(endpoint)}; known: ${catalog.describe()}`
          : `endpoint ${quotedName(endpoint)} exists for ${matches.join(" and ")}; add --model`,
    };
  }
  const id = catalog.resolveModel(model);
  if (id === undefined) return { problem: `unknown model ${quotedName(model)}; known: ${catalog.describe()}` };
  const own = catalog.endpointsOf(id);
  if (endpoint === undefined) {
    if (own.length === 1) return { model: id, endpoint: own[0]! };
    if (own.length === 0)
      return { problem: `${id} has ${catalog.noEndpoints ?? "no generated validators; run `vsk generate` first"}` };
    return {
      problem: `${id} has ${own.length} endpoints (${own.join(", ")}); add --endpoint NAME to say which one the payloads are for`,
    };
  }
  if (!own.includes(endpoint))
    return { problem: `unknown endpoint ${quotedName(endpoint)} for ${id}; known: ${own.join(", ")}` };
  return { model: id, endpoint };
}

/** A payload whose endpoint is known: the request (`input`) and where it sits in the payload. */
export interface ResolvedPayload {
  model: string;
  endpoint: string;
  input: unknown;
  /** `/input` for an envelope, `""` for a bare payload: prefixed to every pointer into `input` */
  prefix: "" | "/input";
}

/** Why a payload's endpoint is unknown, as a lint diagnostic says it. */
export interface UnresolvedPayload {
  model: string | null;
  endpoint: string | null;
  rule: "lint/unknown-endpoint" | "lint/no-endpoint";
  /** JSON Pointer into the payload */
  pointer: string;
  message: string;
}

/** `{"model", "endpoint", "input"}` (own keys): an envelope says itself what it is for. */
function asEnvelope(value: unknown): { model: unknown; endpoint: unknown; input: unknown } | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  if (!Object.hasOwn(value, "input") || !Object.hasOwn(value, "model")) return undefined;
  const v = value as Record<string, unknown>;
  return { model: v.model, endpoint: Object.hasOwn(v, "endpoint") ? v.endpoint : undefined, input: v.input };
}

/** A bare payload without its top-level `$schema` (an envelope's own `$schema` sits beside `input` and is never read). */
function withoutSchemaKey(input: unknown): unknown {
  if (typeof input !== "object" || input === null || Array.isArray(input) || !Object.hasOwn(input, "$schema"))
    return input;
  const { $schema: _editor, ...request } = input as Record<string, unknown>;
  void _editor;
  return request;
}

const NO_ENDPOINT = "cannot tell which endpoint this payload is for";
const NO_ENDPOINT_TODO = 'wrap it as {"model", "endpoint", "input"} or pass --model and --endpoint';

/** The endpoint a parsed payload is for, or why it cannot be told. */
export function resolvePayload(
  value: unknown,
  target: LintTarget,
  catalog: EndpointCatalog,
): ResolvedPayload | UnresolvedPayload {
  let model = target.model;
  let endpoint = target.endpoint;
  const envelope = asEnvelope(value);
  if (envelope !== undefined) {
    const named = typeof envelope.model === "string" ? catalog.resolveModel(envelope.model) : undefined;
    if (named === undefined)
      return {
        model: null,
        endpoint: null,
        rule: "lint/unknown-endpoint",
        pointer: "/model",
        message: `model: ${quotedName(envelope.model)} is not a configured model; known: ${catalog.describe()}`,
      };
    model = named;
    const own = catalog.endpointsOf(model);
    if (typeof envelope.endpoint === "string") endpoint = envelope.endpoint;
    else if (envelope.endpoint === undefined && endpoint === undefined && own.length === 1)
      endpoint = own[0]!; // a model with one endpoint needs no name for it
    else if (envelope.endpoint !== undefined || endpoint === undefined)
      return {
        model,
        endpoint: null,
        rule: "lint/unknown-endpoint",
        pointer: "/endpoint",
        message: `endpoint: expected the endpoint name as a string, received ${describeValue(envelope.endpoint)}; known: ${catalog.describe()}`,
      };
  }
  if (model === undefined || endpoint === undefined)
    return {
      model: model ?? null,
      endpoint: endpoint ?? null,
      rule: "lint/no-endpoint",
      pointer: "",
      message:
        target.schemaNote === undefined
          ? `${NO_ENDPOINT}: ${NO_ENDPOINT_TODO}`
          : `${NO_ENDPOINT}: ${target.schemaNote}; ${NO_ENDPOINT_TODO}`,
    };
  const known = catalog.endpointsOf(model);
  const index = known.indexOf(endpoint);
  if (index === -1)
    // the name as given can be anything (a signed URL, 50 MB): the message shows it redacted and cut
    return {
      model,
      endpoint: null,
      rule: "lint/unknown-endpoint",
      pointer: envelope === undefined ? "" : "/endpoint",
      message: `endpoint: ${quotedName(endpoint)} is not an endpoint of ${model}; known: ${catalog.describe()}`,
    };
  endpoint = known[index]!; // the catalog's own string: a lookup keyed by it hashes it once, not per payload
  return envelope === undefined
    ? { model, endpoint, input: withoutSchemaKey(value), prefix: "" }
    : { model, endpoint, input: envelope.input, prefix: "/input" };
}
