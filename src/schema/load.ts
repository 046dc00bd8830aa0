/**
 * Reads a model's published OpenAPI document (spec 9.1: `{schema_url}/main/{owner}/{name}/latest.json`)
 * into one `EndpointModel` per queue-shaped endpoint (spec 4.1), and every operation as written
 * (method, media types, success status) for drift. OpenAPI 3.1 and 3.0 are both accepted.
 */
import { formatPointer, jsonSyntaxError } from "../json/index.js";
import { deref, refTargetPrefixes, selfContained } from "./bundle.js";
import { SchemaLoadError } from "./load-error.js";
import { endpointName, isJson, mediaOf, METHODS, successStatus } from "./operation.js";
import type { EndpointModel, ModelSchema, OperationModel, SchemaOrigin } from "./types.js";
import { isSchemaObject } from "./walk.js";

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
