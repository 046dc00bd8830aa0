/**
 * Stage 1, fetch: a model's published schema (spec 9.1,
 * `{schema_url}/main/{owner}/{name}/latest.json`) from `http(s)://`, `file://` or a mirror
 * directory. Checks only that the body is JSON; whether it is a model document is stage 2's call.
 */
export { FetchError, FetchUsageError } from "./errors.js";
export {
  FETCH_DEFAULTS,
  parseTimeoutSeconds,
  resolveFetchOptions,
  type FetchOptions,
  type RetryEvent,
} from "./options.js";
export { redactUrl, redactUrlsInText } from "./redact.js";
export { errorCode, isRetryableStatus, parseRetryAfter, retryDelay, TRANSIENT_ERRORS } from "./retry.js";
export { describeSource, modelLocation, parseSchemaSource, type SchemaSource } from "./source.js";
export { chooseSchemaSource, mapLimit, type SourceChoice } from "./choose.js";
export { type FetchedSchema, fetchModelSchema, scrubSecrets } from "./model-schema.js";
