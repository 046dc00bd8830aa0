/** A JSON Schema (draft 2020-12) as plain data. `true`/`false` are schemas too. */
export type JsonSchema = boolean | JsonSchemaObject;
export interface JsonSchemaObject {
  [keyword: string]: unknown;
}

/** Where a schema came from, for messages: the model id, the file or URL, and a JSON Pointer. */
export interface SchemaOrigin {
  model: string;
  file: string;
}

/**
 * One endpoint of one model, normalized: what every later stage (rules, emit, lint, drift)
 * works from. Input and output are self-contained JSON Schemas (draft 2020-12) whose `$ref`s
 * point into their own `$defs`, and nullability is always written `anyOf: [X, {type: "null"}]`.
 */
export interface EndpointModel {
  /** `<owner>/<name>`, e.g. `example/model-a` */
  model: string;
  owner: string;
  name: string;
  /** endpoint name, e.g. `keyframes-to-video` */
  endpoint: string;
  /** `<owner>/<name>/<endpoint>`: the registry key */
  key: string;
  /** `/v1/queue/<owner>/<name>/<endpoint>` (spec 4.1) */
  queuePath: string;
  /** the OpenAPI path the endpoint was read from, e.g. `/example/model-a/text-to-video` */
  operationPath: string;
  /** the request body's media type as written (`application/json`) */
  requestMediaType: string;
  /** the success response read: its status as written (`200`, `201`, `2XX`, `default`) and media type */
  responseStatus: string;
  responseMediaType: string;
  summary?: string;
  input: JsonSchemaObject;
  output: JsonSchemaObject;
}

/**
 * One operation of a model's document as written, whatever its method, media types and status:
 * what `vsk drift` compares at the endpoint level (a method, media type or status changed).
 */
export interface OperationModel {
  /** endpoint name from the path */
  endpoint: string;
  operationPath: string;
  /** upper case: `POST`, `PUT`, … */
  method: string;
  /** the request body's media type read (JSON preferred), null without a body */
  requestMediaType: string | null;
  /** the success status read (lowest 2xx, then `2XX`, then `default`), null without one */
  responseStatus: string | null;
  responseMediaType: string | null;
}

/** A model's document loaded: its queue-shaped endpoints and every operation, sorted by name. */
export interface ModelSchema {
  model: string;
  title?: string;
  dialect: "openapi-3.0" | "openapi-3.1";
  /** the queue-shaped endpoints (spec 4.1: POST, a JSON request body, a JSON success response) */
  endpoints: EndpointModel[];
  /** every operation read, queue-shaped or not */
  operations: OperationModel[];
}
