/**
 * One schema over HTTP(S) with undici: timeouts, bounded retries, a body-size cap, and
 * redirects followed by hand so that `Authorization` (spec 5) never reaches another origin.
 * Behind a proxy: `HTTPS_PROXY` / `HTTP_PROXY` / `NO_PROXY` (either case) are honoured through
 * undici's `EnvHttpProxyAgent`, which connects directly when none is set or the host is excluded.
 */
import { STATUS_CODES } from "node:http";
import type { Dispatcher } from "undici";

/** undici, loaded on the first HTTP request: a command that reads a local directory never pays its ~100 ms start. */
let undici: Promise<typeof import("undici")> | undefined;
const loadUndici = (): Promise<typeof import("undici")> => (undici ??= import("undici"));
import type { ResolvedFetchOptions } from "./options.js";
import { redactUrl } from "./redact.js";
import { TRANSIENT_ERRORS, errorCode, isRetryableStatus, parseRetryAfter, retryDelay } from "./retry.js";

export interface HttpBody {
  status: number;
  contentType: string;
  text: string;
  attempts: number;
}

/** Why one attempt failed; becomes a `FetchError` once the retries are spent. */
export interface HttpFailure {
  problem: string;
  status?: number;
  retryable: boolean;
  retryAfterMs?: number;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Drops a body we will not read; undici reports the abort as an error event, expected here. */
function discard(body: NodeJS.ReadableStream & { destroy(): void }): void {
  body.on("error", () => {});
  body.destroy();
}

function statusLine(status: number): string {
  return `HTTP ${status} ${STATUS_CODES[status] ?? ""}`.trimEnd();
}

/** Which setting a timeout error ran into, so the message can say how long was waited. */
const TIMEOUT_SETTING: Readonly<Record<string, "connectTimeoutMs" | "headersTimeoutMs" | "bodyTimeoutMs">> = {
  UND_ERR_CONNECT_TIMEOUT: "connectTimeoutMs",
  UND_ERR_HEADERS_TIMEOUT: "headersTimeoutMs",
  UND_ERR_BODY_TIMEOUT: "bodyTimeoutMs",
};

function networkFailure(error: unknown, o: ResolvedFetchOptions): HttpFailure {
  const code = errorCode(error) ?? "";
  const words = TRANSIENT_ERRORS[code];
  if (words === undefined) return { problem: error instanceof Error ? error.message : String(error), retryable: false };
  const setting = TIMEOUT_SETTING[code];
  const limit = setting === undefined ? undefined : o[setting];
  return { problem: `${words}${limit === undefined ? "" : ` (${limit} ms)`} [${code}]`, retryable: true };
}

/** The failure of a fetch that ran past its overall deadline: not retried, the deadline is spent. */
function pastDeadline(o: ResolvedFetchOptions): HttpFailure {
  return {
    problem: `timed out: no complete answer within the ${o.deadlineMs / 1000} s deadline (--timeout or VSK_FETCH_TIMEOUT); the server is too slow or stalls [DEADLINE]`,
    retryable: false,
  };
}

/** One attempt: follows up to `maxRedirects` redirects, then reads a capped body; stops when `signal` aborts. */
async function attempt(
  agent: Dispatcher,
  url: string,
  o: ResolvedFetchOptions,
  signal: AbortSignal,
): Promise<Omit<HttpBody, "attempts"> | HttpFailure> {
  const { request } = await loadUndici();
  const origin = new URL(url).origin;
  let current = url;
  for (let redirects = 0; ; redirects++) {
    const headers: Record<string, string> = { accept: "application/json", "user-agent": "video-schema-kit" };
    if (o.apiKey !== undefined && new URL(current).origin === origin) headers.authorization = `Key ${o.apiKey}`;
    let response;
    try {
      response = await request(current, {
        dispatcher: agent,
        method: "GET",
        headers,
        headersTimeout: o.headersTimeoutMs,
        bodyTimeout: o.bodyTimeoutMs,
        signal,
      });
    } catch (error) {
      return signal.aborted ? pastDeadline(o) : networkFailure(error, o);
    }
    const { statusCode: status, headers: got, body } = response;
    const via = current === url ? "" : ` (after a redirect to ${redactUrl(current)})`;

    if (REDIRECTS.has(status)) {
      discard(body);
      const location = header(got, "location");
      if (location === undefined)
        return { problem: `${statusLine(status)} without a Location header`, status, retryable: false };
      if (redirects >= o.maxRedirects)
        return { problem: `more than ${o.maxRedirects} redirects`, status, retryable: false };
      let next: URL;
      try {
        next = new URL(location, current);
      } catch {
        // Not echoed: a Location that does not parse cannot be redacted reliably.
        return {
          problem: `${statusLine(status)}${via}: redirect with an invalid Location header`,
          status,
          retryable: false,
        };
      }
      if (next.protocol !== "http:" && next.protocol !== "https:") {
        return {
          problem: `redirect to ${redactUrl(next.href)} refused: only http(s) is followed`,
          status,
          retryable: false,
        };
      }
      current = next.href;
      continue;
    }

    const contentType = header(got, "content-type") ?? "no content-type";
    if (status < 200 || status > 299) {
      discard(body);
      // Spec 7.3: a service error is always JSON; a plain-text or HTML 5xx came from in front of it.
      const edge =
        status >= 500 && !/json/i.test(contentType)
          ? `; the body is ${contentType}, not JSON: likely a CDN edge or proxy in front of the schema host`
          : "";
      const retryAfterMs = parseRetryAfter(header(got, "retry-after"));
      return {
        problem: statusLine(status) + via + edge,
        status,
        retryable: isRetryableStatus(status),
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      };
    }

    const tooBig = `the body is larger than the ${o.maxBytes}-byte limit (VSK_FETCH_MAX_BYTES); download aborted${via}`;
    if (Number(header(got, "content-length") ?? 0) > o.maxBytes) {
      discard(body);
      return { problem: tooBig, status, retryable: false };
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of body) {
        size += (chunk as Buffer).length;
        if (size > o.maxBytes) {
          discard(body);
          return { problem: tooBig, status, retryable: false };
        }
        chunks.push(chunk as Buffer);
      }
    } catch (error) {
      return signal.aborted ? pastDeadline(o) : networkFailure(error, o);
    }
    return { status, contentType, text: Buffer.concat(chunks).toString("utf8") };
  }
}

