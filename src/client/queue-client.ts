/** The queue client: submit, status, result, cancel and subscribe on the wire of docs/queue.md (spec 6.3, 7.3). */
import {
  DEFAULT_QUEUE_PATHS,
  fillPath,
  readPrediction,
  readQueueStatus,
  readResultResponse,
  redactUrl,
  toPredictionFailedError,
  type PredictionError,
  type PredictionFailedError,
  type PredictionStatus,
  type QueuePaths,
} from "../runtime/index.js";
import {
  abortError,
  ApiRequestError,
  EdgeError,
  PredictionCancelledError,
  RequestValidationError,
  ResultNotReadyError,
  SubscribeTimeoutError,
  type Diagnostic,
} from "./errors.js";
import {
  anySignal,
  clearTimer,
  globalFetch,
  newAbortController,
  setTimer,
  type AbortSignalLike,
  type FetchLike,
} from "./platform.js";
import { scrubSecrets, scrubText } from "./secrets.js";
import {
  bound,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_TIMEOUT_MS,
  exchange,
  sleep,
  type Exchange,
  type RetryOptions,
} from "./transport.js";

/** What the client needs of a generated registry entry (`endpoints` of the generated index). */
/** The wait between two status polls of `subscribe` and `wait`, unless `pollIntervalMs` says otherwise: fixed, no backoff. */
export const DEFAULT_POLL_INTERVAL_MS = 1000;

export interface ClientEndpoint {
  /** `/v1/queue/<owner>/<name>/<endpoint>` (spec 4.1) */
  path: string;
  /**
   * the generated validator: schema and cross-field rules; a promise of its diagnostics where the
   * validator is loaded on first use (the generated `createClient` imports each endpoint's own then)
   */
  validate(input: unknown): readonly Diagnostic[] | PromiseLike<readonly Diagnostic[]>;
}

/**
 * Checks the files an input references (the package's `preflight`): its diagnostics, among them
 * `input-fetch-failed` with reason `input_fetch_failed` and its `retryable` (spec 7.2).
 */
export type PreflightCheck = (key: string, input: unknown) => PromiseLike<readonly Diagnostic[]>;

/** Input and output type per endpoint key (the generated `EndpointTypeMap`). */
export type TypeMap<M> = { [K in keyof M]: { input: unknown; output: unknown } };

/** Paths the spec does not show (4.7): the runtime's docs/queue.md defaults. */
export type ClientPaths = QueuePaths;
export const DEFAULT_CLIENT_PATHS: Readonly<ClientPaths> = DEFAULT_QUEUE_PATHS;

export interface QueueClientOptions<M extends TypeMap<M>> {
  /** `{base_url}` of the spec, e.g. `https://api.example.com` */
  baseUrl: string;
  /** the API key, or a function returning it (called per request, so keys can rotate) */
  credentials: string | (() => string | Promise<string>);
  /** the generated registry, keyed by `<owner>/<name>/<endpoint>` */
  endpoints: { readonly [K in keyof M]: ClientEndpoint };
  /** the platform's global `fetch` by default; any `fetch` fits (DOM, Node, edge runtimes) */
  fetch?: FetchLike;
  retry?: RetryOptions;
  /**
   * the deadline of each call (`submit`, `status`, `result`, `cancel`, `getPrediction`, and each
   * request `subscribe` makes), retries and body included, in ms: default {@link DEFAULT_TIMEOUT_MS}
   * (60 000); `Infinity` for none; a call's own `timeoutMs` wins
   */
  requestTimeoutMs?: number;
  /** the most bytes of any one answer read: default {@link DEFAULT_MAX_RESPONSE_BYTES} (10 MiB) */
  maxResponseBytes?: number;
  /** default interval between status polls in `subscribe` and `wait` (ms, default {@link DEFAULT_POLL_INTERVAL_MS}: 1 s) */
  pollIntervalMs?: number;
  /** validate inputs before submitting (default true) */
  validate?: boolean;
  /**
   * the preflight `submit(key, { input, preflight: true })` runs before sending (issue 26,
   * docs/preflight.md): pass the package's `preflight` (`import { preflight } from
   * "video-schema-kit"`), or bind its options: `(key, input) => preflight(key, input, { allowHosts })`.
   * Given, not imported: the client (and its generated copy) stays free of node-only media parsers.
   */
  preflight?: PreflightCheck;
  /** the paths the spec does not show */
  paths?: Partial<ClientPaths>;
}

