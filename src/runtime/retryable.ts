/**
 * The per-code default of `retryable`, used only when the service sent none (spec 7.2: "When
 * retryable is absent the client falls back to the per-code default"). The spec does not show the
 * defaults (spec 7.1), so this table is ours, and it is conservative: `true` only where every
 * reason the spec lists under the code is retryable, `false` wherever a blind retry could repeat a
 * failure (and, for a charged success, cost money) without a different outcome.
 * docs/runtime.md explains each line.
 */
import { normalizeCode } from "./codes.js";
import type { PredictionErrorCode } from "./types.js";

/**
 * Default `retryable` per code. Frozen; pass `retryableDefaults` to a reader (or to
 * {@link defaultRetryable}) to override single lines.
 */
export const RETRYABLE_DEFAULTS: Readonly<Record<PredictionErrorCode, boolean>> = Object.freeze({
  /** Every 7.2 reason under it (rate limited, unavailable) is retryable. */
  service_provider_error: true,
  /** Its one 7.2 reason (provider_timeout) is retryable. */
  task_timeout: true,
  /** Validation and provider rejection are deterministic; a fetch failure is retryable only when the service says so. */
  invalid_input: false,
  /** The same prompt and media will be blocked again. */
  unsafe_content: false,
  /** Mixed in 7.2 (account and misconfiguration: false; enqueue and stall: true); unknown codes land here too. */
  internal_server_error: false,
  /** Nothing could be classified, so nothing suggests a retry would differ. */
  unknown_error_code: false,
});

/**
 * The `retryable` to assume for `code` when the service sent none. An unknown code uses the
 * `internal_server_error` line (spec 7.2, "An unknown code is treated as internal_server_error").
 *
 * @param code the code as sent or as read
 * @param overrides lines replacing those of {@link RETRYABLE_DEFAULTS}
 */
export function defaultRetryable(code: string, overrides?: Partial<Record<PredictionErrorCode, boolean>>): boolean {
  const normalized = normalizeCode(typeof code === "string" ? code : "");
  let override: unknown;
  try {
    override = overrides?.[normalized];
  } catch {
    override = undefined;
  }
  return typeof override === "boolean" ? override : RETRYABLE_DEFAULTS[normalized];
}
