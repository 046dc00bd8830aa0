/**
 * Reads a model's published OpenAPI document (spec 9.1: `{schema_url}/main/{owner}/{name}/latest.json`)
 * into one `EndpointModel` per queue-shaped endpoint (spec 4.1), and every operation as written
 * (method, media types, success status) for drift. OpenAPI 3.1 and 3.0 are both accepted.
 */
import { jsonSyntaxError } from "../json/index.js";
import { SchemaLoadError } from "./errors.js";
import { formatPointer, getAt } from "./pointer.js";
import { refTokens, resolveRef } from "./ref.js";
import { normalizeNullable } from "./nullable.js";
import type {
  EndpointModel,
  JsonSchema,
  JsonSchemaObject,
  ModelSchema,
  OperationModel,
  SchemaOrigin,
} from "./types.js";
import { defineOwn, forEachSchema, isSchemaObject, transformSchema } from "./walk.js";

const COMPONENT_PREFIX = "#/components/schemas/";
const DIALECT_2020 = "https://json-schema.org/draft/2020-12/schema";

/** OpenAPI 3.0 keywords with a different meaning in JSON Schema 2020-12, rewritten to it. */
function upgrade30(node: JsonSchemaObject): JsonSchemaObject {
  const out: JsonSchemaObject = { ...node };
  for (const [flag, bound] of [
    ["exclusiveMinimum", "minimum"],
    ["exclusiveMaximum", "maximum"],
  ] as const) {
    if (typeof out[flag] === "boolean") {
      if (out[flag] === true && typeof out[bound] === "number") {
        out[flag] = out[bound];
        delete out[bound];
      } else delete out[flag];
    }
  }
  if ("example" in out) {
    if (!("examples" in out)) out.examples = [out.example];
    delete out.example;
  }
  return out;
}

/** Resolves an OpenAPI reference object (`{$ref}`) to what it points at inside the document. */
function deref(
  doc: JsonSchemaObject,
  value: unknown,
  at: string[],
  origin: SchemaOrigin,
): { value: unknown; at: string[] } {
  let current = value;
  let where = at;
  for (let hops = 0; hops < 16 && isSchemaObject(current) && typeof current.$ref === "string"; hops++) {
    const ref = current.$ref;
    const tokens = ref.startsWith("#/") ? refTokens(ref) : undefined;
    if (tokens === undefined)
      throw new SchemaLoadError(
        origin,
        formatPointer([...where, "$ref"]),
        `external reference "${ref}" is not supported; inline it or point into this document`,
      );
    const target = getAt(doc, tokens);
    if (target === undefined)
      throw new SchemaLoadError(
        origin,
        formatPointer([...where, "$ref"]),
        `reference "${ref}" points at nothing in the document`,
      );
    current = target;
    where = tokens;
  }
  return { value: current, at: where };
}

/** A media type without parameters, lower case: `application/json; charset=utf-8` is `application/json`. */
export function bareMediaType(type: string): string {
  return type.split(";")[0]!.trim().toLowerCase();
}

const isJson = (type: string): boolean => /^application\/(?:[\w.+-]*\+)?json$/.test(bareMediaType(type));

/**
 * The media type an OpenAPI media-type map is read by: application/json, else another JSON type,
 * else the first one written; with its schema when it has one.
 */
function mediaOf(content: unknown): { type: string; schema?: unknown } | undefined {
  if (!isSchemaObject(content)) return undefined;
  const types = Object.keys(content);
  const type = types.find((t) => bareMediaType(t) === "application/json") ?? types.find(isJson) ?? types[0];
  if (type === undefined) return undefined;
  const media = content[type];
  return isSchemaObject(media) && "schema" in media ? { type, schema: media.schema } : { type };
}

/** The success status a client reads: the lowest 2xx code written, else `2XX`, else `default`. */
function successStatus(responses: JsonSchemaObject): string | undefined {
  const codes = Object.keys(responses)
    .filter((k) => /^2\d\d$/.test(k))
    .sort();
  return codes[0] ?? ["2XX", "2xx", "default"].find((k) => k in responses);
}

const METHODS = ["post", "put", "patch", "get", "delete", "head", "options", "trace"] as const;

/**
 * Makes a self-contained JSON Schema from `root` (found at `rootAt` in the document):
 * component references become `#/$defs/<name>`, and the components reached are copied into `$defs`.
 */
