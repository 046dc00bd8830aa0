/**
 * The mock service over real HTTP on 127.0.0.1 (ephemeral ports), read back with the runtime's own
 * readers, so "spec-faithful" is checked the way a client would check it. Each statement of the
 * spec the mock reproduces cites its section.
 */
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/index.js";
import { createMockService, type MockService } from "../../src/mock/index.js";
import { createAjv } from "../../src/rules/index.js";
import { readPrediction, readQueueStatus, readResultResponse, readWebhook } from "../../src/runtime/index.js";
import { readSnapshot } from "../../src/snapshot/index.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const KEY = "test-key-0123";
const auth = { authorization: `Key ${KEY}`, "content-type": "application/json" };

const VALID: Record<string, unknown> = {
  "example/model-a/text-to-video": { prompt: "A paper boat" },
  "example/model-a/keyframes-to-video": {
    prompt: "A paper boat",
    keyframes: [
      { image_url: "https://cdn.example.com/0.png", frame_index: 0 },
      { image_url: "https://cdn.example.com/1.png", frame_index: 100 },
    ],
    duration: 5,
  },
  "example/model-b/reference-to-video": { prompt: "use image 1", reference_images: ["https://cdn.example.com/r.png"] },
  "example/model-c/text-to-video": { prompt: "A paper boat", duration: -1 },
};

let mock: MockService;
let base: string;
const services: MockService[] = [];

async function start(
  options: Parameters<typeof createMockService>[0] = {},
): Promise<{ mock: MockService; base: string }> {
  const service = createMockService({ cwd: root, key: KEY, queueMs: 60_000, runMs: 60_000, ...options });
  services.push(service);
  const { url } = await service.listen();
  return { mock: service, base: url };
}

async function submit(
  at: string,
  key: string,
  input: unknown,
  headers: Record<string, string> = {},
  query = "",
): Promise<{ status: number; body: any }> {
  const response = await fetch(`${at}/v1/queue/${key}${query}`, {
    method: "POST",
    headers: { ...auth, ...headers },
    body: JSON.stringify(input),
  });
  return { status: response.status, body: await response.json() };
}

async function get(url: string): Promise<{ status: number; text: string; type: string | null }> {
  const response = await fetch(url, { headers: auth });
  return { status: response.status, text: await response.text(), type: response.headers.get("content-type") };
}

beforeAll(async () => {
  ({ mock, base } = await start());
});
afterAll(async () => {
  await Promise.all(services.map((s) => s.close()));
});

