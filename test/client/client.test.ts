/**
 * The queue client against the mock service over real HTTP on 127.0.0.1, and against a small
 * fault server for what the mock does not do (503s, 429 with Retry-After, a dropped connection on
 * submit, HTML from an edge). Type tests at the bottom are checked by `tsc --noEmit` (npm test).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it, vi } from "vitest";
import { endpoints, type EndpointTypeMap, type ModelCTextToVideoOutput } from "../../generated/index.mjs";
import {
  ApiRequestError,
  createQueueClient,
  type QueueClient,
  type QueueStatus,
  EdgeError,
  PredictionFailedError,
  readWebhook,
  RequestValidationError,
  ResultNotReadyError,
  SubscribeTimeoutError,
  verifyWebhook,
} from "../../src/client/index.js";
import { createMockService, type MockService } from "../../src/mock/index.js";
import type { PredictionStatus } from "../../src/runtime/index.js";
import { createClient } from "../../generated/client.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const KEY = "sk_live_0123456789abcdef";

let mock: MockService;
let baseUrl: string;
beforeAll(async () => {
  mock = createMockService({ cwd: root, key: KEY, queueMs: 20, runMs: 30 });
  ({ url: baseUrl } = await mock.listen());
});
afterAll(() => mock.close());

const client = () =>
  createQueueClient<EndpointTypeMap>({
    baseUrl,
    credentials: KEY,
    endpoints,
    pollIntervalMs: 10,
    retry: { baseDelayMs: 5 },
  });

const INPUTS = {
  "example/model-a/text-to-video": { prompt: "A paper boat" },
  "example/model-a/keyframes-to-video": {
    prompt: "A paper boat",
    keyframes: [
      { image_url: "https://cdn.example.com/0.png", frame_index: 0 },
      { image_url: "https://cdn.example.com/1.png", frame_index: 48 },
    ],
  },
  "example/model-b/reference-to-video": {
    prompt: "image 1",
    enable_thinking: true,
    file_url: "https://d.example.com/a.pdf",
  },
  "example/model-c/text-to-video": { prompt: "A paper boat", duration: -1 },
} satisfies { [K in keyof EndpointTypeMap]: EndpointTypeMap[K]["input"] };

/** The mock's outcomes on demand: a `Prefer` header on the call (issue 24.8, docs/client.md). */
const preferring = (prefer: string) => ({ headers: { Prefer: prefer } });

describe("happy path per endpoint (against the mock)", () => {
  it.each(Object.keys(INPUTS) as (keyof typeof INPUTS)[])("%s: subscribe resolves to the typed output", async (key) => {
    const updates: string[] = [];
    const output = await client().subscribe(key, {
      input: INPUTS[key] as never,
      onQueueUpdate: (u) => updates.push(u.status),
    });
    expect(output).toMatchObject({ video: { content_type: "video/mp4", url: expect.stringContaining(baseUrl) } });
    expect(updates.at(-1)).toBe("succeeded");
  });

  it("submit → status → result, cancel and getPrediction by hand", async () => {
    const slow = createMockService({ cwd: root, key: KEY, queueMs: 60_000, runMs: 60_000 });
    const { url } = await slow.listen();
    const c = createQueueClient<EndpointTypeMap>({ baseUrl: url, credentials: KEY, endpoints });
    const ack = await c.submit("example/model-c/text-to-video", { input: { prompt: "x" } });
    expect(ack.statusUrl).toBe(`${url}/v1/queue/example/model-c/requests/${ack.requestId}/status`);
    const status = await c.status("example/model-c/text-to-video", ack.requestId, { logs: true });
    expect(status).toMatchObject({ requestId: ack.requestId, status: "queued", error: null });
    await expect(c.result("example/model-c/text-to-video", ack.requestId)).rejects.toBeInstanceOf(ResultNotReadyError);
    await c.cancel("example/model-c/text-to-video", ack.requestId);
    expect(await c.getPrediction(ack.requestId)).toEqual({ id: ack.requestId, status: "cancelled", error: null });
    await expect(c.cancel("example/model-c/text-to-video", ack.requestId)).rejects.toBeInstanceOf(ApiRequestError);
    await slow.close();
  });
});

