/**
 * The one error type of the fetch stage: plain data a person can act on.
 * Every message goes through `redactUrlsInText`, so no URL in it keeps a query string,
 * fragment or user info (spec 7.2, input_fetch_failed rule 3, applied to our own fetches).
 */
import { redactUrlsInText } from "./redact.js";

export class FetchError extends Error {
  override name = "FetchError";
  /** `<owner>/<name>` of the model whose schema could not be fetched */
  readonly model: string;
  /** the URL or path requested, query string, fragment and user info removed */
  readonly url: string;
  /** HTTP status of the last answer, when there was one */
  readonly status: number | undefined;
  /** whether the failure was momentary (5xx, 408, 429, timeout, reset, DNS) and a later pull may succeed */
  readonly retryable: boolean;
  /** how many requests were made (1 when not retried) */
  readonly attempts: number;

  constructor(init: {
    model: string;
    url: string;
    problem: string;
    status?: number;
    retryable: boolean;
    attempts?: number;
  }) {
    const url = redactUrlsInText(init.url);
    super(redactUrlsInText(`${init.model}: ${url}: ${init.problem}`));
    this.model = init.model;
    this.url = url;
    this.status = init.status;
    this.retryable = init.retryable;
    this.attempts = init.attempts ?? 1;
  }
}

/** A usage error: a schema URL of another scheme, credentials in it, a bad setting. */
export class FetchUsageError extends Error {
  override name = "FetchUsageError";
  constructor(message: string) {
    super(redactUrlsInText(message));
  }
}
