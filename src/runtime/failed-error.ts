/**
 * The exception a client raises for a failed prediction (spec 7.3: "Client libraries raise, from
 * the result call, an error whose code, reason and retryable equal the prediction's own, identical
 * to the error raised by a subscribed call for the same failure").
 */
import { buildPredictionError } from "./prediction-error.js";
import { field } from "./safe.js";
import type { KnownReason, PredictionError, PredictionErrorCode, RetryableSource } from "./types.js";

/**
 * A failed prediction as an `Error`. Built only from a {@link PredictionError}, so the same failure
 * read from the result endpoint and from a status record gives equal errors (spec 7.3).
 * Branch on `retryable` and `reason`, not on `code` (spec 9.3).
 */
export class PredictionFailedError extends Error {
  /** The read code (spec 7.1, 7.2). */
  readonly code: PredictionErrorCode;
  /** The code as sent. */
  readonly rawCode: string;
  /** A known reason of spec 7.2, or undefined. */
  readonly reason: KnownReason | undefined;
  /** The reason as sent, or undefined. */
  readonly rawReason: string | undefined;
  /** Whether submitting the identical request again can have a different outcome. */
  readonly retryable: boolean;
  /** Whether `retryable` was sent or came from the per-code default. */
  readonly retryableSource: RetryableSource;
  /** When the prediction failed, as sent. */
  readonly timestamp: string | undefined;
  /** The reading this error was built from. */
  readonly predictionError: PredictionError;
  /**
   * The request id the failure belongs to (quote it to support): set by the queue client on what
   * `result()` and `subscribe()` throw; absent on an error built from a reading alone.
   */
  declare readonly requestId?: string;

  constructor(error: PredictionError) {
    super(error.message);
    this.name = "PredictionFailedError";
    this.code = error.code;
    this.rawCode = error.rawCode;
    this.reason = error.reason;
    this.rawReason = error.rawReason;
    this.retryable = error.retryable;
    this.retryableSource = error.retryableSource;
    this.timestamp = error.timestamp;
    this.predictionError = error;
  }
}

/**
 * Wraps a {@link PredictionError} (from any reader) in a throwable {@link PredictionFailedError}.
 * A value that is not a well-formed `PredictionError` is re-read conservatively instead of
 * trusted, so this never throws either.
 */
export function toPredictionFailedError(error: PredictionError): PredictionFailedError {
  const read = (key: string): unknown => field(error, key).value;
  const rawCode = read("rawCode");
  const rawReason = read("rawReason");
  const retryable = read("retryable");
  const normalized = buildPredictionError({
    rawCode: typeof rawCode === "string" ? rawCode : typeof read("code") === "string" ? (read("code") as string) : "",
    rawReason:
      typeof rawReason === "string"
        ? rawReason
        : typeof read("reason") === "string"
          ? (read("reason") as string)
          : undefined,
    retryable: typeof retryable === "boolean" ? retryable : undefined,
    message: read("message"),
    timestamp: read("timestamp"),
  });
  // buildPredictionError calls every boolean explicit; keep the source the reading recorded.
  if (typeof retryable === "boolean" && read("retryableSource") === "code-default")
    normalized.retryableSource = "code-default";
  return new PredictionFailedError(normalized);
}