function selfContained(
  doc: JsonSchemaObject,
  root: unknown,
  rootAt: string[],
  origin: SchemaOrigin,
  dialect: ModelSchema["dialect"],
  /** `refTargetPrefixes(doc)`, computed once per document */
  referenced: ReadonlySet<string>,
): JsonSchemaObject {
  const components = (getAt(doc, ["components", "schemas"]) ?? {}) as JsonSchemaObject;
  const reached = new Set<string>();
  const queue: Array<{ schema: unknown; at: string[] }> = [];

  const rewrite = (schema: unknown, at: string[]): JsonSchema =>
    transformSchema(schema as JsonSchema, (node, path) => {
      let out = dialect === "openapi-3.0" ? upgrade30(node) : node;
      // only OpenAPI 3.0's `nullable` asks whether a `$ref` points inside the node (one pointer per node costs)
      const inside =
        dialect === "openapi-3.0" && "nullable" in out && referenced.has(formatPointer([...at, ...path]) + "/");
      out = normalizeNullable(out, dialect, inside);
      const ref = out.$ref;
      if (typeof ref === "string") {
        const where = [...at, ...path, "$ref"];
        if (!ref.startsWith(COMPONENT_PREFIX)) {
          if (ref.startsWith("#/$defs/") || ref.startsWith("#/definitions/") || ref === "#") return out;
          throw new SchemaLoadError(
            origin,
            formatPointer(where),
            `reference "${ref}" is not supported: point at "${COMPONENT_PREFIX}<name>"`,
          );
        }
        const [name, ...rest] = refTokens(ref)!.slice(2) as [string, ...string[]];
        if (!Object.prototype.hasOwnProperty.call(components, name) || getAt(components[name], rest) === undefined) {
          throw new SchemaLoadError(
            origin,
            formatPointer(where),
            `reference "${ref}" points at nothing in the document (dangling $ref)`,
          );
        }
        if (!reached.has(name)) {
          reached.add(name);
          queue.push({ schema: components[name], at: ["components", "schemas", name] });
        }
        out = { ...out, $ref: "#" + formatPointer(["$defs", name, ...rest]) };
      }
      return out;
    });

  // A root that only references a component is that component: inline it (keeps its title).
  let top = root;
  let topAt = rootAt;
  if (
    isSchemaObject(root) &&
    typeof root.$ref === "string" &&
    root.$ref.startsWith(COMPONENT_PREFIX) &&
    Object.keys(root).every((k) => k === "$ref" || k === "description" || k === "title")
  ) {
    const resolved = deref(doc, root, rootAt, origin);
    top = resolved.value;
    topAt = resolved.at;
  }
  const rootSchema = rewrite(top, topAt);
  const defs: JsonSchemaObject = {};
  while (queue.length > 0) {
    const next = queue.shift()!;
    const name = next.at[2]!;
    defineOwn(defs, name, rewrite(next.schema, next.at));
  }
  const body: JsonSchemaObject = isSchemaObject(rootSchema) ? { ...rootSchema } : rootSchema ? {} : { not: {} };
  const sortedDefs: JsonSchemaObject = {};
  for (const name of Object.keys(defs).sort()) defineOwn(sortedDefs, name, defs[name]);
  const result: JsonSchemaObject = {
    $schema: DIALECT_2020,
    ...body,
    ...(reached.size > 0 ? { $defs: sortedDefs } : {}),
  };
  assertRefsResolve(result, origin, rootAt);
  return result;
}

/**
 * Where local `$ref`s anywhere in the document point, as the set of every prefix ending at a
 * token boundary (`/components/`, `/components/schemas/`, … for `#/components/schemas/A/…`):
 * "does a `$ref` point inside the node at pointer P" is then one look-up of `P + "/"`. One walk
 * of the document, not one per endpoint and direction.
 */
function refTargetPrefixes(doc: unknown): Set<string> {
  const prefixes = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (isSchemaObject(value)) {
      if (typeof value.$ref === "string" && value.$ref.startsWith("#/")) {
        const target = value.$ref.slice(1);
        for (let i = target.indexOf("/"); i >= 0; i = target.indexOf("/", i + 1)) prefixes.add(target.slice(0, i + 1));
      }
      Object.values(value).forEach(visit);
    }
  };
  visit(doc);
  return prefixes;
}

