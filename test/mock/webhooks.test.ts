/**
 * Webhook deliveries of the mock (spec 6.2) against real receivers on 127.0.0.1: the receiver's
 * answer is read up to a cap (issue 23.10), and the mock's signatures verify with the client's
 * `verifyWebhook` and with the `standardwebhooks` library, one secret decoding for both (23.12).
 */
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Webhook } from "standardwebhooks";
import { afterAll, describe, expect, it } from "vitest";
import { verifyWebhook, webhookKey } from "../../src/client/index.js";
import {
  createMockService,
  DEFAULT_MAX_WEBHOOK_RESPONSE_BYTES,
  signWebhook,
  type MockService,
} from "../../src/mock/index.js";

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

describe("one secret decoding for the mock's signer and verifyWebhook (issue 23.12)", () => {
  /** A receiver that records each delivery's headers (as Node gives them) and raw body. */
  async function receiver() {
    const got: Array<{ headers: Record<string, string | string[] | undefined>; body: string }> = [];
    const server = createServer((req, res) => {
      let body = "";
      req.setEncoding("utf8");
      req.on("data", (c: string) => (body += c));
      req.on("end", () => {
        got.push({ headers: req.headers, body });
        res.end();
      });
    });
    return { got, hook: await serve(server) };
  }

  const SECRETS: Array<[string, string, () => Webhook]> = [
    [
      "a whsec_ secret",
      "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
      () => new Webhook("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"),
    ],
    [
      "a base64 secret without the prefix",
      "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
      () => new Webhook("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"),
    ],
    ["a secret that is not base64 (its bytes)", "test-secret", () => new Webhook("test-secret", { format: "raw" })],
  ];

  it.each(SECRETS)(
    "%s: a mock delivery verifies with verifyWebhook and with standardwebhooks",
    async (_, secret, library) => {
      const { got, hook } = await receiver();
      const { mock, base } = await start({ webhookSecret: secret });
      const delivery = await deliverOne(mock, base, hook);
      expect(delivery.status).toBe(200);
      const { headers, body } = got.at(-1)!;
      expect(await verifyWebhook({ headers, body }, secret)).toBe(true);
      expect(await verifyWebhook({ headers: new Headers(headers as Record<string, string>), body }, secret)).toBe(true);
      expect(library().verify(body, headers as Record<string, string>)).toMatchObject({ status: "succeeded" });
      // and a different secret does not verify
      expect(await verifyWebhook({ headers, body }, "other-secret")).toBe(false);
      expect(webhookKey(secret)).toEqual(
        secret === "test-secret"
          ? new TextEncoder().encode("test-secret")
          : new Uint8Array(Buffer.from("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "base64")),
      );
    },
  );

  /** A delivery signed with `secret` by the mock's signer, now. */
  function signed(secret: string, body = '{"request_id":"r","status":"succeeded"}') {
    return { headers: signWebhook(secret, body, Date.now()), body };
  }

  it("a non-finite or negative toleranceSeconds is a TypeError, not a disabled timestamp check", async () => {
    const delivery = signed("test-secret");
    for (const toleranceSeconds of [Number.NaN, Number.POSITIVE_INFINITY, -1])
      await expect(verifyWebhook(delivery, "test-secret", { toleranceSeconds })).rejects.toThrow(
        /toleranceSeconds must be a finite number/,
      );
    await expect(verifyWebhook(delivery, "test-secret", { toleranceSeconds: 0 })).resolves.toBe(true);
    const old = { ...delivery, headers: { ...delivery.headers, "webhook-timestamp": "1000" } };
    await expect(verifyWebhook(old, "test-secret", { toleranceSeconds: 1e9 })).resolves.toBe(false);
  });

  it("a malformed signature entry never matches (v1,<sig>,junk)", async () => {
    const { headers, body } = signed("test-secret");
    const sig = headers["webhook-signature"]!;
    for (const bad of [
      `${sig},junk`,
      `${sig},`,
      `${sig}!`,
      `v1 ${sig.slice(3)}`,
      `v1,,${sig.slice(3)}`,
      `V1,${sig.slice(3)}`,
    ])
      expect([
        bad,
        await verifyWebhook({ headers: { ...headers, "webhook-signature": bad }, body }, "test-secret"),
      ]).toEqual([bad, false]);
    // a well-formed entry beside another version's still verifies
    expect(
      await verifyWebhook({ headers: { ...headers, "webhook-signature": `v1a,xyz ${sig}` }, body }, "test-secret"),
    ).toBe(true);
  });

  it("every value of a repeated header is read: an array, or values Headers and Node joined", async () => {
    const { headers, body } = signed("test-secret");
    const sig = headers["webhook-signature"]!;
    const wrong = "v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";
    expect(
      await verifyWebhook({ headers: { ...headers, "webhook-signature": [wrong, sig] }, body }, "test-secret"),
    ).toBe(true);
    const joined = new Headers(headers);
    joined.delete("webhook-signature");
    joined.append("webhook-signature", wrong);
    joined.append("webhook-signature", sig);
    expect(joined.get("webhook-signature")).toBe(`${wrong}, ${sig}`);
    expect(await verifyWebhook({ headers: joined, body }, "test-secret")).toBe(true);
    // an id given twice with different values is not read as either
    expect(
      await verifyWebhook(
        { headers: { ...headers, "webhook-id": [headers["webhook-id"]!, "msg_other"] }, body },
        "test-secret",
      ),
    ).toBe(false);
  });

  it("a whsec_ secret that is not base64, or an empty secret, is a TypeError for both", async () => {
    const delivery = signed("test-secret");
    for (const secret of ["whsec_not*base64", "", "whsec_"]) {
      await expect(verifyWebhook(delivery, secret)).rejects.toThrow(TypeError);
      expect(() => createMockService({ cwd: root, webhookSecret: secret })).toThrow(TypeError);
    }
  });

  it("vsk mock --webhook-secret with a whsec_ secret that is not base64: one line, exit 2", async () => {
    const child = spawn(
      process.execPath,
      [join(root, "bin/vsk.mjs"), "mock", "--port", "0", "--webhook-secret", "whsec_x!"],
      {
        cwd: root,
      },
    );
    let stderr = "";
    child.stderr.on("data", (c) => (stderr += c));
    const code = await new Promise<number | null>((r) => child.on("exit", (c) => r(c)));
    expect([code, stderr]).toEqual([
      2,
      "vsk: mock: --webhook-secret: the webhook secret starts with whsec_ but the rest is not base64; copy the whole secret as given\n",
    ]);
  });
});