describe("life cycle and endpoints (spec 3, 4.1, 4.6; QUEUE.md)", () => {
  const outputs = new Map(
    readSnapshot(loadConfig(root).snapshotDir, loadConfig(root).models).flatMap((m) =>
      m.schema.endpoints.map((e) => [e.key, e.output] as const),
    ),
  );
  it.each(Object.keys(VALID))("%s: queued → running → succeeded, output conforms to the output schema", async (key) => {
    const ack = await submit(base, key, VALID[key]);
    expect(ack.status).toBe(200);
    expect(ack.body).toMatchObject({ status: "queued", request_id: expect.any(String) });
    const [owner, name] = key.split("/");
    expect(ack.body.status_url).toBe(`${base}/v1/queue/${owner}/${name}/requests/${ack.body.request_id}/status`);
    expect(ack.body.response_url).toBe(`${base}/v1/queue/${owner}/${name}/requests/${ack.body.request_id}`);

    const queued = JSON.parse((await get(ack.body.status_url)).text);
    expect(queued).toMatchObject({ request_id: ack.body.request_id, status: "queued", error: null });
    expect(queued.queue_position).toEqual(expect.any(Number));
    // spec 3 rule 4: a queued prediction's result is a generic 400
    const early = await get(ack.body.response_url);
    expect(early.status).toBe(400);
    expect(readResultResponse({ status: early.status, body: early.text })).toMatchObject({ kind: "api_error" });

    mock.advance(ack.body.request_id);
    expect(JSON.parse((await get(ack.body.status_url)).text)).toMatchObject({ status: "running", error: null });
    mock.advance(ack.body.request_id);
    const done = JSON.parse((await get(`${ack.body.status_url}?logs=1`)).text);
    expect(done).toMatchObject({ status: "succeeded", error: null });
    expect(done.logs.map((l: { message: string }) => l.message)).toEqual(["queued", "running", "succeeded"]);

    const result = await get(ack.body.response_url);
    expect(result.status).toBe(200);
    const output = JSON.parse(result.text);
    const validate = createAjv({ ownProperties: false }).compile(outputs.get(key)!);
    expect(validate(output), JSON.stringify(validate.errors)).toBe(true);
    expect(output.video).toMatchObject({ content_type: "video/mp4", url: expect.stringContaining(base) });

    // spec 4.6: error is null when the prediction did not fail (9.2 rule 1)
    const record = JSON.parse((await get(`${base}/v1/predictions/${ack.body.request_id}`)).text);
    expect(record).toEqual({ id: ack.body.request_id, status: "succeeded", error: null });
  });

  it("started where no config is found, it says so where a request names none of its endpoints (never silently the examples)", async () => {
    const away = mkdtempSync(join(tmpdir(), "vsk-mock-away-"));
    const lost = createMockService({ cwd: away });
    services.push(lost);
    const answer = await lost.fetch(
      new Request("http://mock.test/v1/queue/acme/vid-x/text-to-video", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Key k" },
        body: '{"prompt":"x"}',
      }),
    );
    expect(answer.status).toBe(404);
    const text = JSON.stringify(await answer.json());
    expect(text).toContain("no endpoint acme/vid-x/text-to-video; endpoints: example/model-a/");
    expect(text).toContain("no vsk.config.json");
    expect(text).toContain("the mock serves the built-in example models");
    // with the project's config: its endpoints, and no such note
    const home = createMockService({ cwd: root });
    services.push(home);
    const found = await home.fetch(
      new Request("http://mock.test/v1/queue/acme/vid-x/text-to-video", {
        method: "POST",
        headers: auth,
        body: '{"prompt":"x"}',
      }),
    );
    expect(JSON.stringify(await found.json())).not.toContain("no vsk.config.json");
  });

  it("runs on its own clock: queued for queueMs, running for runMs, then the outcome", async () => {
    let now = 1_000_000;
    const timed = createMockService({ cwd: root, queueMs: 100, runMs: 200, now: () => now });
    services.push(timed);
    const call = (path: string, init?: RequestInit) =>
      timed.fetch(new Request(`http://mock.test${path}`, { ...init, headers: { ...auth, ...init?.headers } }));
    const ack = (await (
      await call("/v1/queue/example/model-c/text-to-video", { method: "POST", body: '{"prompt":"x"}' })
    ).json()) as { request_id: string };
    const status = async () => ((await (await call(`/v1/predictions/${ack.request_id}`)).json()) as any).status;
    expect(await status()).toBe("queued");
    now += 100;
    expect(await status()).toBe("running");
    now += 199;
    expect(await status()).toBe("running");
    now += 1;
    expect(await status()).toBe("succeeded");
  });

  it("cancel: an unfinished prediction becomes cancelled; its result and a second cancel are generic 400s", async () => {
    const ack = await submit(base, "example/model-c/text-to-video", { prompt: "x" });
    const cancel = await fetch(ack.body.cancel_url, { method: "PUT", headers: auth });
    expect([cancel.status, await cancel.json()]).toEqual([200, { status: "cancelled" }]);
    const status = JSON.parse((await get(ack.body.status_url)).text);
    expect(status).toMatchObject({ status: "cancelled", error: null });
    const result = await get(ack.body.response_url);
    expect(result.status).toBe(400);
    expect(JSON.parse(result.text).error.code).toBe("REQUEST_NOT_COMPLETED");
    const again = await fetch(ack.body.cancel_url, { method: "PUT", headers: auth });
    expect(again.status).toBe(400);
  });
});

