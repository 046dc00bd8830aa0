/**
 * The mock service: a state machine of predictions behind a `fetch(Request) → Response` handler,
 * on the wire of QUEUE.md. Life cycle (spec 3): queued for `queueMs`, running for `runMs`, then
 * the outcome; `advance()` moves a prediction on at once. Time is read from `now()` only, so a
 * test may inject a clock or use fake timers.
 */
import { randomUUID } from "node:crypto";
import type { JsonSchemaObject } from "../schema/index.js";
import { outcomeOf, PreferError, type FailureSpec, type Outcome } from "./outcomes.js";
import { sampleOutput } from "./output.js";
import { deliver, isLoopbackUrl, signWebhook, type WebhookDelivery } from "./webhooks.js";
import {
  apiError,
  DEFAULT_PATHS,
  fillPath,
  json,
  matchPath,
  PREDICTION_PATH,
  SUBMIT_PATH,
  timestamp,
  type MockPaths,
  type PredictionStatus,
} from "./wire.js";

/** What the mock needs of a diagnostic of the generated validators. */
export interface MockDiagnostic {
  severity: string;
  pointer: string;
  message: string;
}

/** One endpoint the mock serves. */
export interface MockEndpoint {
  /** `<owner>/<name>/<endpoint>` */
  key: string;
  /** the generated validator (schema and cross-field rules) */
  validate(input: unknown): readonly MockDiagnostic[] | Promise<readonly MockDiagnostic[]>;
  /** the endpoint's output schema (spec 2.3), for succeeded outputs */
  output: JsonSchemaObject;
}

export interface MockCoreOptions {
  endpoints: readonly MockEndpoint[];
  /** the API key `Authorization: Key <key>` must carry; any key is accepted when unset (spec 5) */
  key?: string;
  /** how long a prediction stays queued (ms, default 100) */
  queueMs?: number;
  /** how long it runs (ms, default 200) */
  runMs?: number;
  /** answer `error: {}` instead of `null` on GET /v1/predictions/{id}, as before 17 Aug 2026 (spec 9.2) */
  pre92?: boolean;
  /** answer an invalid payload with 422 at submit instead of a failed prediction */
  strictSubmit?: boolean;
  /** sign webhook deliveries (Standard Webhooks) with this secret */
  webhookSecret?: string;
  /** the clock (ms since the epoch); default `Date.now` */
  now?: () => number;
  /** the paths the spec does not show (QUEUE.md defaults) */
  paths?: Partial<MockPaths>;
  /** the base URL written into status_url and the like (set by `listen`) */
  baseUrl?: string;
  /** the largest request body accepted (default 1 MiB) */
  maxBodyBytes?: number;
  /** how many predictions are kept (default 10 000); the oldest finished ones are dropped first */
  maxPredictions?: number;
  /** called after each request is answered (the CLI logs it) */
  onRequest?: (record: MockRequestRecord) => void;
}

/** One request the mock answered. */
export interface MockRequestRecord {
  method: string;
  /** the path without its query string */
  path: string;
  status: number;
  requestId?: string;
}

interface Prediction {
  id: string;
  endpoint: MockEndpoint;
  owner: string;
  name: string;
  input: unknown;
  createdAt: number;
  outcome: Outcome;
  /** phases forced by advance(): 0 none, 1 running, 2 finished */
  forced: 0 | 1 | 2;
  finishedAt?: number;
  cancelledAt?: number;
  webhook?: string;
  delivered: boolean;
}

const MAX_RECORDS = 1000;

export class MockCore {
  readonly requests: MockRequestRecord[] = [];
  readonly webhooks: WebhookDelivery[] = [];
  private readonly predictions = new Map<string, Prediction>();
  private readonly byModel = new Map<string, Map<string, MockEndpoint>>();
  private readonly paths: MockPaths;
  private readonly pending = new Set<Promise<unknown>>();
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private readonly now: () => number;
  baseUrl: string;