describe("validation before any network call", () => {
  it("invalid input throws RequestValidationError with our diagnostics, and nothing is sent", async () => {
    const sent: string[] = [];
    const c = createQueueClient<EndpointTypeMap>({
      baseUrl,
      credentials: KEY,
      endpoints,
      fetch: (url, init) => (sent.push(String(url)), fetch(url, init)),
    });
    const error = await c
      .submit("example/model-c/text-to-video", { input: { prompt: "x", duration: 2 } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).diagnostics[0]).toMatchObject({
      pointer: "/duration",
      rule: "duration-auto-or-range",
    });
    expect(sent).toEqual([]);
  });

  it("RequestValidationError is one class: instanceof holds with video-schema-kit/models' and the builders'", async () => {
    // what `video-schema-kit/models` resolves to: the package build's copy of the generated code
    const models = await import("../../dist/generated/index.mjs");
    const c = createQueueClient<EndpointTypeMap>({ baseUrl, credentials: KEY, endpoints: models.endpoints });
    const error = await c
      .submit("example/model-c/text-to-video", { input: { prompt: "x", duration: 2 } })
      .catch((e: unknown) => e);
    expect(models.RequestValidationError).not.toBe(RequestValidationError);
    expect(error).toBeInstanceOf(models.RequestValidationError);
    expect(error).toBeInstanceOf(RequestValidationError);
    let built: unknown;
    try {
      models.buildModelCTextToVideo({ prompt: "x", duration: 2 });
    } catch (e) {
      built = e;
    }
    expect(built).toBeInstanceOf(RequestValidationError);
    expect(new Error("x")).not.toBeInstanceOf(RequestValidationError);
    expect({ ...(error as object) }).not.toBeInstanceOf(models.RequestValidationError);
  });

  it("validate: false sends it, and the service's own validation failure comes back as a PredictionFailedError", async () => {
    const c = createQueueClient<EndpointTypeMap>({
      baseUrl,
      credentials: KEY,
      endpoints,
      validate: false,
      pollIntervalMs: 10,
    });
    const error = await c
      .subscribe("example/model-c/text-to-video", { input: { prompt: "x", duration: 2 } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PredictionFailedError);
    expect(error).toMatchObject({ code: "invalid_input", reason: "input_validation_failed", retryable: false });
  });
});

describe("one failure, one error, whichever call reads it (spec 6.3, 7.3)", () => {
  it.each([
    ["reason=provider_timeout", { code: "task_timeout", reason: "provider_timeout", retryable: true }],
    [
      "outcome=unknown-code",
      { code: "internal_server_error", rawCode: "provider_capacity_exhausted", reason: undefined },
    ],
    ["outcome=plain-text-failure", { code: "unknown_error_code", message: "upstream worker exited with status 137" }],
  ])("%s: subscribe and result throw equal PredictionFailedErrors with the request id", async (prefer, expected) => {
    const c = client();
    const fromSubscribe = (await c
      .subscribe("example/model-a/text-to-video", { input: { prompt: "x" }, ...preferring(prefer) })
      .catch((e: unknown) => e)) as PredictionFailedError;
    expect(fromSubscribe.requestId).toMatch(/\S/);
    expect(fromSubscribe).toBeInstanceOf(PredictionFailedError);
    expect(fromSubscribe).toMatchObject(expected);
    const fromResult = (await c
      .result("example/model-a/text-to-video", fromSubscribe.requestId!)
      .catch((e: unknown) => e)) as PredictionFailedError;
    for (const field of ["code", "rawCode", "reason", "retryable", "message", "timestamp", "requestId"] as const)
      expect(fromResult[field as keyof PredictionFailedError]).toEqual(
        fromSubscribe[field as keyof PredictionFailedError],
      );
  });

  it("an edge's plain-text 502 from the result endpoint is an EdgeError with status and snippet", async () => {
    const error = (await client()
      .subscribe("example/model-a/text-to-video", { input: { prompt: "x" }, ...preferring("outcome=edge-error") })
      .catch((e: unknown) => e)) as EdgeError;
    expect(error).toBeInstanceOf(EdgeError);
    expect(error.status).toBe(502);
    expect(error.snippet).toMatch(/^502 Bad Gateway/);
  });

  it("a wrong key is an ApiRequestError (401) that never shows the key", async () => {
    const c = createQueueClient<EndpointTypeMap>({ baseUrl, credentials: () => "sk_wrong_key_987654", endpoints });
    const error = (await c.getPrediction("x").catch((e: unknown) => e)) as ApiRequestError;
    expect(error).toBeInstanceOf(ApiRequestError);
    expect([error.status, error.code]).toEqual([401, "UNAUTHORIZED"]);
    for (const text of [error.message, String(error), JSON.stringify(error), error.stack ?? ""])
      expect(text).not.toContain("sk_wrong_key_987654");
  });
});

describe("30.12: wait for a job submitted elsewhere; cancelOnTimeout", () => {
  it("one client submits, another waits by request id: the output, or the same PredictionFailedError", async () => {
    const server = client();
    const worker = client();
    const { requestId } = await server.submit("example/model-c/text-to-video", { input: { prompt: "x" } });
    expect(await worker.wait("example/model-c/text-to-video", requestId)).toMatchObject({
      video: { content_type: "video/mp4" },
    });
    const failed = await server.submit("example/model-a/text-to-video", {
      input: { prompt: "x" },
      ...preferring("reason=provider_timeout"),
    });
    const error = await worker.wait("example/model-a/text-to-video", failed.requestId).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PredictionFailedError);
    expect(error).toMatchObject({ reason: "provider_timeout", retryable: true, requestId: failed.requestId });
    await expect(worker.wait("example/model-a/text-to-video", "")).rejects.toThrow(
      "requestId must be a non-empty string",
    );
  });

  it("cancelOnTimeout cancels the prediction on giving up; without it the prediction goes on", async () => {
    const slow = createMockService({ cwd: root, key: KEY, queueMs: 60_000, runMs: 60_000 });
    const { url } = await slow.listen();
    const c = createQueueClient<EndpointTypeMap>({ baseUrl: url, credentials: KEY, endpoints, pollIntervalMs: 20 });
    try {
      const key = "example/model-c/text-to-video";
      const kept = await c.submit(key, { input: { prompt: "x" } });
      const left = (await c
        .wait(key, kept.requestId, { timeoutMs: 100 })
        .catch((e: unknown) => e)) as SubscribeTimeoutError;
      expect(left).toMatchObject({ name: "SubscribeTimeoutError", requestId: kept.requestId, cancelled: false });
      expect((await c.getPrediction(kept.requestId)).status).toBe("queued");

      const dropped = await c.submit(key, { input: { prompt: "x" } });
      const error = (await c
        .wait(key, dropped.requestId, { timeoutMs: 100, cancelOnTimeout: true })
        .catch((e: unknown) => e)) as SubscribeTimeoutError;
      expect(error).toMatchObject({ name: "SubscribeTimeoutError", requestId: dropped.requestId, cancelled: true });
      expect(error.message).toMatch(/within 100 ms; it was cancelled/);
      expect((await c.getPrediction(dropped.requestId)).status).toBe("cancelled");
    } finally {
      await slow.close();
    }
  });
});

