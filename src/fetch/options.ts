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
  /** retries after the first attempt (default 3) */
  retries?: number;
  retryBaseMs?: number;
  /** cap on any one wait, `Retry-After` included */
  retryMaxDelayMs?: number;
  /** body-size cap; a larger download is aborted (default 10 MB) */
  maxBytes?: number;
  maxRedirects?: number;
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
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
} as const;

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
    sleep: options.sleep ?? ((ms) => new Promise((done) => setTimeout(done, ms))),
    onRetry: options.onRetry,
  };
}