describe("authentication (spec 5)", () => {
  it("no Authorization, a Bearer token or the wrong key: 401 with a JSON error body", async () => {
    const attempts: Record<string, string>[] = [{}, { authorization: `Bearer ${KEY}` }, { authorization: "Key wrong" }];
    for (const headers of attempts) {
      const response = await fetch(`${base}/v1/queue/example/model-c/text-to-video`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: "{}",
      });
      expect(response.status).toBe(401);
      const body = await response.json();
      expect(body).toMatchObject({
        error: { code: "UNAUTHORIZED", message: expect.any(String) },
        timestamp: expect.any(String),
      });
      expect(JSON.stringify(body)).not.toContain(KEY);
    }
  });
});

describe("an invalid payload is a prediction failure (spec 7.2 input_validation_failed)", () => {
  it("acknowledged, then failed with invalid_input / input_validation_failed / retryable false, naming the field", async () => {
    const ack = await submit(base, "example/model-b/reference-to-video", {
      file_url: "https://docs.example.com/a.pdf",
    });
    expect(ack.status).toBe(200);
    mock.advance(ack.body.request_id);
    mock.advance(ack.body.request_id);
    const status = JSON.parse((await get(ack.body.status_url)).text);
    const reading = readQueueStatus(status);
    expect(reading.error).toMatchObject({ code: "invalid_input", reason: "input_validation_failed", retryable: false });
    expect(reading.error!.message).toMatch(/file_url: requires enable_thinking: true/);
  });

  it("--strict-submit answers 422 at submit and creates no prediction", async () => {
    const strict = await start({ strictSubmit: true });
    const ack = await submit(strict.base, "example/model-c/text-to-video", { prompt: "x", duration: 2 });
    expect(ack.status).toBe(422);
    expect(ack.body.error.message).toMatch(/duration: 2 is not allowed/);
    expect(ack.body.error.diagnostics).toEqual([{ pointer: "/duration", message: expect.stringMatching(/^duration/) }]);
    expect(strict.mock.requests.at(-1)).toEqual({
      method: "POST",
      path: "/v1/queue/example/model-c/text-to-video",
      status: 422,
    });
  });
});