export interface Submitted {
  requestId: string;
  statusUrl: string;
  responseUrl: string;
  cancelUrl: string;
}

export interface QueueStatus {
  requestId: string;
  /** the status as sent: one of spec 3's five, or another value carried through (open set) */
  status: PredictionStatus;
  queuePosition?: number;
  logs?: unknown[];
  /** the failure, read by the runtime (null ≡ `{}`, open sets; spec 7.2, 9.2) */
  error: PredictionError | null;
}

/** What every call takes. */
export interface CallOptions {
  signal?: AbortSignalLike;
  /** this call's deadline in ms, retries and body included (default: the client's `requestTimeoutMs`) */
  timeoutMs?: number;
  /**
   * headers added to this call's requests (e.g. the mock's `Prefer: outcome=failed`); the
   * client's own `authorization`, `accept` and `content-type` cannot be replaced
   */
  headers?: Readonly<Record<string, string>>;
}

/** How `wait` (and `subscribe` after its submit) follows a prediction to its end. */
export interface WaitOptions {
  signal?: AbortSignalLike;
  /** headers added to every request (submit, polls, result) */
  headers?: Readonly<Record<string, string>>;
  /**
   * give up (SubscribeTimeoutError) after this many ms, counted from the start: for `subscribe`
   * the submit, the polls and the result all fall within it; the prediction may still finish
   * (no default: each request has the client's `requestTimeoutMs`)
   */
  timeoutMs?: number;
  /** on giving up at `timeoutMs`, cancel the prediction (best effort; the error's `cancelled` says whether it was) */
  cancelOnTimeout?: boolean;
  pollIntervalMs?: number;
  onQueueUpdate?: (update: QueueStatus) => void;
  logs?: boolean;
}

export interface SubscribeOptions<I> extends WaitOptions {
  input: I;
  webhookUrl?: string;
  /** run the client's `preflight` on the input before sending (see `submit`) */
  preflight?: boolean;
}

const FINAL = new Set(["succeeded", "failed", "cancelled"]);

/** The start of a body for a message: one line, at most 200 characters, URLs redacted by the error. */
function clipLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

export interface QueueClient<M extends TypeMap<M>> {
  submit<K extends keyof M & string>(
    key: K,
    options: {
      input: M[K]["input"];
      webhookUrl?: string;
      /**
       * check the files the input references first, with the client's `preflight` option: any error
       * throws `RequestValidationError` with its diagnostics before anything is sent (issue 26)
       */
      preflight?: boolean;
    } & CallOptions,
  ): Promise<Submitted>;
  status<K extends keyof M & string>(
    key: K,
    requestId: string,
    options?: { logs?: boolean } & CallOptions,
  ): Promise<QueueStatus>;
  result<K extends keyof M & string>(key: K, requestId: string, options?: CallOptions): Promise<M[K]["output"]>;
  subscribe<K extends keyof M & string>(key: K, options: SubscribeOptions<M[K]["input"]>): Promise<M[K]["output"]>;
  /**
   * Follows a prediction submitted elsewhere (a server submits, a worker waits) to its end:
   * `subscribe` without the submit, with the same polls, errors and options.
   */
  wait<K extends keyof M & string>(key: K, requestId: string, options?: WaitOptions): Promise<M[K]["output"]>;
  cancel<K extends keyof M & string>(key: K, requestId: string, options?: CallOptions): Promise<void>;
  getPrediction(
    id: string,
    options?: CallOptions,
  ): Promise<{ id: string; status: PredictionStatus; error: PredictionError | null }>;
}

