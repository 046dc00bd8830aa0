/**
 * When to try again and how long to wait. Retried: 5xx, 408, 429, timeouts, connection
 * resets and DNS failures, the "momentarily unreachable" cases of spec 7.2 (input_fetch_failed
 * rule 2); never another 4xx (rule 1: the host rejected the fetch).
 */

/** Network error codes worth a retry, with the words a person reads. */
export const TRANSIENT_ERRORS: Readonly<Record<string, string>> = {
  UND_ERR_CONNECT_TIMEOUT: "connect timeout",
  UND_ERR_HEADERS_TIMEOUT: "no response headers before the timeout",
  UND_ERR_BODY_TIMEOUT: "the body stalled past the timeout",
  UND_ERR_SOCKET: "the connection was closed by the other side",
  ECONNRESET: "connection reset",
  ECONNREFUSED: "connection refused",
  EPIPE: "connection closed while sending",
  ETIMEDOUT: "connection timed out",
  ENETUNREACH: "network unreachable",
  EHOSTUNREACH: "host unreachable",
  ENOTFOUND: "DNS lookup failed (host not found)",
  EAI_AGAIN: "DNS lookup failed (temporary)",
};

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status <= 599);
}

/** The first `code` found on an error or its `cause` chain. */
export function errorCode(error: unknown): string | undefined {
  for (
    let e = error, depth = 0;
    e !== null && typeof e === "object" && depth < 5;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
  }
  return undefined;
}

/** `Retry-After` as milliseconds: delta-seconds or an HTTP date (RFC 9110 10.2.3). */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * Wait before retry number `retry` (0-based): exponential backoff with jitter (half fixed,
 * half random), at least what the server asked for in `Retry-After`, never more than `maxMs`.
 */
export function retryDelay(
  retry: number,
  baseMs: number,
  maxMs: number,
  retryAfterMs?: number,
  random: () => number = Math.random,
): number {
  const exponential = baseMs * 2 ** retry;
  const jittered = exponential / 2 + random() * (exponential / 2);
  return Math.round(Math.min(maxMs, Math.max(jittered, retryAfterMs ?? 0)));
}