describe("the result endpoint (spec 7.3)", () => {
  it("failed: 400 PREDICTION_FAILED, details identical to the prediction's error, message repeated, its own timestamp", async () => {
    const ack = await submit(
      base,
      "example/model-a/text-to-video",
      { prompt: "x" },
      {
        prefer: "outcome=failed, reason=provider_timeout",
      },
    );
    mock.advance(ack.body.request_id);
    mock.advance(ack.body.request_id);
    const record = JSON.parse((await get(`${base}/v1/predictions/${ack.body.request_id}`)).text);
    const result = await get(ack.body.response_url);
    expect(result.status).toBe(400);
    const body = JSON.parse(result.text);
    expect(body.error.code).toBe("PREDICTION_FAILED");
    expect(body.error.details).toEqual(record.error);
    expect(body.error.message).toBe(record.error.message);
    expect(body.timestamp).toEqual(expect.any(String));
    expect(record.error).toMatchObject({ code: "task_timeout", reason: "provider_timeout", retryable: true });
    // spec 6.3, 7.3: the same failure reads the same on every channel
    const fromResult = readResultResponse({ status: result.status, body: result.text });
    expect(fromResult.kind).toBe("prediction_failed");
    if (fromResult.kind === "prediction_failed") expect(fromResult.error).toEqual(readPrediction(record).error);
  });

  it("Prefer overrides code, retryable and message", async () => {
    const ack = await submit(
      base,
      "example/model-a/text-to-video",
      { prompt: "x" },
      {
        prefer: 'outcome=failed, reason=provider_unavailable, retryable=false, message="The provider is down"',
      },
    );
    mock.advance(ack.body.request_id);
    mock.advance(ack.body.request_id);
    const record = JSON.parse((await get(`${base}/v1/predictions/${ack.body.request_id}`)).text);
    expect(record.error).toMatchObject({
      code: "service_provider_error",
      reason: "provider_unavailable",
      retryable: false,
      message: "The provider is down",
    });
  });

  it("input_fetch_failed echoes the URL without its query string (7.2 rule 3)", async () => {
    const ack = await submit(
      base,
      "example/model-b/reference-to-video",
      { reference_images: ["https://bucket.example.com/a.png?X-Amz-Signature=SECRET"] },
      { prefer: "outcome=failed, reason=input_fetch_failed" },
    );
    mock.advance(ack.body.request_id);
    mock.advance(ack.body.request_id);
    const text = (await get(ack.body.response_url)).text;
    expect(text).toContain("https://bucket.example.com/a.png");
    expect(text).not.toContain("SECRET");
    expect(JSON.parse(text).error.details).toMatchObject({ code: "invalid_input", retryable: false });
  });

  it("edge-error: the result endpoint answers 502 in plain text, as a CDN edge does", async () => {
    const ack = await submit(base, "example/model-a/text-to-video", { prompt: "x" }, { prefer: "outcome=edge-error" });
    mock.advance(ack.body.request_id);
    mock.advance(ack.body.request_id);
    const result = await get(ack.body.response_url);
    expect(result.status).toBe(502);
    expect(result.type).toMatch(/^text\/plain/);
    expect(readResultResponse({ status: result.status, body: result.text }).kind).toBe("edge_error");
  });

  it("unknown-code and plain-text-failure read as the spec's open sets and 9.2 rule 3 say", async () => {
    const unknown = await submit(
      base,
      "example/model-a/text-to-video",
      { prompt: "x" },
      { prefer: "outcome=unknown-code" },
    );
    const plain = await submit(
      base,
      "example/model-a/text-to-video",
      { prompt: "x" },
      {
        prefer: "outcome=plain-text-failure",
      },
    );
    mock.advance();
    mock.advance();
    const u = readPrediction(JSON.parse((await get(`${base}/v1/predictions/${unknown.body.request_id}`)).text));
    expect(u.error).toMatchObject({ code: "internal_server_error", rawCode: "provider_capacity_exhausted" });
    expect(u.error!.reason).toBeUndefined();
    const p = readPrediction(JSON.parse((await get(`${base}/v1/predictions/${plain.body.request_id}`)).text));
    expect(p.error).toMatchObject({ code: "unknown_error_code", message: "upstream worker exited with status 137" });
  });

  it("a Prefer the mock cannot honour is a 400, never silently ignored", async () => {
    for (const prefer of ["outcome=exploded", "outcome=failed, reason=made_up", "outcome=failed, retryable=maybe"]) {
      const ack = await submit(base, "example/model-a/text-to-video", { prompt: "x" }, { prefer });
      expect(ack.status).toBe(400);
      expect(ack.body.error.code).toBe("INVALID_PREFER");
    }
  });
});

describe("spec 9.2: GET /v1/predictions/{id} before 17 August 2026", () => {
  it("--pre-9-2 answers an empty object for a prediction that did not fail; failures are unchanged", async () => {
    const old = await start({ pre92: true });
    const ok = await submit(old.base, "example/model-c/text-to-video", { prompt: "x" });
    const bad = await submit(
      old.base,
      "example/model-c/text-to-video",
      { prompt: "x" },
      { prefer: "reason=moderation_blocked" },
    );
    old.mock.advance();
    old.mock.advance();
    const okRecord = JSON.parse((await get(`${old.base}/v1/predictions/${ok.body.request_id}`)).text);
    expect(okRecord.error).toEqual({});
    expect(readPrediction(okRecord).error).toBeNull();
    const badRecord = JSON.parse((await get(`${old.base}/v1/predictions/${bad.body.request_id}`)).text);
    expect(badRecord.error).toMatchObject({ code: "unsafe_content", reason: "moderation_blocked" });
  });
});

