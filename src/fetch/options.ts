/**
 * Fetch settings: explicit options first, then the environment, then defaults.
 * Tests and CI tune them through the environment so the built CLI stays fast under faults.
 */
import { FetchUsageError } from "./errors.js";

export interface RetryEvent {
  model: string;
  /** the attempt that failed, 1-based */
  attempt: number;
  delayMs: number;
  problem: string;
}

export interface FetchOptions {
  /** where `VSK_API_KEY` and the `VSK_FETCH_*` / `VSK_RETRY_*` settings are read; default `process.env` */
  env?: Readonly<Record<string, string | undefined>>;
  connectTimeoutMs?: number;
  /** time allowed until the response headers arrive */
  headersTimeoutMs?: number;
  /** time the body may stay idle between two chunks */
  bodyTimeoutMs?: number;
  /**
   * overall deadline of one model's fetch, every attempt, redirect, wait and body byte included
   * (`--timeout SECONDS`, `VSK_FETCH_TIMEOUT`; default 60 s): a server that trickles a byte at a
   * time never resets it
   */
  deadlineMs?: number;
  /** retries after the first attempt (default 3) */
  retries?: number;
  retryBaseMs?: number;
  /** cap on any one wait, `Retry-After` included */
  retryMaxDelayMs?: number;
  /** body-size cap; a larger download is aborted (default 10 MB) */
  maxBytes?: number;
  maxRedirects?: number;
  random?: () => number;
  /** waits between attempts; resolves early when `signal` (the deadline) aborts */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  onRetry?: (event: RetryEvent) => void;
}

export type ResolvedFetchOptions = Required<Omit<FetchOptions, "env" | "onRetry">> &
  Pick<FetchOptions, "onRetry"> & { apiKey: string | undefined };

/** Environment variable → option, for the numeric settings. */
const FROM_ENV = {
  VSK_FETCH_TIMEOUT_MS: ["connectTimeoutMs", "headersTimeoutMs", "bodyTimeoutMs"],
  VSK_FETCH_RETRIES: ["retries"],
  VSK_RETRY_BASE_MS: ["retryBaseMs"],
  VSK_RETRY_MAX_DELAY_MS: ["retryMaxDelayMs"],
  VSK_FETCH_MAX_BYTES: ["maxBytes"],
} as const;

export const FETCH_DEFAULTS = {
  connectTimeoutMs: 10_000,
  headersTimeoutMs: 30_000,
  bodyTimeoutMs: 30_000,
  retries: 3,
  retryBaseMs: 500,
  retryMaxDelayMs: 30_000,
  maxBytes: 10 * 1024 * 1024,
  maxRedirects: 5,
  deadlineMs: 60_000,
} as const;

/**
 * `--timeout SECONDS` / `VSK_FETCH_TIMEOUT` as milliseconds: a positive number of seconds
 * (fractions allowed). `what` names the setting in the usage error.
 */
export function parseTimeoutSeconds(raw: string, what: string): number {
  const value = /^\s*\d+(\.\d+)?\s*$/.test(raw) ? Number(raw) : NaN;
  if (!(value > 0) || !Number.isFinite(value))
    throw new FetchUsageError(`${what} must be a number of seconds > 0, got "${raw.slice(0, 40)}"`);
  return Math.ceil(value * 1000);
}

export function resolveFetchOptions(options: FetchOptions = {}): ResolvedFetchOptions {
  const env = options.env ?? process.env;
  const numbers: Record<keyof typeof FETCH_DEFAULTS, number> = { ...FETCH_DEFAULTS };
  for (const [variable, keys] of Object.entries(FROM_ENV)) {
    const raw = env[variable];
    if (raw === undefined || raw.trim() === "") continue;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 0)
      throw new FetchUsageError(`${variable} must be a whole number >= 0, got "${raw}"`);
    for (const key of keys) numbers[key] = value;
  }
  const deadline = env.VSK_FETCH_TIMEOUT;
  if (deadline !== undefined && deadline.trim() !== "")
    numbers.deadlineMs = parseTimeoutSeconds(deadline, "VSK_FETCH_TIMEOUT");
  for (const key of Object.keys(FETCH_DEFAULTS) as Array<keyof typeof FETCH_DEFAULTS>) {
    const value = options[key];
    if (value !== undefined) numbers[key] = value;
  }
  const apiKey = env.VSK_API_KEY?.trim() || undefined;
  // Spec 5: "Authorization: Key <API_KEY>". Checked here so that no HTTP library error can echo it.
  if (apiKey !== undefined && !/^[\x21-\x7e]+$/.test(apiKey)) {
    throw new FetchUsageError(
      "VSK_API_KEY holds characters not allowed in an HTTP header (spaces, line breaks or non-ASCII)",
    );
  }
  return {
    ...numbers,
    apiKey,
    random: options.random ?? Math.random,
    sleep: options.sleep ?? sleepUnlessAborted,
    onRetry: options.onRetry,
  };
}

/** `setTimeout` as a promise that also resolves (and clears its timer) when `signal` aborts. */
function sleepUnlessAborted(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((done) => {
    const timer = setTimeout(finish, ms);
    signal?.addEventListener("abort", finish, { once: true });
    function finish(): void {
      clearTimeout(timer);
      signal?.removeEventListener("abort", finish);
      done();
    }
  });
}