describe("abort and timeout", () => {
  it("an aborted signal rejects promptly with an AbortError and stops polling", async () => {
    const slow = createMockService({ cwd: root, key: KEY, queueMs: 60_000, runMs: 60_000 });
    const { url } = await slow.listen();
    const c = createQueueClient<EndpointTypeMap>({ baseUrl: url, credentials: KEY, endpoints, pollIntervalMs: 20 });
    const controller = new AbortController();
    // aborted once polling runs (an abort during the submit is answered by the mock all the same)
    const pending = c.subscribe("example/model-c/text-to-video", {
      input: { prompt: "x" },
      signal: controller.signal,
      onQueueUpdate: () => controller.abort(),
    });
    const error = (await pending.catch((e: unknown) => e)) as Error;
    expect(error.name).toBe("AbortError");
    const polls = slow.requests.length;
    await new Promise((r) => setTimeout(r, 100));
    expect(slow.requests.length).toBe(polls);
    await slow.close();
  });

  it("timeoutMs rejects with SubscribeTimeoutError carrying the request id once the submit was acknowledged", async () => {
    const slow = createMockService({ cwd: root, key: KEY, queueMs: 60_000, runMs: 60_000 });
    const { url } = await slow.listen();
    const c = createQueueClient<EndpointTypeMap>({ baseUrl: url, credentials: KEY, endpoints, pollIntervalMs: 20 });
    const error = (await c
      .subscribe("example/model-c/text-to-video", { input: { prompt: "x" }, timeoutMs: 3000 })
      .catch((e: unknown) => e)) as SubscribeTimeoutError;
    expect(error).toBeInstanceOf(SubscribeTimeoutError);
    expect(error.requestId).toBe(slow.requests[0]!.requestId);
    await slow.close();
  });
});