export function createQueueClient<M extends TypeMap<M>>(options: QueueClientOptions<M>): QueueClient<M> {
  const fetchImpl = options.fetch ?? globalFetch();
  const base = options.baseUrl.replace(/\/+$/, "");
  const paths = { ...DEFAULT_CLIENT_PATHS, ...options.paths };
  const retry = options.retry ?? {};
  const endpoints = options.endpoints as Readonly<Record<string, ClientEndpoint>>;
  const requestTimeoutMs = bound("requestTimeoutMs", options.requestTimeoutMs, DEFAULT_TIMEOUT_MS, true);
  const maxResponseBytes = bound("maxResponseBytes", options.maxResponseBytes, DEFAULT_MAX_RESPONSE_BYTES, false);

  /** Every key sent so far (credentials may rotate): none may appear in an error a caller sees. */
  const keysSent = new Set<string>();
  async function headers(json: boolean, extra: Readonly<Record<string, string>> = {}): Promise<Record<string, string>> {
    const key = typeof options.credentials === "function" ? await options.credentials() : options.credentials;
    if (key.length >= 4) keysSent.add(key);
    const added: Record<string, string> = {};
    for (const [name, value] of Object.entries(extra)) added[name.toLowerCase()] = value;
    // spec 5: Authorization: Key <API_KEY>, with every request
    return {
      ...added,
      authorization: `Key ${key}`,
      accept: "application/json",
      ...(json ? { "content-type": "application/json" } : {}),
    };
  }

  /** A body's start for an error: keys removed before it is cut, so no part of one survives the cut. */
  const snippet = (text: string): string => clipLine(scrubText(text, keysSent));

  function endpointOf(key: string): { entry: ClientEndpoint; owner: string; name: string } {
    const entry = Object.hasOwn(endpoints, key) ? endpoints[key] : undefined;
    if (entry === undefined)
      throw new TypeError(`unknown endpoint ${JSON.stringify(key)}; known: ${Object.keys(endpoints).join(", ")}`);
    const [owner = "", name = ""] = key.split("/");
    return { entry, owner, name };
  }

  /** One exchange within the call's deadline and the client's body cap (transport.ts). */
  async function call(
    method: string,
    url: string,
    { signal, timeoutMs, headers: extra }: CallOptions,
    body?: string,
  ): Promise<Exchange> {
    const limits = { timeoutMs: bound("timeoutMs", timeoutMs, requestTimeoutMs, true), maxResponseBytes };
    return exchange(
      fetchImpl,
      url,
      { method, headers: await headers(body !== undefined, extra), ...(body === undefined ? {} : { body }), signal },
      retry,
      limits,
    );
  }

  /** Any non-2xx JSON answer as an ApiRequestError, anything not JSON as an EdgeError (spec 7.3). */
  function failure(what: string, url: string, answer: Exchange, requestId?: string): Error {
    let parsed: unknown;
    try {
      parsed = JSON.parse(answer.text);
    } catch {
      return new EdgeError(
        `${what}: HTTP ${answer.status} from ${redactUrl(url)} is not JSON, so it came from in front of the service (spec 7.3)`,
        answer.status,
        snippet(answer.text),
        requestId,
      );
    }
    const error = (parsed as { error?: { code?: unknown; message?: unknown } } | null)?.error;
    if (typeof error !== "object" || error === null)
      return new EdgeError(
        `${what}: HTTP ${answer.status} without an error object (spec 7.3)`,
        answer.status,
        snippet(answer.text),
        requestId,
      );
    const code = typeof error.code === "string" ? error.code : undefined;
    const message = typeof error.message === "string" ? error.message : "no message";
    return new ApiRequestError(
      `${what}: HTTP ${answer.status}${code ? ` ${code}` : ""}: ${message}`,
      answer.status,
      code,
      requestId,
    );
  }

  function parseJson(what: string, url: string, answer: Exchange, requestId?: string): Record<string, unknown> {
    try {
      const value: unknown = JSON.parse(answer.text);
      if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // fall through
    }
    throw new EdgeError(
      `${what}: the answer from ${redactUrl(url)} is not a JSON object`,
      answer.status,
      snippet(answer.text),
      requestId,
    );
  }

  /** Every error a caller sees leaves here: no key sent in any string it carries (secrets.ts). */
  function scrub(error: unknown): never {
    throw scrubSecrets(error, keysSent);
  }

  /**
   * Submits (for `subscribe`) or takes the given request id (for `wait`), then polls to a final
   * status and reads the result. One signal for abort and timeout, started before the submit
   * (issue 23.9), so a pending submit, poll or wait stops at once.
   */
  async function follow(
    key: keyof M & string,
    { signal, headers: extra, timeoutMs, cancelOnTimeout, pollIntervalMs, onQueueUpdate, logs }: WaitOptions,
    start: string | { input: unknown; webhookUrl: string | undefined; preflight: boolean | undefined },
  ): Promise<unknown> {
    if (timeoutMs !== undefined) bound("timeoutMs", timeoutMs, 0, true);
    const deadline = timeoutMs === undefined ? undefined : Date.now() + timeoutMs;
    const interval = pollIntervalMs ?? options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    const timeout = newAbortController();
    const timer =
      timeoutMs === undefined || !Number.isFinite(timeoutMs) ? undefined : setTimer(() => timeout.abort(), timeoutMs);
    const combined = signal === undefined ? timeout.signal : anySignal([signal, timeout.signal]);
    const each = { signal: combined, ...(extra === undefined ? {} : { headers: extra }) };
    let requestId = typeof start === "string" ? start : undefined;
    /** The timeout, after the cancel `cancelOnTimeout` asks for (its own deadline, not the expired signal). */
    const timedOut = async (): Promise<never> => {
      let cancelled = false;
      if (cancelOnTimeout === true && requestId !== undefined)
        cancelled = await client.cancel(key, requestId, extra === undefined ? {} : { headers: extra }).then(
          () => true,
          () => false,
        );
      throw new SubscribeTimeoutError(requestId, timeoutMs ?? 0, cancelled);
    };
    const rethrow = async (error: unknown): Promise<never> => {
      if (signal?.aborted) throw abortError(signal);
      if (timeout.signal.aborted) return timedOut();
      throw error;
    };
    try {
      if (typeof start !== "string")
        ({ requestId } = await client
          .submit(key, {
            input: start.input,
            ...(start.webhookUrl === undefined ? {} : { webhookUrl: start.webhookUrl }),
            ...(start.preflight === undefined ? {} : { preflight: start.preflight }),
            ...each,
          })
          .catch(rethrow));
      const id = requestId!;
      for (;;) {
        const update = await client.status(key, id, { ...(logs ? { logs } : {}), ...each }).catch(rethrow);
        onQueueUpdate?.(update);
        if (FINAL.has(update.status)) {
          if (update.status === "cancelled") throw new PredictionCancelledError(id);
          try {
            return await client.result(key, id, each);
          } catch (error) {
            // the result endpoint decides (spec 7.3); only when it gives no reading of the
            // failure does the status's own error stand in, read by the same runtime
            if (update.status === "failed" && update.error !== null && error instanceof EdgeError)
              throw withRequestId(toPredictionFailedError(update.error), id);
            return rethrow(error);
          }
        }
        if (deadline !== undefined && Date.now() >= deadline) return timedOut();
        await sleep(interval, combined).catch(rethrow);
      }
    } finally {
      if (timer !== undefined) clearTimer(timer);
    }
  }

  const client: QueueClient<M> = {
    async submit(key, { input, webhookUrl, preflight, ...callOptions }) {
      const { entry, owner, name } = endpointOf(key);
      if (options.validate !== false) {
        const diagnostics = await entry.validate(input);
        if (diagnostics.some((d) => d.severity === "error")) throw new RequestValidationError(key, diagnostics);
      }
      if (preflight === true) {
        // issue 26: the referenced files, fetched as the service will, before anything is sent
        if (options.preflight === undefined)
          throw new TypeError(
            `submit ${key}: preflight: true needs the client's preflight option (import { preflight } from "video-schema-kit"; docs/client.md)`,
          );
        const diagnostics = await options.preflight(key, input);
        if (diagnostics.some((d) => d.severity === "error")) throw new RequestValidationError(key, diagnostics);
      }
      const url = `${base}${entry.path}${webhookUrl === undefined ? "" : `?webhook=${encodeURIComponent(webhookUrl)}`}`;
      const answer = await call("POST", url, callOptions, JSON.stringify(input));
      if (answer.status < 200 || answer.status >= 300) throw failure(`submit ${key}`, url, answer);
      const ack = parseJson(`submit ${key}`, url, answer);
      const requestId = ack.request_id;
      if (typeof requestId !== "string" || requestId === "")
        throw new EdgeError(
          `submit ${key}: the acknowledgement carries no request_id`,
          answer.status,
          snippet(answer.text),
        );
      const ids = { owner, name, id: requestId };
      const given = (field: string, fallback: string) =>
        typeof ack[field] === "string" ? (ack[field] as string) : fallback;
      return {
        requestId,
        statusUrl: given("status_url", base + fillPath(paths.status, ids)),
        responseUrl: given("response_url", base + fillPath(paths.result, ids)),
        cancelUrl: given("cancel_url", base + fillPath(paths.cancel, ids)),
      };
    },

    async status(key, requestId, { logs, ...callOptions } = {}) {
      const { owner, name } = endpointOf(key);
      const url = base + fillPath(paths.status, { owner, name, id: requestId }) + (logs ? "?logs=1" : "");
      const answer = await call("GET", url, callOptions);
      if (answer.status < 200 || answer.status >= 300) throw failure(`status of ${requestId}`, url, answer, requestId);
      const body = parseJson(`status of ${requestId}`, url, answer, requestId);
      const reading = readQueueStatus(body);
      return {
        requestId: typeof body.request_id === "string" ? body.request_id : requestId,
        status: reading.status,
        ...(typeof body.queue_position === "number" ? { queuePosition: body.queue_position } : {}),
        ...(Array.isArray(body.logs) ? { logs: body.logs } : {}),
        error: reading.error,
      };
    },

    async result(key, requestId, callOptions = {}) {
      const { owner, name } = endpointOf(key);
      const url = base + fillPath(paths.result, { owner, name, id: requestId });
      const answer = await call("GET", url, callOptions);
      const reading = readResultResponse({ status: answer.status, body: answer.text });
      switch (reading.kind) {
        case "output":
          return reading.output as M[typeof key]["output"];
        case "prediction_failed":
          // spec 7.3: code, reason and retryable equal the prediction's own
          throw withRequestId(toPredictionFailedError(reading.error), requestId);
        case "api_error":
          if (reading.status === 400)
            throw new ResultNotReadyError(
              `result of ${requestId}: not available (${reading.code ?? "HTTP 400"}: ${reading.message ?? "no message"}); the prediction is queued, running or cancelled (spec 3 rule 4)`,
              requestId,
              reading.code,
            );
          throw failure(`result of ${requestId}`, url, answer, requestId);
        case "edge_error":
          throw new EdgeError(
            `result of ${requestId}: HTTP ${reading.status} did not come from the service (spec 7.3)`,
            reading.status,
            snippet(reading.bodyText),
            requestId,
          );
      }
    },

    subscribe(key, { input, webhookUrl, preflight, ...waitOptions }) {
      return follow(key, waitOptions, { input, webhookUrl, preflight });
    },

    wait(key, requestId, waitOptions = {}) {
      if (typeof requestId !== "string" || requestId === "")
        return Promise.reject(
          new TypeError(`wait(${JSON.stringify(key)}, requestId): requestId must be a non-empty string`),
        );
      return follow(key, waitOptions, requestId);
    },

    async cancel(key, requestId, callOptions = {}) {
      const { owner, name } = endpointOf(key);
      const url = base + fillPath(paths.cancel, { owner, name, id: requestId });
      const answer = await call("PUT", url, callOptions);
      if (answer.status < 200 || answer.status >= 300) throw failure(`cancel ${requestId}`, url, answer, requestId);
    },

    async getPrediction(id, callOptions = {}) {
      const url = base + fillPath(paths.prediction, { id });
      const answer = await call("GET", url, callOptions);
      if (answer.status < 200 || answer.status >= 300) throw failure(`prediction ${id}`, url, answer, id);
      const body = parseJson(`prediction ${id}`, url, answer, id);
      const reading = readPrediction(body);
      return { id: typeof body.id === "string" ? body.id : id, status: reading.status, error: reading.error };
    },
  };
  const guarded = {} as Record<string, unknown>;
  for (const [name, method] of Object.entries(client))
    guarded[name] = (...args: unknown[]) => (method as (...a: unknown[]) => Promise<unknown>)(...args).catch(scrub);
  return guarded as unknown as QueueClient<M>;
}

/** The runtime's PredictionFailedError with the request id it belongs to (quote it to support). */
function withRequestId(error: PredictionFailedError, requestId: string): PredictionFailedError & { requestId: string } {
  return Object.assign(error, { requestId });
}