/** Every local `$ref` of a self-contained schema must point at something inside it. */
function assertRefsResolve(schema: JsonSchemaObject, origin: SchemaOrigin, rootAt: string[]): void {
  forEachSchema(schema, (node, path) => {
    const ref = node.$ref;
    if (typeof ref !== "string" || (ref !== "#" && !ref.startsWith("#/"))) return; // an anchor: Ajv resolves it or says so
    // where the reference stands in the published document
    const where = (): string =>
      formatPointer([
        ...(path[0] === "$defs" ? ["components", "schemas", ...path.slice(1)] : [...rootAt, ...path]),
        "$ref",
      ]);
    // a chain of references that never reaches a schema (A -> B -> A) describes nothing
    const seen = new Set<string>([ref]);
    let target = resolveRef(schema, ref);
    while (isSchemaObject(target) && typeof target.$ref === "string" && Object.keys(target).length === 1) {
      const next = target.$ref;
      if (seen.has(next))
        throw new SchemaLoadError(
          origin,
          where(),
          `reference "${ref}" leads to a cycle of references that never reaches a schema`,
        );
      seen.add(next);
      target = resolveRef(schema, next);
    }
    if (resolveRef(schema, ref) === undefined) {
      throw new SchemaLoadError(
        origin,
        where(),
        `reference "${ref}" does not resolve once the endpoint's schema is made self-contained (it points into a component that was rewritten or outside the components); point at "${COMPONENT_PREFIX}<name>" instead`,
      );
    }
  });
}

/** Splits `<owner>/<name>` into its parts; the model id must have exactly one slash. */
export function splitModelId(model: string): { owner: string; name: string } {
  const parts = model.split("/");
  if (parts.length !== 2 || parts.some((p) => p === "" || p === "." || p === "..")) {
    throw new Error(`model id "${model}" is not of the form <owner>/<name>`);
  }
  return { owner: parts[0]!, name: parts[1]! };
}

export interface LoadOptions {
  /**
   * Read what is there (`vsk drift` on the source side): an operation that is not queue-shaped
   * is listed in `operations` only, and a document with no queue-shaped endpoint loads with
   * none. By default both are a `SchemaLoadError`, as `pull`, `generate` and `lint` need them.
   */
  lenient?: boolean;
}

/**
 * The endpoint name of an OpenAPI path: what follows `/<owner>/<name>/` (or
 * `/v1/queue/<owner>/<name>/`, spec 4.1), else the last segment; undefined when it is not a name.
 */
function endpointName(path: string, model: string): string | undefined {
  const prefix = [`/${model}/`, `/v1/queue/${model}/`].find((p) => path.startsWith(p));
  const endpoint = prefix !== undefined ? path.slice(prefix.length) : (path.split("/").filter(Boolean).at(-1) ?? "");
  return /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(endpoint) ? endpoint : undefined;
}

/**
 * Loads a parsed model document: every operation (any method, request media type and success
 * status) into `operations`, and each queue-shaped one (spec 4.1: POST, a JSON request body, a
 * JSON success response) into an `EndpointModel`. Throws `SchemaLoadError` naming the model,
 * the file and the JSON Pointer when the document is not OpenAPI, has no queue-shaped endpoint
 * (unless `lenient`) or has a dangling `$ref`.
 */