/** A server that answers from a script, one entry per request, recording what it got. */
async function faultServer(
  script: Array<(req: IncomingMessage, res: ServerResponse) => void>,
): Promise<{ url: string; hits: string[]; server: Server }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    req.resume();
    req.on("end", () => (script.shift() ?? ((_q, r) => r.writeHead(500).end()))(req, res));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, hits, server };
}

const ok = (body: unknown) => (_q: IncomingMessage, r: ServerResponse) =>
  r.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
const status =
  (code: number, headers: Record<string, string> = {}, body = "") =>
  (_q: IncomingMessage, r: ServerResponse) =>
    r.writeHead(code, headers).end(body);
const drop = (q: IncomingMessage) => q.socket.destroy();

describe("retries (QUEUE.md: a submit is billed)", () => {
  it("a GET is retried on 503s, then succeeds", async () => {
    const f = await faultServer([status(503), status(503), ok({ id: "p1", status: "succeeded", error: null })]);
    const c = createQueueClient<EndpointTypeMap>({
      baseUrl: f.url,
      credentials: KEY,
      endpoints,
      retry: { baseDelayMs: 1 },
    });
    expect(await c.getPrediction("p1")).toEqual({ id: "p1", status: "succeeded", error: null });
    expect(f.hits).toHaveLength(3);
    f.server.close();
  });

  it("429 with Retry-After is honoured, for a submit too", async () => {
    const f = await faultServer([status(429, { "retry-after": "1" }), ok({ request_id: "r1", status: "queued" })]);
    const c = createQueueClient<EndpointTypeMap>({ baseUrl: f.url, credentials: KEY, endpoints });
    const started = Date.now();
    const ack = await c.submit("example/model-c/text-to-video", { input: { prompt: "x" } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(ack.requestId).toBe("r1");
    expect(f.hits).toEqual([
      "POST /v1/queue/example/model-c/text-to-video",
      "POST /v1/queue/example/model-c/text-to-video",
    ]);
    f.server.close();
  });

  it("a submit is never retried after a dropped connection or a 503, unless retry.submit is always", async () => {
    const dropped = await faultServer([drop, ok({ request_id: "r2" })]);
    const c = createQueueClient<EndpointTypeMap>({
      baseUrl: dropped.url,
      credentials: KEY,
      endpoints,
      retry: { baseDelayMs: 1 },
    });
    const error = (await c
      .submit("example/model-c/text-to-video", { input: { prompt: "x" } })
      .catch((e: unknown) => e)) as EdgeError;
    expect(error).toBeInstanceOf(EdgeError);
    expect(error.message).toMatch(/not retried, since the service may have accepted the submit/);
    expect(dropped.hits).toHaveLength(1);
    dropped.server.close();

    const busy = await faultServer([status(503), ok({ request_id: "r3" })]);
    const once = createQueueClient<EndpointTypeMap>({
      baseUrl: busy.url,
      credentials: KEY,
      endpoints,
      retry: { baseDelayMs: 1 },
    });
    await expect(once.submit("example/model-c/text-to-video", { input: { prompt: "x" } })).rejects.toBeInstanceOf(
      EdgeError,
    );
    expect(busy.hits).toHaveLength(1);
    busy.server.close();

    const opted = await faultServer([drop, ok({ request_id: "r4" })]);
    const always = createQueueClient<EndpointTypeMap>({
      baseUrl: opted.url,
      credentials: KEY,
      endpoints,
      retry: { submit: "always", baseDelayMs: 1 },
    });
    expect((await always.submit("example/model-c/text-to-video", { input: { prompt: "x" } })).requestId).toBe("r4");
    opted.server.close();
  });

  it("a refused connection is retried for a submit (nothing was sent)", async () => {
    const f = await faultServer([]);
    const port = (f.server.address() as { port: number }).port;
    await new Promise<void>((r) => f.server.close(() => r()));
    let calls = 0;
    const c = createQueueClient<EndpointTypeMap>({
      baseUrl: `http://127.0.0.1:${port}`,
      credentials: KEY,
      endpoints,
      retry: { retries: 2, baseDelayMs: 1 },
      fetch: (url, init) => (calls++, fetch(url, init)),
    });
    await expect(c.submit("example/model-c/text-to-video", { input: { prompt: "x" } })).rejects.toBeInstanceOf(
      EdgeError,
    );
    expect(calls).toBe(3);
  });

  it("HTML from an edge is an EdgeError; a URL in its message has no query string; the key is nowhere", async () => {
    const f = await faultServer([
      status(502, { "content-type": "text/html" }, "<html><body>Bad gateway</body></html>"),
    ]);
    const c = createQueueClient<EndpointTypeMap>({
      baseUrl: `${f.url}`,
      credentials: KEY,
      endpoints,
      retry: { retries: 0 },
      paths: { prediction: "/v1/predictions/{id}?token=SECRET" },
    });
    const error = (await c.getPrediction("p9").catch((e: unknown) => e)) as EdgeError;
    expect(error).toBeInstanceOf(EdgeError);
    expect([error.status, error.snippet]).toEqual([502, "<html><body>Bad gateway</body></html>"]);
    for (const text of [error.message, String(error), JSON.stringify(error), error.stack ?? ""]) {
      expect(text).not.toContain("SECRET");
      expect(text).not.toContain(KEY);
    }
    f.server.close();
  });
});

describe("webhooks: Standard Webhooks v1", () => {
  const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
  it("verifies what an independent implementation signs, and rejects tampering, old timestamps and missing headers", async () => {
    const signer = new Webhook(secret);
    const body = JSON.stringify({ request_id: "r1", status: "succeeded", payload: { video: { url: "u" } } });
    const now = new Date();
    const signature = signer.sign("msg_1", now, body);
    const headers = {
      "webhook-id": "msg_1",
      "webhook-timestamp": String(Math.floor(+now / 1000)),
      "webhook-signature": signature,
    };
    expect(await verifyWebhook({ headers, body }, secret)).toBe(true);
    expect(await verifyWebhook({ headers: new Headers(headers), body }, secret)).toBe(true);
    expect(await verifyWebhook({ headers, body: body + " " }, secret)).toBe(false);
    expect(await verifyWebhook({ headers, body }, "whsec_b3RoZXJzZWNyZXQ=")).toBe(false);
    expect(await verifyWebhook({ headers, body }, secret, { now: () => +now + 301_000 })).toBe(false);
    expect(await verifyWebhook({ headers: { "webhook-id": "msg_1" }, body }, secret)).toBe(false);
    expect(await verifyWebhook({ headers, body }, "not base64 !!")).toBe(false);
    expect(readWebhook<ModelCTextToVideoOutput>(body)).toMatchObject({
      status: "succeeded",
      error: null,
      output: { video: { url: "u" } },
    });
  });

  it("verifies the mock's signed deliveries end to end", async () => {
    const received: Array<{ headers: Record<string, string>; body: string }> = [];
    const receiver = createServer((req, res) => {
      let body = "";
      req
        .on("data", (c) => (body += c))
        .on("end", () => (received.push({ headers: req.headers as Record<string, string>, body }), res.end()));
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()));
    const signed = createMockService({ cwd: root, key: KEY, queueMs: 0, runMs: 0, webhookSecret: secret });
    const { url } = await signed.listen();
    const c = createQueueClient<EndpointTypeMap>({ baseUrl: url, credentials: KEY, endpoints, pollIntervalMs: 5 });
    const hook = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
    await c.subscribe("example/model-c/text-to-video", { input: { prompt: "x" }, webhookUrl: hook });
    await signed.settled();
    expect(received).toHaveLength(1);
    expect(await verifyWebhook(received[0]!, secret)).toBe(true);
    expect(readWebhook(received[0]!.body)).toMatchObject({ failed: false, error: null });
    await signed.close();
    receiver.close();
  });
});

describe("24.7: the mock's in-process fetch is a client's fetch, as it is", () => {
  it.each([
    [
      "package createQueueClient",
      (f: MockService["fetch"]) =>
        createQueueClient<EndpointTypeMap>({
          baseUrl: "http://mock.invalid",
          credentials: KEY,
          endpoints,
          fetch: f,
          pollIntervalMs: 5,
        }),
    ],
    [
      "generated createClient",
      (f: MockService["fetch"]) =>
        createClient({ baseUrl: "http://mock.invalid", credentials: KEY, fetch: f, pollIntervalMs: 5 }),
    ],
  ] as const)("%s({ fetch: mock.fetch }): submit → result", async (_name, make) => {
    const local = createMockService({ cwd: root, key: KEY, queueMs: 0, runMs: 0 });
    try {
      const c = make(local.fetch);
      const { requestId } = await c.submit("example/model-c/text-to-video", { input: { prompt: "x" } });
      local.advance(requestId);
      local.advance(requestId);
      expect((await c.getPrediction(requestId)).status).toBe("succeeded");
      expect(await c.result("example/model-c/text-to-video", requestId)).toMatchObject({
        video: { content_type: "video/mp4" },
      });
      // 24.8 on the same wire: a per-call Prefer header reaches the mock
      const failed = await c
        .subscribe("example/model-c/text-to-video", {
          input: { prompt: "x" },
          headers: { prefer: "reason=provider_timeout" },
        })
        .catch((e: unknown) => e);
      expect(failed).toMatchObject({ name: "PredictionFailedError", reason: "provider_timeout" });
    } finally {
      await local.close();
    }
  });
});

describe("types follow the key", () => {
  it("24.5, 24.6: requestId on PredictionFailedError; statuses are spec 3's five, open-ended", () => {
    expectTypeOf<PredictionFailedError["requestId"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<QueueStatus["status"]>().toEqualTypeOf<PredictionStatus>();
    expectTypeOf<Awaited<ReturnType<QueueClient<EndpointTypeMap>["getPrediction"]>>["status"]>().toEqualTypeOf<
      "queued" | "running" | "succeeded" | "failed" | "cancelled" | (string & {})
    >();
    expectTypeOf<PredictionStatus>().toEqualTypeOf<
      "queued" | "running" | "succeeded" | "failed" | "cancelled" | (string & {})
    >();
  });

  it("input and output are typed per endpoint key", () => {
    const c = client();
    expectTypeOf(c.result<"example/model-c/text-to-video">).returns.resolves.toEqualTypeOf<ModelCTextToVideoOutput>();
    // @ts-expect-error: resolution "4K" is not an allowed value
    void c.submit("example/model-c/text-to-video", { input: { prompt: "x", resolution: "4K" } }).catch(() => undefined);
    // @ts-expect-error: keyframes-to-video requires keyframes
    void c.submit("example/model-a/keyframes-to-video", { input: { prompt: "x" } }).catch(() => undefined);
    // @ts-expect-error: not an endpoint key
    void c.submit("example/model-z/nothing", { input: {} }).catch(() => undefined);
  });
});

describe("platforms without the newer globals", () => {
  it("combines signals without AbortSignal.any, and aborts with an AbortError without DOMException", async () => {
    const { anySignal } = await import("../../src/client/platform.js");
    const { abortError } = await import("../../src/client/errors.js");
    const [a, b] = [new AbortController(), new AbortController()];
    vi.stubGlobal("AbortSignal", {});
    vi.stubGlobal("DOMException", undefined);
    try {
      const combined = anySignal([a.signal, b.signal]);
      expect(combined.aborted).toBe(false);
      b.abort(new Error("b"));
      expect([combined.aborted, (combined.reason as Error).message]).toEqual([true, "b"]);
      const error = abortError(combined);
      expect([error.name, error instanceof Error]).toEqual(["AbortError", true]);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("createQueueClient without a global fetch or a fetch option says so", () => {
    vi.stubGlobal("fetch", undefined);
    try {
      expect(() => createQueueClient<EndpointTypeMap>({ baseUrl, credentials: KEY, endpoints })).toThrow(
        "this platform has no global fetch: pass one as the client's `fetch` option",
      );
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