  constructor(private readonly options: MockCoreOptions) {
    this.paths = { ...DEFAULT_PATHS, ...options.paths };
    this.now = options.now ?? Date.now;
    this.baseUrl = options.baseUrl ?? "http://mock.invalid";
    for (const endpoint of options.endpoints) {
      const [owner, name, ep] = endpoint.key.split("/");
      const model = `${owner}/${name}`;
      if (!this.byModel.has(model)) this.byModel.set(model, new Map());
      this.byModel.get(model)!.set(ep!, endpoint);
    }
  }

  private get queueMs(): number {
    return this.options.queueMs ?? 100;
  }
  private get runMs(): number {
    return this.options.runMs ?? 200;
  }

  /** The status of a prediction now (spec 3). */
  private statusOf(p: Prediction): PredictionStatus {
    if (p.cancelledAt !== undefined) return "cancelled";
    const elapsed = this.now() - p.createdAt;
    const byTime = elapsed < this.queueMs ? 0 : elapsed < this.queueMs + this.runMs ? 1 : 2;
    const phase = Math.max(byTime, p.forced);
    if (phase === 0) return "queued";
    if (phase === 1) return "running";
    p.finishedAt ??= p.forced === 2 ? this.now() : p.createdAt + this.queueMs + this.runMs;
    return p.outcome.kind === "failed" ? "failed" : "succeeded";
  }

  /** The prediction's error object (spec 2.4), or null when it did not fail (spec 3 rule 2). */
  private errorOf(p: Prediction, status: PredictionStatus): (FailureSpec & { timestamp: string }) | null {
    if (status !== "failed" || p.outcome.kind !== "failed") return null;
    return { ...p.outcome.failure, timestamp: timestamp(p.finishedAt ?? this.now()) };
  }

  /** Moves one prediction (or every unfinished one) to its next phase at once. */
  advance(requestId?: string): void {
    const targets = requestId === undefined ? [...this.predictions.values()] : [this.predictions.get(requestId)];
    for (const p of targets) {
      if (p === undefined) continue;
      const status = this.statusOf(p);
      if (status === "queued") p.forced = 1;
      else if (status === "running") p.forced = 2;
      this.maybeDeliver(p);
    }
  }

