/**
 * What a failure means for a person and what to do about it: the spec 7.2 reason table (see
 * reasons.ts) read for one `PredictionError`. The retry decision is always the error's own
 * `retryable` (spec 7.2, 9.3); the table only supplies the words.
 */
import { CODE_ACTIONS, REASONS } from "./reasons.js";
import { RETRYABLE_DEFAULTS } from "./retryable.js";
import type { PredictionError } from "./types.js";

/** An explanation of one failure, for people. */
export interface FailureAdvice {
  /** Whether to submit the identical request again (the error's `retryable`). */
  retry: boolean;
  /** Why: the service said so, or the per-code default decided. */
  retryWhy: string;
  /** What the reason means (spec 7.2), when the reason is known. */
  meaning?: string;
  /** What the client should do (the client action of spec 7.2, or the per-code advice). */
  action: string;
}

/** Retry sentences by decision. */
const RETRY_SENTENCES = {
  true: "submitting the identical request again can have a different outcome",
  false: "submitting the identical request again would fail the same way",
} as const;

/**
 * Explains a failure: retry or not and why, what the reason means, and the client action of the
 * spec 7.2 table (for input_fetch_failed, the action for the `retryable` at hand; for an absent or
 * unknown reason, the per-code advice).
 */
export function adviseOnFailure(error: PredictionError): FailureAdvice {
  const retry = error.retryable === true;
  const entry = error.reason !== undefined ? REASONS[error.reason] : undefined;
  const tableDefault = RETRYABLE_DEFAULTS[error.code];
  const retryWhy =
    error.retryableSource === "explicit"
      ? `the service sent retryable: ${String(retry)} (${RETRY_SENTENCES[`${retry}`]}).`
      : `the service sent no retryable; the per-code default for ${error.code} is ${String(retry)}` +
        (retry === tableDefault
          ? " (spec 7.2; the table is in docs/runtime.md)."
          : " (spec 7.2; overridden by the caller).") +
        (entry !== undefined && typeof entry.retryable === "boolean" && entry.retryable !== retry
          ? ` The spec 7.2 table lists ${String(error.reason)} as retryable: ${String(entry.retryable)}.`
          : "");
  const tableAction =
    entry === undefined
      ? (CODE_ACTIONS[error.code] ?? CODE_ACTIONS.internal_server_error)
      : entry.actionByRetryable !== undefined
        ? entry.actionByRetryable[`${retry}`]
        : entry.action;
  // A known reason whose 7.2 row disagrees with a code default: give the row's action, and say
  // plainly that the decision above did not follow it.
  const action =
    entry !== undefined &&
    error.retryableSource === "code-default" &&
    typeof entry.retryable === "boolean" &&
    entry.retryable !== retry
      ? `Spec 7.2 says for ${String(error.reason)}: ${tableAction} The service sent no retryable, so this reading keeps the per-code default (${retry ? "retry" : "no retry"}); pass retryableDefaults to decide otherwise.`
      : tableAction;
  return { retry, retryWhy, ...(entry !== undefined ? { meaning: entry.meaning } : {}), action };
}
