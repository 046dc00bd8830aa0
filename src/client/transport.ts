/**
 * One HTTP exchange with retries, on `fetch` only (Node, browsers, edge runtimes). A GET is
 * retried on 429/502/503/504 and on network errors, with exponential backoff, jitter and
 * `Retry-After`. A submit (POST) creates a billed prediction: it is retried only where the
 * request surely was not accepted (429, a connection refused before anything was sent), never
 * after a 5xx or a dropped connection, unless the caller opts in (docs/queue.md).
 *
 * Every exchange is bounded (issue 23): a deadline over all its attempts and its body
 * (`timeoutMs`), a byte cap on every body it reads (`maxResponseBytes`), and redirects followed
 * only to the same origin and without changing the method (the key and the input never go
 * anywhere but `baseUrl`'s origin).
 */
import { abortError, EdgeError, RedirectError, RequestTimeoutError, ResponseTooLargeError } from "./errors.js";
import {
  anySignal,
  clearTimer,
  newAbortController,
  newRequest,
  parseUrl,
  setTimer,
  utf8,
  utf8Decoder,
  type AbortSignalLike,
  type FetchInit,
  type FetchLike,
  type HeadersLike,
  type ResponseLike,
} from "./platform.js";

export interface RetryOptions {
  /** retries after the first attempt (default 3) */
  retries?: number;
  /** first backoff in ms (default 250), doubled each time, with full jitter */
  baseDelayMs?: number;
  /** the longest wait between attempts, `Retry-After` included (default 20 000 ms) */
  maxDelayMs?: number;
  /** `"safe"` (default): a submit is retried only on 429 and a refused connection; `"always"`: like a GET */
  submit?: "safe" | "always";
}

export interface Exchange {
  status: number;
  headers: HeadersLike;
  text: string;
}

/** The bounds of one exchange; documented in docs/client.md. */
export interface ExchangeLimits {
  /** the deadline over every attempt, wait and body read (ms); `Infinity` for none */
  timeoutMs: number;
  /** the most bytes read of any one body */
  maxResponseBytes: number;
}

/** Per-call deadline by default: 60 s for the whole call, retries and body included. */
export const DEFAULT_TIMEOUT_MS = 60_000;
/** Body cap by default: 10 MiB (an acknowledgement, a status or an output is a few kB). */
export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;
/** Same-origin redirects followed in a row, at most (fetch's own limit is 20). */
export const MAX_REDIRECTS = 5;

const RETRY_STATUS = new Set([429, 502, 503, 504]);
/** Redirect statuses, and whether each keeps the method and body (Fetch: 301/302/303 turn a POST into a GET). */
const REDIRECTS: ReadonlyMap<number, "keeps-method" | "becomes-get"> = new Map([
  [301, "becomes-get"],
  [302, "becomes-get"],
  [303, "becomes-get"],
  [307, "keeps-method"],
  [308, "keeps-method"],
]);
/** True when the failure happened before the request could reach the server (connection refused). */
function refusedBeforeSending(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e !== undefined && e !== null && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (code === "ECONNREFUSED") return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

function networkCode(error: unknown): string {
  for (let e: unknown = error, depth = 0; e !== undefined && e !== null && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
    e = (e as { cause?: unknown }).cause;
  }
  return error instanceof Error ? error.message : "network error";
}

/** `Retry-After` in ms: seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export function sleep(ms: number, signal: AbortSignalLike | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const timer = setTimer(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimer(timer);
      reject(abortError(signal));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** `promise`, or the signal's AbortError as soon as it aborts (a `fetch` that ignores its signal cannot hang a call). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignalLike): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(abortError(signal));
    const onAbort = () => reject(abortError(signal));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => (signal.removeEventListener("abort", onAbort), resolve(value)),
      (error: unknown) => (signal.removeEventListener("abort", onAbort), reject(error)),
    );
  });
}

/** Drops a body unread (a retried or redirected answer): the stream is cancelled, never drained. */
function discard(response: ResponseLike): void {
  try {
    void response.body?.cancel?.().catch(() => undefined);
  } catch {
    // nothing to release
  }
}

/** A validated bound: a positive number (`Infinity` allowed for a deadline); a TypeError otherwise. */
export function bound(name: string, value: number | undefined, fallback: number, infinite: boolean): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || Number.isNaN(value) || value <= 0 || (!infinite && !Number.isFinite(value)))
    throw new TypeError(
      `${name} must be a positive number of ${name.endsWith("Bytes") ? "bytes" : "ms"}${infinite ? " (or Infinity for none)" : ""}, not ${String(value)}`,
    );
  return value;
}

