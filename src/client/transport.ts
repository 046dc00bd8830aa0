/**
 * One HTTP exchange with retries, on `fetch` only (Node, browsers, edge runtimes). A GET is
 * retried on 429/502/503/504 and on network errors, with exponential backoff, jitter and
 * `Retry-After`. A submit (POST) creates a billed prediction: it is retried only where the
 * request surely was not accepted (429, a connection refused before anything was sent), never
 * after a 5xx or a dropped connection, unless the caller opts in (QUEUE.md).
 */
import { abortError, EdgeError } from "./errors.js";
import {
  clearTimer,
  setTimer,
  type AbortSignalLike,
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

const RETRY_STATUS = new Set([429, 502, 503, 504]);

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

/** Sends one request with the retry policy; the URL in any error has lost its query string. */
export async function exchange(
  fetchImpl: FetchLike,
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignalLike | undefined },
  retry: RetryOptions,
): Promise<Exchange> {
  const isSubmit = init.method === "POST";
  const retries = retry.retries ?? 3;
  const base = retry.baseDelayMs ?? 250;
  const max = retry.maxDelayMs ?? 20_000;
  const always = !isSubmit || retry.submit === "always";
  for (let attempt = 0; ; attempt++) {
    if (init.signal?.aborted) throw abortError(init.signal);
    let response: ResponseLike;
    try {
      response = await fetchImpl(url, {
        method: init.method,
        headers: init.headers,
        ...(init.body === undefined ? {} : { body: init.body }),
        ...(init.signal === undefined ? {} : { signal: init.signal }),
      });
    } catch (error) {
      if (init.signal?.aborted || (error as { name?: string }).name === "AbortError") throw abortError(init.signal);
      const mayRetry = always || refusedBeforeSending(error);
      if (!mayRetry || attempt >= retries)
        throw new EdgeError(
          `${init.method} ${url}: no answer (${networkCode(error)})${isSubmit && !mayRetry ? '; not retried, since the service may have accepted the submit (set retry.submit to "always" to retry anyway)' : ""}`,
          0,
          "",
        );
      await sleep(Math.min(max, Math.random() * base * 2 ** attempt), init.signal);
      continue;
    }
    const mayRetry = RETRY_STATUS.has(response.status) && (always || response.status === 429);
    if (mayRetry && attempt < retries) {
      await response.arrayBuffer().catch(() => undefined);
      const after = retryAfterMs(response.headers.get("retry-after"));
      await sleep(Math.min(max, after ?? Math.random() * base * 2 ** attempt), init.signal);
      continue;
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      if (init.signal?.aborted) throw abortError(init.signal);
      throw new EdgeError(
        `${init.method} ${url}: the connection dropped mid-body (${networkCode(error)})`,
        response.status,
        "",
      );
    }
    return { status: response.status, headers: response.headers, text };
  }
}
