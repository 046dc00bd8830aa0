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
  summary?: string;
  input: JsonSchemaObject;
  output: JsonSchemaObject;
}

/** A model's document loaded: its endpoints, sorted by name. */
export interface ModelSchema {
  model: string;
  title?: string;
  dialect: "openapi-3.0" | "openapi-3.1";
  endpoints: EndpointModel[];
}