/** Reads a body as text, at most `max` bytes; a ResponseTooLargeError beyond that (the rest is never read). */
async function readBody(response: ResponseLike, max: number, signal: AbortSignalLike, label: string): Promise<string> {
  const tooLarge = () =>
    new ResponseTooLargeError(
      `${label}: the answer (HTTP ${response.status}) is larger than ${max} bytes; reading stopped (raise maxResponseBytes if the service's answers are that large)`,
      response.status,
      max,
    );
  const declared = Number(response.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > max) {
    discard(response);
    throw tooLarge();
  }
  const stream = response.body;
  if (stream === null || stream === undefined || typeof stream.getReader !== "function") {
    // a `fetch` without body streams (a test double): its text is all there is
    const text = await untilAborted(response.text(), signal);
    if (utf8(text).byteLength > max) throw tooLarge();
    return text;
  }
  const reader = stream.getReader();
  const decoder = utf8Decoder();
  let bytes = 0;
  let text = "";
  for (;;) {
    const chunk = await untilAborted(reader.read(), signal);
    if (chunk.done) break;
    if (chunk.value === undefined) continue;
    bytes += chunk.value.byteLength;
    if (bytes > max) {
      void reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    text += decoder.decode(chunk.value, { stream: true });
  }
  return text + decoder.decode();
}

/** The origin of a URL, or the URL itself when it is not one (a relative path the platform resolved). */
function originOf(url: string): string {
  try {
    return parseUrl(url).origin;
  } catch {
    return url;
  }
}

/**
 * Where a redirect may be followed to, or the RedirectError that says why not: another origin,
 * a change of method, a hidden target, too many hops.
 */
function redirectTarget(response: ResponseLike, from: string, method: string, hops: number, label: string): string {
  const status = response.status;
  if (response.type === "opaqueredirect")
    throw new RedirectError(
      `${label}: the answer is a redirect whose target the platform hides; API calls follow no redirect they cannot check. Set baseUrl to the service's own address.`,
      status,
    );
  const location = response.headers.get("location");
  let target: { readonly origin: string; readonly href: string };
  try {
    target = parseUrl(location ?? "", from);
  } catch {
    throw new RedirectError(`${label}: HTTP ${status} without a usable Location; not followed.`, status);
  }
  if (location === null) throw new RedirectError(`${label}: HTTP ${status} without a Location; not followed.`, status);
  if (target.origin !== originOf(from))
    throw new RedirectError(
      `${label}: HTTP ${status} redirects to another origin, ${target.origin}; API calls never follow a redirect to another origin (the key and the input would go there). Set baseUrl to the service's own address.`,
      status,
      target.origin,
    );
  if (REDIRECTS.get(status) === "becomes-get" && method !== "GET")
    throw new RedirectError(
      `${label}: HTTP ${status} would turn the ${method} into a GET; not followed (a ${method} is only re-sent on 307/308).`,
      status,
      target.origin,
    );
  if (hops >= MAX_REDIRECTS)
    throw new RedirectError(`${label}: more than ${MAX_REDIRECTS} redirects in a row; not followed.`, status);
  return target.href;
}

/**
 * Sends one request with the retry policy, within `limits`; the URL in any error has lost its
 * query string (QueueClientError redacts every message).
 */
export async function exchange(
  fetchImpl: FetchLike,
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignalLike | undefined },
  retry: RetryOptions,
  limits: ExchangeLimits,
): Promise<Exchange> {
  const label = `${init.method} ${url}`;
  const deadline = newAbortController();
  const timer = Number.isFinite(limits.timeoutMs) ? setTimer(() => deadline.abort(), limits.timeoutMs) : undefined;
  const signal = init.signal === undefined ? deadline.signal : anySignal([init.signal, deadline.signal]);
  try {
    return await attempts(fetchImpl, url, { ...init, signal }, retry, limits.maxResponseBytes, label);
  } catch (error) {
    if (deadline.signal.aborted && !init.signal?.aborted)
      throw new RequestTimeoutError(
        `${label}: no complete answer within ${limits.timeoutMs} ms (timeoutMs, retries included)${init.method === "POST" ? "; the service may have accepted the submit" : ""}`,
        limits.timeoutMs,
      );
    if (init.signal?.aborted) throw abortError(init.signal);
    throw error;
  } finally {
    if (timer !== undefined) clearTimer(timer);
  }
}

