/**
 * The reason table of spec 7.2 as data: each reason's code, its `retryable` as the table states
 * it, what it means and what the client should do. Used to explain a failure to a person; the
 * decision itself always follows the `retryable` that was sent or the per-code default (spec 7.2,
 * 9.3: branch on `retryable` and `reason`, not on `code`).
 */
import type { ClassifiedCode, KnownReason, PredictionErrorCode } from "./types.js";

/** One row of the spec 7.2 reason table. */
export interface ReasonEntry {
  /** The code the table pairs the reason with (spec 9.3 moves some reasons between codes). */
  code: ClassifiedCode;
  /** `retryable` as stated by the table; `"either"` for input_fetch_failed (rules 1 and 2). */
  retryable: boolean | "either";
  /** What the failure means. */
  meaning: string;
  /** What the client should do. */
  action: string;
  /** For a reason whose action depends on `retryable`, the action for each value. */
  actionByRetryable?: { true: string; false: string };
}

/** Spec 7.2, one line per reason, in table order. */
export const REASONS: Readonly<Record<KnownReason, ReasonEntry>> = Object.freeze({
  input_validation_failed: {
    code: "invalid_input",
    retryable: false,
    meaning: "The service's own schema or parameter validation failed; the message names the field.",
    action: "Fix the field the message names, then submit the corrected request.",
  },
  provider_rejected_input: {
    code: "invalid_input",
    retryable: false,
    meaning:
      "The model provider rejected the input parameters (out-of-range value, unsupported combination, aspect ratio or duration).",
    action:
      "Change the parameter the message names (where the provider said which); the same request will be rejected again.",
  },
  input_fetch_failed: {
    code: "invalid_input",
    retryable: "either",
    meaning: "An input file referenced by URL could not be fetched.",
    action: "See whether the fetch failure was temporary (retryable) or a rejection by the host.",
    actionByRetryable: {
      true: "The host was momentarily unreachable (5xx, timeout, DNS failure): submit the same request again later.",
      false:
        "The host rejected the fetch (4xx, a forbidden address, a redirect or a file over the size limit): check that the URL is publicly reachable and that a presigned link has not expired.",
    },
  },
  moderation_blocked: {
    code: "unsafe_content",
    retryable: false,
    meaning:
      "Blocked by the provider's content safety system, on the input (prompt, media) or on the generated output.",
    action: "Change the prompt or media.",
  },
  provider_rate_limited: {
    code: "service_provider_error",
    retryable: true,
    meaning: "The provider is rate limiting.",
    action: "Retry with backoff, or use another model.",
  },
  provider_unavailable: {
    code: "service_provider_error",
    retryable: true,
    meaning: "The provider failed to serve the request.",
    action: "Retry later, or use another model.",
  },
  provider_timeout: {
    code: "task_timeout",
    retryable: true,
    meaning: "The prediction did not complete within the allowed time.",
    action: "Retry; a shorter duration or a lower resolution improves the odds.",
  },
  provider_account_error: {
    code: "internal_server_error",
    retryable: false,
    meaning: "A problem with the service's own account at the provider (billing, credentials, permanent quota).",
    action: "Nothing for the client to do.",
  },
  endpoint_misconfigured: {
    code: "internal_server_error",
    retryable: false,
    meaning: "The endpoint is misconfigured on the service side.",
    action: "Nothing for the client to do; quote the request_id to support.",
  },
  queue_enqueue_failed: {
    code: "internal_server_error",
    retryable: true,
    meaning: "The request could not be placed on the queue.",
    action: "Submit the request again.",
  },
  reaped_stalled: {
    code: "internal_server_error",
    retryable: true,
    meaning: "The prediction stalled and was terminated.",
    action: "Submit the request again.",
  },
});

/** True when `reason` is a row of the spec 7.2 table. */
export function isKnownReason(reason: unknown): reason is KnownReason {
  return typeof reason === "string" && Object.prototype.hasOwnProperty.call(REASONS, reason);
}

/**
 * What to do when no known reason was sent, per code (spec 7.2 read by column, 9.3). The advice
 * is deliberately general: the code alone does not say which 7.2 row applies.
 */
export const CODE_ACTIONS: Readonly<Record<PredictionErrorCode, string>> = Object.freeze({
  invalid_input:
    "The service judged the input invalid: read the message, fix the request, and do not submit it unchanged.",
  unsafe_content: "The content safety system blocked the prediction: change the prompt or media.",
  service_provider_error: "The model provider failed: retry with backoff, or use another model.",
  task_timeout:
    "The prediction ran out of time: retry, with a shorter duration or lower resolution to improve the odds.",
  internal_server_error:
    "A problem on the service's side: quote the request_id to support; submit again only if retryable says so.",
  unknown_error_code:
    "The service could not classify the failure: read the message; quote the request_id to support if it persists.",
});
