/**
 * The code vocabulary (spec 7.1) and how an open-set code is read (spec 7.2, "Open sets").
 */
import type { PredictionErrorCode } from "./types.js";

/** The classified codes of spec 7.1 and the sentinel `unknown_error_code`, in spec order. */
export const PREDICTION_ERROR_CODES: readonly PredictionErrorCode[] = [
  "invalid_input",
  "unsafe_content",
  "service_provider_error",
  "task_timeout",
  "internal_server_error",
  "unknown_error_code",
];

const KNOWN_CODES: ReadonlySet<string> = new Set(PREDICTION_ERROR_CODES);

/** True when `code` is one of the five classified codes or `unknown_error_code`. */
export function isKnownCode(code: unknown): code is PredictionErrorCode {
  return typeof code === "string" && KNOWN_CODES.has(code);
}

/**
 * Reads a code as sent (spec 7.2): a known code is itself, `unknown_error_code` stays itself, any
 * other non-empty string is treated as `internal_server_error`, and a missing or empty code is
 * `unknown_error_code` (spec 9.2.2: an unclassifiable failure).
 */
export function normalizeCode(rawCode: string): PredictionErrorCode {
  if (rawCode === "") return "unknown_error_code";
  return isKnownCode(rawCode) ? rawCode : "internal_server_error";
}