async function attempts(
  fetchImpl: FetchLike,
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; signal: AbortSignalLike },
  retry: RetryOptions,
  maxBytes: number,
  label: string,
): Promise<Exchange> {
  const signal = init.signal;
  const isSubmit = init.method === "POST";
  const retries = retry.retries ?? 3;
  const base = retry.baseDelayMs ?? 250;
  const max = retry.maxDelayMs ?? 20_000;
  const always = !isSubmit || retry.submit === "always";
  for (let attempt = 0; ; attempt++) {
    if (signal.aborted) throw abortError(signal);
    let response: ResponseLike;
    try {
      response = await send(fetchImpl, url, init, label);
    } catch (error) {
      if (error instanceof RedirectError) throw error;
      if (signal.aborted || (error as { name?: string }).name === "AbortError") throw abortError(signal);
      const mayRetry = always || refusedBeforeSending(error);
      if (!mayRetry || attempt >= retries)
        throw new EdgeError(
          `${label}: no answer (${networkCode(error)})${isSubmit && !mayRetry ? '; not retried, since the service may have accepted the submit (set retry.submit to "always" to retry anyway)' : ""}`,
          0,
          "",
        );
      await sleep(Math.min(max, Math.random() * base * 2 ** attempt), signal);
      continue;
    }
    const mayRetry = RETRY_STATUS.has(response.status) && (always || response.status === 429);
    if (mayRetry && attempt < retries) {
      discard(response);
      const after = retryAfterMs(response.headers.get("retry-after"));
      await sleep(Math.min(max, after ?? Math.random() * base * 2 ** attempt), signal);
      continue;
    }
    let text: string;
    try {
      text = await readBody(response, maxBytes, signal, label);
    } catch (error) {
      if (error instanceof ResponseTooLargeError) throw error;
      if (signal.aborted) throw abortError(signal);
      throw new EdgeError(`${label}: the connection dropped mid-body (${networkCode(error)})`, response.status, "");
    }
    return { status: response.status, headers: response.headers, text };
  }
}

/** One request and the same-origin, same-method redirects after it (`redirect: "manual"`). */
async function send(
  fetchImpl: FetchLike,
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; signal: AbortSignalLike },
  label: string,
): Promise<ResponseLike> {
  let target = url;
  for (let hops = 0; ; hops++) {
    const request: FetchInit = {
      method: init.method,
      headers: init.headers,
      ...(init.body === undefined ? {} : { body: init.body }),
      redirect: "manual",
      signal: init.signal,
    };
    const response = await untilAborted(fetchImpl(newRequest(target, request), request), init.signal);
    if (!REDIRECTS.has(response.status) && response.type !== "opaqueredirect") return response;
    discard(response);
    target = redirectTarget(response, target, init.method, hops, label);
  }
}