  /** Resolves when every webhook delivery under way has been made. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  close(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private record(entry: MockRequestRecord): void {
    this.requests.push(entry);
    this.options.onRequest?.(entry);
    if (this.requests.length > MAX_RECORDS) this.requests.splice(0, this.requests.length - MAX_RECORDS);
  }

  /** Answers one request; never throws. */
  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    let response: Response;
    let requestId: string | undefined;
    try {
      ({ response, requestId } = await this.route(request, url));
    } catch (error) {
      response = apiError(
        500,
        "INTERNAL",
        `the mock failed: ${error instanceof Error ? error.message : String(error)}`,
        this.now(),
      );
    }
    this.record({
      method: request.method,
      path: url.pathname,
      status: response.status,
      ...(requestId === undefined ? {} : { requestId }),
    });
    return response;
  }

  private knownEndpoints(): string[] {
    return [...this.byModel.values()].flatMap((eps) => [...eps.values()].map((e) => e.key));
  }

  private async route(request: Request, url: URL): Promise<{ response: Response; requestId?: string }> {
    const now = this.now();
    // spec 5: "Authorization: Key <API_KEY>", sent with every request
    const auth = request.headers.get("authorization") ?? "";
    const match = /^Key\s+(\S.*)$/.exec(auth);
    if (match === null || (this.options.key !== undefined && match[1] !== this.options.key))
      return {
        response: apiError(
          401,
          "UNAUTHORIZED",
          match === null
            ? "missing or malformed Authorization header; send `Authorization: Key <API_KEY>`"
            : "invalid API key",
          now,
        ),
      };
    const path = url.pathname;
    const method = request.method.toUpperCase();
    const routes: Array<
      [
        string,
        string,
        (
          params: Record<string, string>,
        ) => Promise<{ response: Response; requestId?: string }> | { response: Response; requestId?: string },
      ]
    > = [
      ["POST", SUBMIT_PATH, (p) => this.submit(request, url, p)],
      ["GET", this.paths.status, (p) => this.status(p, url)],
      ["GET", this.paths.result, (p) => this.result(p)],
      ["PUT", this.paths.cancel, (p) => this.cancel(p)],
      ["GET", PREDICTION_PATH, (p) => this.prediction(p)],
    ];
    const allowed: string[] = [];
    for (const [routeMethod, template, handler] of routes) {
      const params = matchPath(template, path);
      if (params === undefined) continue;
      if (routeMethod === method) return handler(params);
      allowed.push(routeMethod);
    }
    if (allowed.length > 0)
      return {
        response: new Response(
          JSON.stringify({
            error: {
              code: "METHOD_NOT_ALLOWED",
              message: `${method} is not allowed here; use ${allowed.join(" or ")}`,
            },
            timestamp: timestamp(now),
          }),
          { status: 405, headers: { "content-type": "application/json", allow: allowed.join(", ") } },
        ),
      };
    return {
      response: apiError(
        404,
        "NOT_FOUND",
        `no route for ${method} ${path}; endpoints: ${this.knownEndpoints().join(", ")}`,
        now,
        {
          endpoints: this.knownEndpoints(),
        },
      ),
    };
  }

  private find(params: Record<string, string>): Prediction | Response {
    const p = this.predictions.get(params.id ?? "");
    if (p === undefined || (params.owner !== undefined && (p.owner !== params.owner || p.name !== params.name)))
      return apiError(404, "NOT_FOUND", `no request ${JSON.stringify(params.id)} for this model`, this.now());
    return p;
  }

  private async readBody(request: Request): Promise<{ text: string } | Response> {
    const limit = this.options.maxBodyBytes ?? 1024 * 1024;
    const tooLarge = () => apiError(413, "PAYLOAD_TOO_LARGE", `the request body is over ${limit} bytes`, this.now());
    if (request.body === null) return { text: "" };
    const reader = request.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        // drain (without keeping) what the client is still sending, so it reads the 413 rather
        // than a reset connection; past 16 times the limit, stop listening
        if (size > 16 * limit) {
          await reader.cancel().catch(() => undefined);
          return tooLarge();
        }
        chunks.length = 0;
        continue;
      }
      chunks.push(value);
    }
    if (size > limit) return tooLarge();
    return { text: Buffer.concat(chunks).toString("utf8") };
  }

  /** Spec 4.1: POST /v1/queue/{owner}/{name}/{endpoint}. */
  private async submit(
    request: Request,
    url: URL,
    params: Record<string, string>,
  ): Promise<{ response: Response; requestId?: string }> {
    const now = this.now();
    const model = `${params.owner}/${params.name}`;
    const endpoint = this.byModel.get(model)?.get(params.endpoint!);
    if (endpoint === undefined)
      return {
        response: apiError(
          404,
          "NOT_FOUND",
          `no endpoint ${model}/${params.endpoint}; endpoints: ${this.knownEndpoints().join(", ")}`,
          now,
          {
            endpoints: this.knownEndpoints(),
          },
        ),
      };
    const type = request.headers.get("content-type");
    if (type !== null && !/^application\/(.+\+)?json\b/i.test(type))
      return {
        response: apiError(
          415,
          "UNSUPPORTED_MEDIA_TYPE",
          "send the payload as Content-Type: application/json (spec 5)",
          now,
        ),
      };
    const body = await this.readBody(request);
    if (body instanceof Response) return { response: body };
    let input: unknown;
    try {
      input = JSON.parse(body.text);
    } catch (error) {
      return {
        response: apiError(
          400,
          "INVALID_JSON",
          `the body is not JSON: ${error instanceof Error ? error.message : String(error)}`,
          now,
        ),
      };
    }
    const webhook = url.searchParams.get("webhook");
    if (webhook !== null && !isLoopbackUrl(webhook))
      return {
        response: apiError(
          400,
          "WEBHOOK_NOT_ALLOWED",
          "the mock delivers webhooks to loopback URLs only (127.0.0.1, ::1, localhost)",
          now,
        ),
      };
    let outcome: Outcome;
    try {
      outcome = outcomeOf(request.headers.get("prefer"), input);
    } catch (error) {
      if (error instanceof PreferError) return { response: apiError(400, "INVALID_PREFER", error.message, now) };
      throw error;
    }
    const diagnostics = (await endpoint.validate(input)).filter((d) => d.severity === "error");
    if (diagnostics.length > 0) {
      const message = `Input validation failed: ${diagnostics.map((d) => d.message).join("; ")}`;
      if (this.options.strictSubmit)
        return {
          response: apiError(422, "INPUT_VALIDATION_FAILED", message, now, {
            diagnostics: diagnostics.map((d) => ({ pointer: d.pointer, message: d.message })),
          }),
        };
      // spec 7.2: the service's own validation failure is a prediction failure, the message naming the field
      outcome = {
        kind: "failed",
        failure: { code: "invalid_input", reason: "input_validation_failed", retryable: false, message },
      };
    }
    if (!this.makeRoom())
      return {
        response: apiError(503, "QUEUE_FULL", "the mock holds too many unfinished predictions; try again", now),
      };
    const id = randomUUID();
    const prediction: Prediction = {
      id,
      endpoint,
      owner: params.owner!,
      name: params.name!,
      input,
      createdAt: now,
      outcome,
      forced: 0,
      delivered: false,
      ...(webhook === null ? {} : { webhook }),
    };
    this.predictions.set(id, prediction);
    if (webhook !== null) {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.maybeDeliver(prediction);
      }, this.queueMs + this.runMs);
      (timer as { unref?: () => void }).unref?.();
      this.timers.add(timer);
    }
    const ids = { owner: params.owner!, name: params.name!, id };
    return {
      requestId: id,
      response: json(200, {
        request_id: id,
        status: "queued",
        status_url: this.baseUrl + fillPath(this.paths.status, ids),
        response_url: this.baseUrl + fillPath(this.paths.result, ids),
        cancel_url: this.baseUrl + fillPath(this.paths.cancel, ids),
      }),
    };
  }

  /** Drops the oldest finished predictions past the cap; false when all are unfinished. */
  private makeRoom(): boolean {
    const max = this.options.maxPredictions ?? 10_000;
    if (this.predictions.size < max) return true;
    for (const [id, p] of this.predictions) {
      const status = this.statusOf(p);
      if (status !== "queued" && status !== "running" && (p.webhook === undefined || p.delivered)) {
        this.predictions.delete(id);
        if (this.predictions.size < max) return true;
      }
    }
    return this.predictions.size < max;
  }

  /** Queue status (QUEUE.md): request_id, status, queue_position while queued, logs on ?logs=1, error. */
  private status(params: Record<string, string>, url: URL): { response: Response; requestId?: string } {
    const p = this.find(params);
    if (p instanceof Response) return { response: p };
    const status = this.statusOf(p);
    this.maybeDeliver(p);
    const body: Record<string, unknown> = { request_id: p.id, status };
    if (status === "queued") {
      let position = 0;
      for (const other of this.predictions.values())
        if (other !== p && other.createdAt <= p.createdAt && this.statusOf(other) === "queued") position++;
      body.queue_position = position;
    }
    if (url.searchParams.get("logs") === "1" || url.searchParams.get("logs") === "true")
      body.logs = this.logsOf(p, status);
    body.error = this.errorOf(p, status);
    return { response: json(200, body), requestId: p.id };
  }

  private logsOf(p: Prediction, status: PredictionStatus): Array<{ message: string; timestamp: string }> {
    const logs = [{ message: "queued", timestamp: timestamp(p.createdAt) }];
    if (status !== "queued" && p.cancelledAt === undefined)
      logs.push({ message: "running", timestamp: timestamp(p.createdAt + this.queueMs) });
    if (status !== "queued" && status !== "running")
      logs.push({ message: status, timestamp: timestamp(p.cancelledAt ?? p.finishedAt ?? this.now()) });
    return logs;
  }

  /** Result (spec 7.3): output, PREDICTION_FAILED, a generic 400, or an edge's plain text. */
  private result(params: Record<string, string>): { response: Response; requestId?: string } {
    const p = this.find(params);
    if (p instanceof Response) return { response: p };
    const now = this.now();
    const status = this.statusOf(p);
    this.maybeDeliver(p);
    if (status === "failed") {
      const details = this.errorOf(p, status)!;
      return {
        requestId: p.id,
        response: json(400, {
          error: { code: "PREDICTION_FAILED", message: details.message, details },
          timestamp: timestamp(now),
        }),
      };
    }
    if (status === "succeeded") {
      if (p.outcome.kind === "edge-error")
        return {
          requestId: p.id,
          response: new Response("502 Bad Gateway: upstream closed the connection\n", {
            status: 502,
            headers: { "content-type": "text/plain; charset=utf-8" },
          }),
        };
      return { requestId: p.id, response: json(200, this.outputOf(p)) };
    }
    // spec 3 rule 4: queued, running or cancelled → a generic 400
    const words = status === "cancelled" ? "the request was cancelled" : `the request is still ${status}`;
    return { requestId: p.id, response: apiError(400, "REQUEST_NOT_COMPLETED", `${words}; no result`, now) };
  }

  private outputOf(p: Prediction): unknown {
    return sampleOutput(p.endpoint.output, { requestId: p.id, baseUrl: this.baseUrl, input: p.input });
  }

  /** Cancel (QUEUE.md): an unfinished prediction becomes cancelled; a finished one is a generic 400. */
  private cancel(params: Record<string, string>): { response: Response; requestId?: string } {
    const p = this.find(params);
    if (p instanceof Response) return { response: p };
    const status = this.statusOf(p);
    if (status !== "queued" && status !== "running")
      return {
        requestId: p.id,
        response: apiError(400, "REQUEST_NOT_CANCELLABLE", `the request is already ${status}`, this.now()),
      };
    p.cancelledAt = this.now();
    this.maybeDeliver(p);
    return { requestId: p.id, response: json(200, { status: "cancelled" }) };
  }

  /** Spec 4.6: GET /v1/predictions/{id} → status and error (null, or `{}` before 9.2). */
  private prediction(params: Record<string, string>): { response: Response; requestId?: string } {
    const p = this.find(params);
    if (p instanceof Response) return { response: p };
    const status = this.statusOf(p);
    this.maybeDeliver(p);
    const error = this.errorOf(p, status) ?? (this.options.pre92 ? {} : null);
    return { requestId: p.id, response: json(200, { id: p.id, status, error }) };
  }

  /**
   * Spec 6.2: the final state goes to the webhook once. A failure carries the error object (the
   * same one as every channel, 6.3); a success carries the output and no `error` key at all.
   */
  private maybeDeliver(p: Prediction): void {
    if (p.webhook === undefined || p.delivered) return;
    const status = this.statusOf(p);
    if (status === "queued" || status === "running") return;
    p.delivered = true;
    const payload: Record<string, unknown> = { request_id: p.id, status };
    const error = this.errorOf(p, status);
    if (error !== null) payload.error = error;
    if (status === "succeeded") payload.payload = this.outputOf(p);
    const body = JSON.stringify(payload);
    const headers =
      this.options.webhookSecret === undefined ? {} : signWebhook(this.options.webhookSecret, body, this.now());
    const sending = deliver(p.webhook, body, headers, p.id).then((delivery) => {
      this.webhooks.push(delivery);
      if (this.webhooks.length > MAX_RECORDS) this.webhooks.splice(0, this.webhooks.length - MAX_RECORDS);
    });
    this.pending.add(sending);
    void sending.finally(() => this.pending.delete(sending));
  }
}