/**
 * GETs `url` with up to `o.retries` retries on momentary failures, all within `o.deadlineMs`.
 * Returns the body of a 2xx answer, or the last failure with the number of attempts made.
 */
export async function httpGet(
  model: string,
  url: string,
  o: ResolvedFetchOptions,
): Promise<HttpBody | (HttpFailure & { attempts: number })> {
  const { EnvHttpProxyAgent } = await loadUndici();
  const agent = new EnvHttpProxyAgent({ connect: { timeout: o.connectTimeoutMs } });
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), o.deadlineMs);
  const expired = new Promise<void>((done) => deadline.signal.addEventListener("abort", () => done(), { once: true }));
  try {
    for (let n = 1; ; n++) {
      const outcome = await attempt(agent, url, o, deadline.signal);
      if ("text" in outcome) return { ...outcome, attempts: n };
      if (!outcome.retryable || n > o.retries) return { ...outcome, attempts: n };
      const delayMs = retryDelay(n - 1, o.retryBaseMs, o.retryMaxDelayMs, outcome.retryAfterMs, o.random);
      o.onRetry?.({ model, attempt: n, delayMs, problem: outcome.problem });
      await Promise.race([o.sleep(delayMs, deadline.signal), expired]);
      if (deadline.signal.aborted) return { ...pastDeadline(o), attempts: n };
    }
  } finally {
    clearTimeout(timer);
    await agent.destroy();
  }
}
