/**
 * The errors the queue client throws, one class per thing that went wrong, so a caller can
 * branch on the class. None of them ever holds the API key, and every URL in them has lost its
 * query string (spec 7.2 rule 3).
 */
import { redactUrlsInText } from "../runtime/index.js";
import { newAbortError, type AbortSignalLike } from "./platform.js";

/**
 * Invalid input (spec 7.2 input_validation_failed), thrown by `submit` before any network call:
 * the one class of the generated support module, so the client and the generated builders throw
 * the same error and `instanceof` holds whichever copy a caller imported.
 */
export { RequestValidationError, type Diagnostic } from "../diagnostics/index.js";

/** Base class: `requestId` when the service gave one. */
export class QueueClientError extends Error {
  constructor(
    message: string,
    readonly requestId?: string,
  ) {
    super(redactUrlsInText(message));
    this.name = "QueueClientError";
  }
}

/** The result endpoint's generic 400: the prediction is queued, running or cancelled (spec 3 rule 4). */
export class ResultNotReadyError extends QueueClientError {
  constructor(
    message: string,
    requestId: string,
    readonly code?: string,
  ) {
    super(message, requestId);
    this.name = "ResultNotReadyError";
  }
}

/** A JSON API request error (spec 7.3) other than PREDICTION_FAILED: auth, billing, missing resources. */
export class ApiRequestError extends QueueClientError {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | undefined,
    requestId?: string,
  ) {
    super(message, requestId);
    this.name = "ApiRequestError";
  }
}

/** An answer that did not come from the service: not JSON, or no answer at all (spec 7.3). */
export class EdgeError extends QueueClientError {
  constructor(
    message: string,
    /** the HTTP status, 0 for a dropped connection */
    readonly status: number,
    /** the start of the body, URLs redacted */
    readonly snippet: string,
    requestId?: string,
  ) {
    super(message, requestId);
    this.name = "EdgeError";
  }
}

/** `subscribe` gave up waiting; the prediction may still finish (ask `status` with `requestId`). */
export class SubscribeTimeoutError extends QueueClientError {
  constructor(requestId: string, timeoutMs: number) {
    super(
      `no final status for request ${requestId} within ${timeoutMs} ms; the prediction may still finish`,
      requestId,
    );
    this.name = "SubscribeTimeoutError";
  }
}

/** `subscribe` saw the prediction cancelled. */
export class PredictionCancelledError extends QueueClientError {
  constructor(requestId: string) {
    super(`request ${requestId} was cancelled`, requestId);
    this.name = "PredictionCancelledError";
  }
}

/** The error an aborted signal rejects with, as `fetch` does: a DOMException named AbortError. */
export function abortError(signal: AbortSignalLike | undefined): Error {
  const reason = signal?.reason;
  if (reason instanceof Error && reason.name === "AbortError") return reason;
  return newAbortError("The operation was aborted");
}
