/**
 * `video-schema-kit/runtime`: the one faithful reading of the service's prediction errors
 * (spec 2.4, 3, 6, 7, 9.2, 9.3). Standard library only; runs in Node and in browsers.
 *
 * Readers never throw: junk in, a conservative reading and a note out.
 *
 * @example
 * import { readResultResponse, toPredictionFailedError } from "video-schema-kit/runtime";
 * const res = await fetch(resultUrl, { headers });
 * const reading = readResultResponse({ status: res.status, body: await res.text() });
 * if (reading.kind === "prediction_failed") throw toPredictionFailedError(reading.error);
 */
export { readPrediction, readQueueStatus, readWebhook } from "./readers.js";
export { readResultResponse, PREDICTION_FAILED } from "./result-response.js";
export { PredictionFailedError, toPredictionFailedError } from "./failed-error.js";
export { defaultRetryable, RETRYABLE_DEFAULTS } from "./retryable.js";
export { addSecretValues, REDACTED_MARK, redactSecrets, redactUrl, redactUrlsInText } from "./redact.js";
export { PREDICTION_ERROR_CODES, isKnownCode, normalizeCode } from "./codes.js";
export { REASONS, CODE_ACTIONS, isKnownReason, type ReasonEntry } from "./reasons.js";
export { adviseOnFailure, type FailureAdvice } from "./advice.js";
export { GENERIC_FAILURE_MESSAGE } from "./prediction-error.js";
export { DEFAULT_QUEUE_PATHS, SUBMIT_PATH, fillPath, type QueuePaths } from "./queue-paths.js";
export type * from "./types.js";
