/**
 * Issue 26: the preflight in the queue client (`submit(key, { input, preflight: true })`, the
 * package's and the generated `createClient`) and in the mock (`fetchInputs`), end to end over
 * real HTTP on 127.0.0.1: a media server serving the committed fixtures, and the mock service.
 */
import { spawn, spawnSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints, type EndpointTypeMap } from "../../generated/index.mjs";
import { createClient } from "../../generated/client.mjs";
import {
  createQueueClient,
  PredictionFailedError,
  RequestValidationError,
  type PreflightCheck,
} from "../../src/client/index.js";
import { createMockService, type MockService } from "../../src/mock/index.js";
import { preflight } from "../../src/index.js";
import { startMediaServer, type MediaServer } from "./media-server.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const KEY = "sk_live_0123456789abcdef";
const SIGNATURE = "SIGSECRET0123";
const MODEL_B = "example/model-b/reference-to-video";

let media: MediaServer;
let mock: MockService;
let baseUrl: string;
beforeAll(async () => {
  media = await startMediaServer();
  mock = createMockService({
    cwd: root,
    key: KEY,
    queueMs: 0,
    runMs: 0,
    fetchInputs: { allowHosts: [media.host] },
  });
  ({ url: baseUrl } = await mock.listen());
});
afterAll(async () => {
  await mock.close();
  await media.close();
});

const input = (image: string) => ({ prompt: "a cat", reference_images: [`${media.origin}${image}`] });
const EXPIRED = `/status/403?X-Amz-Credential=AKIDEXAMPLE&X-Amz-Signature=${SIGNATURE}`;
const check: PreflightCheck = (key, payload) => preflight(key, payload, { allowHosts: [media.host] });
const submits = () => mock.requests.filter((r) => r.method === "POST").length;