export function loadModelDocument(doc: unknown, origin: SchemaOrigin, options: LoadOptions = {}): ModelSchema {
  if (!isSchemaObject(doc))
    throw new SchemaLoadError(origin, "", "is not an OpenAPI document (expected a JSON object)");
  const version = doc.openapi;
  if (typeof version !== "string" || !/^3\.[01]\./.test(version)) {
    const hint = "swagger" in doc ? " (Swagger 2.0 is not supported)" : "";
    throw new SchemaLoadError(
      origin,
      "/openapi",
      `is not an OpenAPI 3.0 or 3.1 document: "openapi" is ${JSON.stringify(version) ?? "missing"}${hint}`,
    );
  }
  const dialect = version.startsWith("3.0") ? "openapi-3.0" : "openapi-3.1";
  const { owner, name } = splitModelId(origin.model);
  if (!isSchemaObject(doc.paths))
    throw new SchemaLoadError(origin, "/paths", "the document has no paths, so no endpoints");

  const referenced = refTargetPrefixes(doc);
  const endpoints: EndpointModel[] = [];
  const operations: OperationModel[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!isSchemaObject(item)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!isSchemaObject(op)) continue;
      const at = ["paths", path, method];
      const endpoint = endpointName(path, origin.model);
      if (endpoint === undefined) {
        // only a POST can be a queue endpoint (spec 4.1); other operations (status, result) are not ours
        if (method !== "post") continue;
        throw new SchemaLoadError(
          origin,
          formatPointer(["paths", path]),
          `cannot tell the endpoint name from path "${path}" (expected /${origin.model}/<endpoint>)`,
        );
      }
      const responses = isSchemaObject(op.responses) ? op.responses : {};
      const status = successStatus(responses);
      let body: ReturnType<typeof deref>;
      let response: ReturnType<typeof deref> | undefined;
      try {
        body = deref(doc, op.requestBody, [...at, "requestBody"], origin);
        response =
          status === undefined ? undefined : deref(doc, responses[status], [...at, "responses", status], origin);
      } catch (error) {
        // a reference that cannot be followed in an operation that cannot be a queue endpoint is not ours to judge
        if (method === "post" || !(error instanceof SchemaLoadError)) throw error;
        continue;
      }
      const input = mediaOf(isSchemaObject(body.value) ? body.value.content : undefined);
      const output = mediaOf(isSchemaObject(response?.value) ? response.value.content : undefined);
      const operation: OperationModel = {
        endpoint,
        operationPath: path,
        method: method.toUpperCase(),
        requestMediaType: input?.type ?? null,
        responseStatus: status ?? null,
        responseMediaType: output?.type ?? null,
      };
      operations.push(operation);
      const problem =
        method !== "post"
          ? undefined
          : input === undefined || !isJson(input.type) || !("schema" in input)
            ? ([[...body.at, "content"], "the endpoint has no application/json request body schema"] as const)
            : response === undefined || output === undefined || !isJson(output.type) || !("schema" in output)
              ? ([[...at, "responses"], "the endpoint has no 2xx application/json response schema"] as const)
              : undefined;
      if (method !== "post" || problem !== undefined) {
        if (problem !== undefined && options.lenient !== true)
          throw new SchemaLoadError(origin, formatPointer(problem[0]), problem[1]);
        continue;
      }
      const key = `${origin.model}/${endpoint}`;
      endpoints.push({
        model: origin.model,
        owner,
        name,
        endpoint,
        key,
        queuePath: `/v1/queue/${key}`,
        operationPath: path,
        requestMediaType: input!.type,
        responseStatus: status!,
        responseMediaType: output!.type,
        ...(typeof op.summary === "string" ? { summary: op.summary } : {}),
        input: selfContained(
          doc,
          input!.schema,
          [...body.at, "content", input!.type, "schema"],
          origin,
          dialect,
          referenced,
        ),
        output: selfContained(
          doc,
          output!.schema,
          [...response!.at, "content", output!.type, "schema"],
          origin,
          dialect,
          referenced,
        ),
      });
    }
  }
  if (endpoints.length === 0 && options.lenient !== true)
    throw new SchemaLoadError(
      origin,
      "/paths",
      "the document has no queue-shaped endpoint (a POST with a JSON request body and a JSON success response, spec 4.1)",
    );
  const byName = (a: { endpoint: string }, b: { endpoint: string }): number =>
    a.endpoint < b.endpoint ? -1 : a.endpoint > b.endpoint ? 1 : 0;
  endpoints.sort(byName);
  operations.sort(byName);
  const info = isSchemaObject(doc.info) ? doc.info : {};
  return {
    model: origin.model,
    dialect,
    endpoints,
    operations,
    ...(typeof info.title === "string" ? { title: info.title } : {}),
  };
}

/** Parses the text of a model document; a syntax error names the line and column. */
export function parseModelText(text: string, origin: SchemaOrigin): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const trimmed = text.trimStart();
    if (trimmed.startsWith("<") || trimmed === "") {
      throw new SchemaLoadError(
        origin,
        "",
        trimmed === "" ? "is empty, not JSON" : "is HTML or XML, not JSON (an error page from a proxy or CDN?)",
      );
    }
    const { line, column, problem } = jsonSyntaxError(text);
    throw new SchemaLoadError(origin, "", `is not valid JSON (line ${line}, column ${column}): ${problem}`);
  }
}
