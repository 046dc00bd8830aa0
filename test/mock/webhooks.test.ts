/**
 * Webhook deliveries of the mock (spec 6.2) against real receivers on 127.0.0.1: the receiver's
 * answer is read up to a cap (issue 23.10), and the mock's signatures verify with the client's
 * `verifyWebhook` and with the `standardwebhooks` library, one secret decoding for both (23.12).
 */
import { createServer, type Server } from "node:http";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { createMockService, DEFAULT_MAX_WEBHOOK_RESPONSE_BYTES, type MockService } from "../../src/mock/index.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const KEY = "test-key-0123";
const auth = { authorization: `Key ${KEY}`, "content-type": "application/json" };
const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
});

async function start(
  options: Parameters<typeof createMockService>[0] = {},
): Promise<{ mock: MockService; base: string }> {
  const mock = createMockService({ cwd: root, key: KEY, queueMs: 0, runMs: 0, ...options });
  closers.push(() => mock.close());
  const { url } = await mock.listen();
  return { mock, base: url };
}

async function serve(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  closers.push(() => {
    server.closeAllConnections();
    return new Promise<void>((r) => server.close(() => r()));
  });
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;
}

/** Submits with `?webhook=` and waits for the delivery. */
async function deliverOne(mock: MockService, base: string, hook: string) {
  const ack = (await fetch(`${base}/v1/queue/example/model-c/text-to-video?webhook=${encodeURIComponent(hook)}`, {
    method: "POST",
    headers: auth,
    body: JSON.stringify({ prompt: "x" }),
  }).then((r) => r.json())) as { request_id: string };
  mock.advance(ack.request_id);
  mock.advance(ack.request_id);
  await mock.settled();
  return mock.webhooks.find((w) => w.requestId === ack.request_id)!;
}

describe("the receiver's answer is read up to a cap (issue 23.10)", () => {
  it("a receiver answering an endless body: the delivery is recorded, the answer read no further than 64 KiB", async () => {
    let sent = 0;
    const receiver = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.writeHead(200, { "content-type": "text/plain" });
        const chunk = Buffer.alloc(64 * 1024, 97);
        const pump = () => {
          while (!res.destroyed && res.write(chunk)) sent += chunk.byteLength;
        };
        res.on("drain", pump);
        pump();
      });
    });
    const hook = await serve(receiver);
    const { mock, base } = await start();
    const delivery = await deliverOne(mock, base, hook);
    expect(delivery.status).toBe(200);
    expect(delivery.error).toBe(
      `the receiver's answer is over ${DEFAULT_MAX_WEBHOOK_RESPONSE_BYTES} bytes; the rest was not read`,
    );
    expect(DEFAULT_MAX_WEBHOOK_RESPONSE_BYTES).toBe(64 * 1024);
    // the mock stopped reading: the receiver could write no more than its socket buffers took
    expect(sent).toBeLessThan(64 * 1024 * 1024);
  });

  it("the cap is an option; an answer within it is recorded without an error", async () => {
    const receiver = createServer((req, res) => {
      req.resume();
      req.on("end", () => res.end("x".repeat(1000)));
    });
    const hook = await serve(receiver);
    const small = await start({ maxWebhookResponseBytes: 999 });
    const over = await deliverOne(small.mock, small.base, hook);
    expect([over.status, over.error]).toEqual([200, "the receiver's answer is over 999 bytes; the rest was not read"]);
    const { mock, base } = await start();
    const within = await deliverOne(mock, base, hook);
    expect([within.status, within.error]).toEqual([200, undefined]);
  });
});