describe("the client's preflight", () => {
  it("submit(…, { preflight: true }) throws RequestValidationError with the diagnostics, and sends nothing", async () => {
    const client = createQueueClient<EndpointTypeMap>({ baseUrl, credentials: KEY, endpoints, preflight: check });
    const before = submits();
    const error = await client.submit(MODEL_B, { input: input(EXPIRED), preflight: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    const [d] = (error as RequestValidationError).diagnostics;
    expect(d).toMatchObject({
      rule: "input-fetch-failed",
      pointer: "/reference_images/0",
      reason: "input_fetch_failed",
      retryable: false,
    });
    expect((error as Error).message).toContain("HTTP 403 Forbidden; a presigned link may have expired");
    expect(JSON.stringify(error) + (error as Error).message).not.toContain(SIGNATURE);
    expect(submits()).toBe(before);
    // the media host never sees the API key
    for (const r of media.requests) expect(JSON.stringify(r.headers)).not.toContain(KEY);

    // subscribe too, and a GIF (image-format) as well
    const gif = await client
      .subscribe(MODEL_B, { input: input("/media/image.gif"), preflight: true })
      .catch((e: unknown) => e);
    expect((gif as RequestValidationError).diagnostics.map((x) => x.rule)).toEqual(["image-format"]);
    expect(submits()).toBe(before);
    // a file that passes is submitted
    await expect(client.submit(MODEL_B, { input: input("/media/image.png"), preflight: true })).resolves.toMatchObject({
      requestId: expect.any(String),
    });
  });

  it("preflight: true without the client's preflight option says what to pass", async () => {
    const client = createQueueClient<EndpointTypeMap>({ baseUrl, credentials: KEY, endpoints });
    await expect(client.submit(MODEL_B, { input: input(EXPIRED), preflight: true })).rejects.toThrow(
      "preflight: true needs the client's preflight option",
    );
  });

  it("the generated createClient takes the same option", async () => {
    const client = createClient({ baseUrl, credentials: KEY, preflight: check });
    const error = await client.submit(MODEL_B, { input: input(EXPIRED), preflight: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).diagnostics[0]).toMatchObject({ rule: "input-fetch-failed" });
  });
});

describe("the mock's fetchInputs", () => {
  const client = () => createQueueClient<EndpointTypeMap>({ baseUrl, credentials: KEY, endpoints, pollIntervalMs: 5 });

  it("an expired link fails the prediction: PredictionFailedError, input_fetch_failed, not retryable", async () => {
    const error = await client()
      .subscribe(MODEL_B, { input: input(EXPIRED) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PredictionFailedError);
    expect(error).toMatchObject({ code: "invalid_input", reason: "input_fetch_failed", retryable: false });
    expect((error as Error).message).toContain("HTTP 403 Forbidden");
    expect((error as Error).message).not.toContain(SIGNATURE);
    // the mock speaks as the service, not as a preflight foretelling it (issue 37.8)
    expect((error as PredictionFailedError).message).toContain(
      `reference_images[0]: could not fetch ${media.origin}/status/403: HTTP 403 Forbidden; a presigned link may have expired`,
    );
    expect((error as Error).message).not.toContain("the service will fail this prediction");
  });

  it("a 503 from the media host is retryable; a file that fetches fine succeeds", async () => {
    const error = await client()
      .subscribe(MODEL_B, { input: input("/status/503") })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: "input_fetch_failed", retryable: true });
    await expect(client().subscribe(MODEL_B, { input: input("/media/image.png") })).resolves.toBeDefined();
  });
});

describe("vsk mock --fetch-inputs", () => {
  it("through bin/vsk.mjs: an expired link fails the prediction (not retryable), a good file succeeds; the local media server allowed by --fetch-inputs-allow-host", async () => {
    const child = spawn(
      process.execPath,
      [
        join(root, "bin/vsk.mjs"),
        "mock",
        "--port",
        "0",
        "--key",
        KEY,
        "--queue-ms",
        "0",
        "--run-ms",
        "0",
        "--fetch-inputs",
        "--fetch-inputs-allow-host",
        media.host,
      ],
      { cwd: root, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stderr.on("data", (c) => (stderr += c));
    try {
      await new Promise<void>((ready, fail) => {
        child.on("exit", (code) => fail(new Error(`vsk mock exited ${code}: ${stderr}`)));
        child.stdout.on("data", (c) => {
          stdout += c;
          if (stdout.includes("listening on")) ready();
        });
      });
      const url = /listening on (\S+)/.exec(stdout)![1]!;
      const client = createQueueClient<EndpointTypeMap>({
        baseUrl: url,
        credentials: KEY,
        endpoints,
        pollIntervalMs: 5,
      });
      const error = await client.subscribe(MODEL_B, { input: input(EXPIRED) }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PredictionFailedError);
      expect(error).toMatchObject({ reason: "input_fetch_failed", retryable: false });
      await expect(client.subscribe(MODEL_B, { input: input("/media/image.png") })).resolves.toBeDefined();
      expect(stdout + stderr).not.toContain(SIGNATURE);
      // a host it may not fetch from: the advice names the mock's own flag, in the service's voice (issue 37.8)
      const refused = await client
        .subscribe(MODEL_B, { input: { prompt: "a cat", reference_images: ["http://0.0.0.0:9/a.png"] } })
        .catch((e: unknown) => e);
      expect((refused as Error).message).toContain(
        "reference_images[0]: could not fetch http://0.0.0.0:9/a.png: its host 0.0.0.0 is an unspecified address (0.0.0.0) the service may not fetch from; use a publicly reachable URL (for a local mirror, allow the host: --fetch-inputs-allow-host 0.0.0.0:9)",
      );
    } finally {
      child.kill("SIGTERM");
    }
  });

  it("--fetch-inputs-allow-host without --fetch-inputs is a usage error", () => {
    const run = spawnSync(
      process.execPath,
      [join(root, "bin/vsk.mjs"), "mock", "--port", "0", "--fetch-inputs-allow-host", "127.0.0.1"],
      {
        cwd: root,
        encoding: "utf8",
        timeout: 60_000,
      },
    );
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("--fetch-inputs-allow-host needs --fetch-inputs");
  });
});