describe("webhooks (spec 6.2; Standard Webhooks signatures)", () => {
  const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
  let receiver: Server;
  let receiverUrl: string;
  const received: Array<{ headers: Record<string, string>; body: string }> = [];
  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        received.push({ headers: req.headers as Record<string, string>, body });
        res.end("ok");
      });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  });
  afterAll(() => new Promise<void>((r) => receiver.close(() => r())));
  afterEach(() => void received.splice(0));

  it("failed: the error object; succeeded: the output and no error key; both signed and verifiable", async () => {
    const signed = await start({ webhookSecret: secret });
    const q = `?webhook=${encodeURIComponent(receiverUrl)}`;
    const ok = await submit(signed.base, "example/model-c/text-to-video", { prompt: "x" }, {}, q);
    const bad = await submit(
      signed.base,
      "example/model-c/text-to-video",
      { prompt: "x" },
      {
        prefer: "reason=provider_rate_limited",
      },
      q,
    );
    signed.mock.advance();
    signed.mock.advance();
    await signed.mock.settled();
    expect(received).toHaveLength(2);
    const verifier = new Webhook(secret);
    const bodies = received.map((r) => verifier.verify(r.body, r.headers) as Record<string, unknown>);
    const success = bodies.find((b) => b.request_id === ok.body.request_id)!;
    const failure = bodies.find((b) => b.request_id === bad.body.request_id)!;
    expect(success.status).toBe("succeeded");
    expect("error" in success).toBe(false);
    expect(success.payload).toMatchObject({ video: { content_type: "video/mp4" } });
    expect(readWebhook(success)).toMatchObject({ failed: false, error: null, notes: [] });
    expect(failure).toMatchObject({ status: "failed", error: { code: "service_provider_error", retryable: true } });
    // spec 6.3: the same error object as the status endpoint
    const record = JSON.parse((await get(`${signed.base}/v1/predictions/${bad.body.request_id}`)).text);
    expect(failure.error).toEqual(record.error);
    // a tampered body fails verification
    expect(() => verifier.verify(received[0]!.body.replace("x", "y") + " ", received[0]!.headers)).toThrow();
    expect(signed.mock.webhooks.map((w) => w.status)).toEqual([200, 200]);
  });

  it("a webhook URL that is not loopback is refused at submit", async () => {
    const ack = await submit(
      base,
      "example/model-c/text-to-video",
      { prompt: "x" },
      {},
      "?webhook=https://example.com/hook",
    );
    expect(ack.status).toBe(400);
    expect(ack.body.error.code).toBe("WEBHOOK_NOT_ALLOWED");
  });
});

