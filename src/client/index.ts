/**
 * `video-schema-kit/client`: a typed queue client on the wire of QUEUE.md that validates before it
 * submits. `fetch` only, and the runtime's readers for every answer, so the same failure reads the
 * same from `result()` and `subscribe()` (spec 6.3, 7.3).
 *
 * @example
 * import { endpoints, type EndpointTypeMap } from "./generated/index.mjs";
 * const client = createQueueClient<EndpointTypeMap>({ baseUrl, credentials: () => process.env.API_KEY!, endpoints });
 * const output = await client.subscribe("example/model-c/text-to-video", { input: { prompt: "A paper boat" } });
 */
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
import { exchange, sleep, type Exchange, type RetryOptions } from "./transport.js";

export * from "./errors.js";
export { verifyWebhook, readWebhook, webhookKey, type WebhookRequest, type WebhookReading } from "./webhook.js";
export type { RetryOptions } from "./transport.js";
export type { AbortSignalLike, FetchInit, FetchLike, HeadersLike, ResponseLike } from "./platform.js";
export { PredictionFailedError } from "../runtime/index.js";

/** What the client needs of a generated registry entry (`endpoints` of the generated index). */
export interface ClientEndpoint {
  /** `/v1/queue/<owner>/<name>/<endpoint>` (spec 4.1) */
  path: string;
  /** the generated validator: schema and cross-field rules */
  validate(input: unknown): readonly Diagnostic[];
}

/** Input and output type per endpoint key (the generated `EndpointTypeMap`). */
export type TypeMap<M> = { [K in keyof M]: { input: unknown; output: unknown } };

/** Paths the spec does not show (4.7): the runtime's QUEUE.md defaults. */
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
  /** default interval between status polls in `subscribe` (ms, default 1000) */
  pollIntervalMs?: number;
  /** validate inputs before submitting (default true) */
  validate?: boolean;
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
  /** the status as sent (an open set: spec 6 does not show the queue's values) */
  status: string;
  queuePosition?: number;
  logs?: unknown[];
  /** the failure, read by the runtime (null ≡ `{}`, open sets; spec 7.2, 9.2) */
  error: PredictionError | null;
}

export interface SubscribeOptions<I> {
  input: I;
  signal?: AbortSignalLike;
  /** give up (SubscribeTimeoutError) after this many ms; the prediction may still finish */
  timeoutMs?: number;
  pollIntervalMs?: number;
  onQueueUpdate?: (update: QueueStatus) => void;
  logs?: boolean;
  webhookUrl?: string;
}

const FINAL = new Set(["succeeded", "failed", "cancelled"]);

