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

/**
 * A redirect the client does not follow: to another origin (the key and the input would go
 * there), one that would change the method (a submit turned into a GET), or more than
 * {@link MAX_REDIRECTS} in a row.
 */
export class RedirectError extends QueueClientError {
  constructor(
    message: string,
    /** the 3xx status (0 for a redirect the platform hides) */
    readonly status: number,
    /** the origin the redirect pointed at, when known */
    readonly targetOrigin?: string,
  ) {
    super(message);
    this.name = "RedirectError";
  }
}

/** One call got no complete answer within its deadline (`timeoutMs`, retries and body included). */
export class RequestTimeoutError extends QueueClientError {
  constructor(
    message: string,
    readonly timeoutMs: number,
  ) {
    super(message);
    this.name = "RequestTimeoutError";
  }
}

/** An answer's body is larger than `maxResponseBytes`; reading stopped there. */
export class ResponseTooLargeError extends QueueClientError {
  constructor(
    message: string,
    readonly status: number,
    readonly limitBytes: number,
  ) {
    super(message);
    this.name = "ResponseTooLargeError";
  }
}

/** `subscribe` gave up waiting; the prediction may still finish (ask `status` with `requestId`). */
export class SubscribeTimeoutError extends QueueClientError {
  constructor(
    requestId: string | undefined,
    readonly timeoutMs: number,
    /** whether the client cancelled the prediction on giving up (`cancelOnTimeout`) */
    readonly cancelled = false,
  ) {
    super(
      requestId === undefined
        ? `no acknowledgement of the submit within ${timeoutMs} ms; the service may still have accepted it (no request id to ask about)`
        : `no final status for request ${requestId} within ${timeoutMs} ms; ${cancelled ? "it was cancelled" : "the prediction may still finish"}`,
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