describe("bad input never stops it", () => {
  it("malformed JSON 400, over 1 MiB 413, unknown path, model or endpoint 404 listing what exists, wrong method 405", async () => {
    const post = async (path: string, body: string) => {
      const response = await fetch(`${base}${path}`, { method: "POST", headers: auth, body });
      return { status: response.status, json: async () => (await response.json()) as any };
    };
    const malformed = await post("/v1/queue/example/model-c/text-to-video", '{"prompt": ');
    expect([malformed.status, (await malformed.json()).error.code]).toEqual([400, "INVALID_JSON"]);
    const huge = await post(
      "/v1/queue/example/model-c/text-to-video",
      JSON.stringify({ prompt: "x".repeat(1_100_000) }),
    );
    expect([huge.status, (await huge.json()).error.code]).toEqual([413, "PAYLOAD_TOO_LARGE"]);
    const unknownModel = await post("/v1/queue/nobody/nothing/text-to-video", "{}");
    expect(unknownModel.status).toBe(404);
    expect((await unknownModel.json()).error.endpoints).toContain("example/model-a/keyframes-to-video");
    const unknownPath = await get(`${base}/v2/elsewhere`);
    expect(unknownPath.status).toBe(404);
    expect(JSON.parse(unknownPath.text).error.message).toMatch(/example\/model-c\/text-to-video/);
    const wrongMethod = await fetch(`${base}/v1/queue/example/model-c/text-to-video`, { headers: auth });
    expect([wrongMethod.status, wrongMethod.headers.get("allow")]).toEqual([405, "POST"]);
    const unknownId = await get(`${base}/v1/predictions/nope`);
    expect(unknownId.status).toBe(404);
    // still serving
    expect((await submit(base, "example/model-c/text-to-video", { prompt: "x" })).status).toBe(200);
  });

  it("300 concurrent submits get distinct request ids and all finish", async () => {
    const acks = await Promise.all(
      Array.from({ length: 300 }, (_, i) => submit(base, "example/model-c/text-to-video", { prompt: `p${i}` })),
    );
    const ids = new Set(acks.map((a) => a.body.request_id));
    expect(ids.size).toBe(300);
    mock.advance();
    mock.advance();
    const statuses = await Promise.all(
      [...ids].map(async (id) => JSON.parse((await get(`${base}/v1/predictions/${id}`)).text).status),
    );
    expect(new Set(statuses)).toEqual(new Set(["succeeded"]));
  });

  it("keeps a bounded number of predictions: the oldest finished ones go first", async () => {
    const small = await start({ maxPredictions: 5, queueMs: 0, runMs: 0 });
    const acks = [];
    for (let i = 0; i < 8; i++) acks.push(await submit(small.base, "example/model-c/text-to-video", { prompt: "x" }));
    expect(acks.every((a) => a.status === 200)).toBe(true);
    expect((await get(`${small.base}/v1/predictions/${acks[0]!.body.request_id}`)).status).toBe(404);
    expect((await get(`${small.base}/v1/predictions/${acks[7]!.body.request_id}`)).status).toBe(200);
  });
});

describe("vsk mock (the CLI)", () => {
  it("prints where it listens, logs each request on stderr without the query string, exits 0 on SIGTERM", async () => {
    const child = spawn(process.execPath, [join(root, "dist/cli/vsk.js"), "mock", "--port", "0", "--key", KEY], {
      cwd: root,
    });
    let stdout = "";
    let stderr = "";
    child.stderr.on("data", (c) => (stderr += c));
    const url = await new Promise<string>((resolveUrl, reject) => {
      child.stdout.on("data", (c) => {
        stdout += c;
        const m = /^vsk mock listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(stdout);
        if (m) resolveUrl(m[1]!);
      });
      child.on("exit", () => reject(new Error(`exited early: ${stderr}`)));
    });
    const ack = await submit(
      url,
      "example/model-c/text-to-video",
      { prompt: "x" },
      {},
      "?webhook=http://127.0.0.1:9/x&sig=SECRET",
    );
    expect(ack.status).toBe(200);
    const code = await new Promise<number | null>((r) => {
      child.on("exit", (c) => r(c));
      setTimeout(() => child.kill("SIGTERM"), 100);
    });
    expect(code).toBe(0);
    expect(stderr).toBe(`POST /v1/queue/example/model-c/text-to-video 200 ${ack.body.request_id}\n`);
    expect(stderr).not.toContain(KEY);
  });

  it("a bad flag is one line and exit 2", async () => {
    const child = spawn(process.execPath, [join(root, "dist/cli/vsk.js"), "mock", "--port", "70000"], {
      cwd: root,
    });
    let stderr = "";
    child.stderr.on("data", (c) => (stderr += c));
    const code = await new Promise<number | null>((r) => child.on("exit", (c) => r(c)));
    expect(code).toBe(2);
    expect(stderr).toBe("vsk: mock: --port must be a whole number from 0 to 65535 (see `vsk mock --help`)\n");
  });
});