/** The start of a body for a message: one line, at most 200 characters, URLs redacted by the error. */
function snippet(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

export interface QueueClient<M extends TypeMap<M>> {
  submit<K extends keyof M & string>(
    key: K,
    options: { input: M[K]["input"]; webhookUrl?: string; signal?: AbortSignalLike },
  ): Promise<Submitted>;
  status<K extends keyof M & string>(
    key: K,
    requestId: string,
    options?: { logs?: boolean; signal?: AbortSignalLike },
  ): Promise<QueueStatus>;
  result<K extends keyof M & string>(
    key: K,
    requestId: string,
    options?: { signal?: AbortSignalLike },
  ): Promise<M[K]["output"]>;
  subscribe<K extends keyof M & string>(key: K, options: SubscribeOptions<M[K]["input"]>): Promise<M[K]["output"]>;
  cancel<K extends keyof M & string>(key: K, requestId: string, options?: { signal?: AbortSignalLike }): Promise<void>;
  getPrediction(
    id: string,
    options?: { signal?: AbortSignalLike },
  ): Promise<{ id: string; status: string; error: PredictionError | null }>;
}

export function createQueueClient<M extends TypeMap<M>>(options: QueueClientOptions<M>): QueueClient<M> {
  const fetchImpl = options.fetch ?? globalFetch();
  const base = options.baseUrl.replace(/\/+$/, "");
  const paths = { ...DEFAULT_CLIENT_PATHS, ...options.paths };
  const retry = options.retry ?? {};
  const endpoints = options.endpoints as Readonly<Record<string, ClientEndpoint>>;

  /** Every key sent so far (credentials may rotate): none may appear in an error a caller sees. */
  const keysSent = new Set<string>();
  async function headers(json: boolean): Promise<Record<string, string>> {
    const key = typeof options.credentials === "function" ? await options.credentials() : options.credentials;
    if (key.length >= 4) keysSent.add(key);
    // spec 5: Authorization: Key <API_KEY>, with every request
    return {
      authorization: `Key ${key}`,
      accept: "application/json",
      ...(json ? { "content-type": "application/json" } : {}),
    };
  }

  function endpointOf(key: string): { entry: ClientEndpoint; owner: string; name: string } {
    const entry = Object.hasOwn(endpoints, key) ? endpoints[key] : undefined;
    if (entry === undefined)
      throw new TypeError(`unknown endpoint ${JSON.stringify(key)}; known: ${Object.keys(endpoints).join(", ")}`);
    const [owner = "", name = ""] = key.split("/");
    return { entry, owner, name };
  }

  async function call(
    method: string,
    url: string,
    signal: AbortSignalLike | undefined,
    body?: string,
  ): Promise<Exchange> {
    return exchange(
      fetchImpl,
      url,
      { method, headers: await headers(body !== undefined), ...(body === undefined ? {} : { body }), signal },
      retry,
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

  /** Removes any key sent from an error's message and stack (a server may echo what it got). */
  function scrub(error: unknown): never {
    if (error instanceof Error)
      for (const key of keysSent) {
        if (error.message.includes(key)) error.message = error.message.split(key).join("<redacted>");
        if (error.stack?.includes(key)) error.stack = error.stack.split(key).join("<redacted>");
      }
    throw error;
  }

  const client: QueueClient<M> = {
    async submit(key, { input, webhookUrl, signal }) {
      const { entry, owner, name } = endpointOf(key);
      if (options.validate !== false) {
        const diagnostics = entry.validate(input);
        if (diagnostics.some((d) => d.severity === "error")) throw new RequestValidationError(key, diagnostics);
      }
      const url = `${base}${entry.path}${webhookUrl === undefined ? "" : `?webhook=${encodeURIComponent(webhookUrl)}`}`;
      const answer = await call("POST", url, signal, JSON.stringify(input));
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

    async status(key, requestId, { logs, signal } = {}) {
      const { owner, name } = endpointOf(key);
      const url = base + fillPath(paths.status, { owner, name, id: requestId }) + (logs ? "?logs=1" : "");
      const answer = await call("GET", url, signal);
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

    async result(key, requestId, { signal } = {}) {
      const { owner, name } = endpointOf(key);
      const url = base + fillPath(paths.result, { owner, name, id: requestId });
      const answer = await call("GET", url, signal);
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

    async subscribe(key, { input, signal, timeoutMs, pollIntervalMs, onQueueUpdate, logs, webhookUrl }) {
      const { requestId } = await client.submit(key, {
        input,
        ...(webhookUrl === undefined ? {} : { webhookUrl }),
        ...(signal === undefined ? {} : { signal }),
      });
      const deadline = timeoutMs === undefined ? undefined : Date.now() + timeoutMs;
      const interval = pollIntervalMs ?? options.pollIntervalMs ?? 1000;
      // one signal for abort and timeout, so a pending poll or wait stops at once
      const timeout = newAbortController();
      const timer = timeoutMs === undefined ? undefined : setTimer(() => timeout.abort(), timeoutMs);
      const combined = signal === undefined ? timeout.signal : anySignal([signal, timeout.signal]);
      const rethrow = (error: unknown): never => {
        if (signal?.aborted) throw abortError(signal);
        if (timeout.signal.aborted) throw new SubscribeTimeoutError(requestId, timeoutMs ?? 0);
        throw error;
      };
      try {
        for (;;) {
          const update = await client
            .status(key, requestId, { ...(logs ? { logs } : {}), signal: combined })
            .catch(rethrow);
          onQueueUpdate?.(update);
          if (FINAL.has(update.status)) {
            if (update.status === "cancelled") throw new PredictionCancelledError(requestId);
            try {
              return await client.result(key, requestId, { signal: combined });
            } catch (error) {
              // the result endpoint decides (spec 7.3); only when it gives no reading of the
              // failure does the status's own error stand in, read by the same runtime
              if (update.status === "failed" && update.error !== null && error instanceof EdgeError)
                throw withRequestId(toPredictionFailedError(update.error), requestId);
              return rethrow(error);
            }
          }
          if (deadline !== undefined && Date.now() >= deadline) throw new SubscribeTimeoutError(requestId, timeoutMs!);
          await sleep(interval, combined).catch(rethrow);
        }
      } finally {
        if (timer !== undefined) clearTimer(timer);
      }
    },

    async cancel(key, requestId, { signal } = {}) {
      const { owner, name } = endpointOf(key);
      const url = base + fillPath(paths.cancel, { owner, name, id: requestId });
      const answer = await call("PUT", url, signal);
      if (answer.status < 200 || answer.status >= 300) throw failure(`cancel ${requestId}`, url, answer, requestId);
    },

    async getPrediction(id, { signal } = {}) {
      const url = base + fillPath(paths.prediction, { id });
      const answer = await call("GET", url, signal);
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
