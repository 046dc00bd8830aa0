/**
 * The mock's API: one `fetch(Request) → Response` handler over the predictions it holds, on the
 * wire of docs/queue.md (routes.ts → handlers.ts), with the request log and webhook deliveries a test
 * asserts on. `createMockService` (index.ts) serves it over HTTP.
 */
import { webhookKey } from "../client/index.js";
import { DEFAULT_CONCURRENT_SUBMITS, Slots } from "./body.js";
import { outputOf, type MockContext } from "./handlers.js";
import { PredictionStore, type Prediction } from "./predictions.js";
import { apiError } from "./replies.js";
import { DEFAULT_PATHS, route } from "./routes.js";
import type { MockApiOptions, MockEndpoint, MockPaths, MockRequestRecord } from "./types.js";
import { deliver, signWebhook, type WebhookDelivery } from "./webhooks.js";
import type { PlatformRequest, PlatformResponse } from "../platform/index.js";

/** How many requests and deliveries are remembered for a test to read. */
const MAX_RECORDS = 1000;

export class MockApi implements MockContext {
  readonly requests: MockRequestRecord[] = [];
  readonly webhooks: WebhookDelivery[] = [];
  readonly store: PredictionStore;
  readonly submitSlots: Slots;
  readonly paths: MockPaths;
  readonly now: () => number;
  baseUrl: string;
  private readonly byModel = new Map<string, Map<string, MockEndpoint>>();
  private readonly pending = new Set<Promise<unknown>>();
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();

  constructor(readonly options: MockApiOptions) {
    // a secret the signer cannot decode is said at once (TypeError), not at the first delivery
    if (options.webhookSecret !== undefined) webhookKey(options.webhookSecret);
    this.paths = { ...DEFAULT_PATHS, ...options.paths };
    this.submitSlots = new Slots(options.maxConcurrentSubmits ?? DEFAULT_CONCURRENT_SUBMITS);
    this.now = options.now ?? Date.now;
    this.baseUrl = options.baseUrl ?? "http://mock.invalid";
    this.store = new PredictionStore(options.queueMs ?? 100, options.runMs ?? 200, options, () => this.now());
    for (const endpoint of options.endpoints) {
      const [owner, name, ep] = endpoint.key.split("/");
      const model = `${owner}/${name}`;
      if (!this.byModel.has(model)) this.byModel.set(model, new Map());
      this.byModel.get(model)!.set(ep!, endpoint);
    }
  }

  endpoint(model: string, endpoint: string): MockEndpoint | undefined {
    return this.byModel.get(model)?.get(endpoint);
  }

  knownEndpoints(): string[] {
    return [...this.byModel.values()].flatMap((eps) => [...eps.values()].map((e) => e.key));
  }

  /** Moves one prediction (or every unfinished one) to its next phase at once. */
  advance(requestId?: string): void {
    const targets = requestId === undefined ? this.store.all() : [this.store.get(requestId)];
    for (const p of targets) {
      if (p === undefined) continue;
      this.store.advance(p);
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

  /** Answers one request (`method`: its method, when fetch's `Request` cannot carry it); never throws. */
  async fetch(request: PlatformRequest, method = request.method.toUpperCase()): Promise<PlatformResponse> {
    const url = new URL(request.url);
    let response: PlatformResponse;
    let requestId: string | undefined;
    try {
      ({ response, requestId } = await route(this, request, url, method));
    } catch (error) {
      response = apiError(
        500,
        "INTERNAL",
        `the mock failed: ${error instanceof Error ? error.message : String(error)}`,
        this.now(),
      );
    }
    this.record({
      method,
      path: url.pathname,
      status: response.status,
      ...(requestId === undefined ? {} : { requestId }),
    });
    return response;
  }

  private record(entry: MockRequestRecord): void {
    this.requests.push(entry);
    this.options.onRequest?.(entry);
    if (this.requests.length > MAX_RECORDS) this.requests.splice(0, this.requests.length - MAX_RECORDS);
  }

  scheduleDelivery(p: Prediction): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.maybeDeliver(p);
    }, this.store.queueMs + this.store.runMs);
    (timer as { unref?: () => void }).unref?.();
    this.timers.add(timer);
  }

  /**
   * Spec 6.2: the final state goes to the webhook once. A failure carries the error object (the
   * same one as every channel, 6.3); a success carries the output and no `error` key at all.
   */
  maybeDeliver(p: Prediction): void {
    if (p.webhook === undefined || p.delivered) return;
    const status = this.store.statusOf(p);
    if (status === "queued" || status === "running") return;
    p.delivered = true;
    const payload: Record<string, unknown> = { request_id: p.id, status };
    const error = this.store.errorOf(p, status);
    if (error !== null) payload.error = error;
    if (status === "succeeded") payload.payload = outputOf(this, p);
    const body = JSON.stringify(payload);
    const headers =
      this.options.webhookSecret === undefined ? {} : signWebhook(this.options.webhookSecret, body, this.now());
    const sending = deliver(p.webhook, body, headers, p.id, {
      ...(this.options.maxWebhookResponseBytes === undefined
        ? {}
        : { maxResponseBytes: this.options.maxWebhookResponseBytes }),
    }).then((delivery) => {
      this.webhooks.push(delivery);
      if (this.webhooks.length > MAX_RECORDS) this.webhooks.splice(0, this.webhooks.length - MAX_RECORDS);
    });
    this.pending.add(sending);
    void sending.finally(() => this.pending.delete(sending));
  }
}
