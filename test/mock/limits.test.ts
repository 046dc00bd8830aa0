/**
 * The mock's own limits (issue 23.11), over real HTTP on 127.0.0.1: memory bounded by bytes (a
 * prediction keeps what the wire needs, not its input), connection limits and header/body
 * deadlines, a JSON answer to malformed HTTP and to every wrong method, JSON content types only.
 */
import { connect } from "node:net";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { createMockService, type MockService } from "../../src/mock/index.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const KEY = "test-key-0123";
const auth = { authorization: `Key ${KEY}`, "content-type": "application/json" };
const services: MockService[] = [];

async function start(
  options: Parameters<typeof createMockService>[0] = {},
): Promise<{ mock: MockService; base: string }> {
  const mock = createMockService({ cwd: root, key: KEY, queueMs: 60_000, runMs: 60_000, ...options });
  services.push(mock);
  const { url } = await mock.listen();
  return { mock, base: url };
}
afterAll(async () => {
  await Promise.all(services.map((s) => s.close()));
});

async function submit(base: string, input: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}/v1/queue/example/model-c/text-to-video`, {
    method: "POST",
    headers: { ...auth, ...headers },
    body: typeof input === "string" ? input : JSON.stringify(input),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

/** Sends raw bytes on a new connection and resolves with everything the server sent back before closing. */
function raw(base: string, bytes: string, { end = false }: { end?: boolean } = {}): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let got = "";
    socket.on("data", (d) => (got += d.toString("latin1")));
    socket.on("close", () => resolve(got));
    socket.on("error", (e: NodeJS.ErrnoException) => (e.code === "ECONNRESET" ? resolve(got) : reject(e)));
    socket.write(bytes);
    if (end) socket.end();
  });
}

/** The status line and the parsed JSON body of a raw HTTP answer. */
function parse(answer: string): { status: number; headers: string; body: any } {
  const [head, body] = answer.split("\r\n\r\n", 2) as [string, string];
  return { status: Number(head.split(" ")[1]), headers: head.toLowerCase(), body: JSON.parse(body) };
}

describe("memory is bounded by bytes (issue 23.11)", () => {
  it("a prediction keeps no input: six 900 kB payloads fit in a 64 kB store", async () => {
    const { base } = await start({ maxStoredBytes: 64 * 1024 });
    const prompt = "x".repeat(900_000);
    for (let i = 0; i < 6; i++) {
      const ack = await submit(base, { prompt, duration: 7 });
      expect(ack.status).toBe(200);
    }
  });

  it("full of unfinished predictions: 503 QUEUE_FULL with Retry-After, JSON, and it keeps serving", async () => {
    const { mock, base } = await start({ maxStoredBytes: 8 * 1024 });
    const acks = [];
    for (let i = 0; i < 40; i++) acks.push(await submit(base, { prompt: "x" }));
    const full = acks.find((a) => a.status !== 200)!;
    expect(full.status).toBe(503);
    expect(full.body.error.code).toBe("QUEUE_FULL");
    expect(full.body.error.message).toMatch(/maxStoredBytes/);
    expect(full.headers.get("retry-after")).toBe("1");
    // once predictions finish, the oldest finished go and submits are accepted again
    mock.advance();
    mock.advance();
    const again = await submit(base, { prompt: "x" });
    expect(again.status).toBe(200);
    const first = acks[0]!.body.request_id;
    const gone = await fetch(`${base}/v1/predictions/${first}`, { headers: auth });
    expect(gone.status).toBe(404);
  });

  it("finished predictions go once retainMs old (the injected clock)", async () => {
    let clock = 1_000_000;
    const { base } = await start({ queueMs: 0, runMs: 0, retainMs: 10_000, now: () => clock });
    const old = await submit(base, { prompt: "x" });
    const status = async (id: string) => (await fetch(`${base}/v1/predictions/${id}`, { headers: auth })).status;
    clock += 9_000;
    await submit(base, { prompt: "x" });
    expect(await status(old.body.request_id)).toBe(200);
    clock += 2_000;
    const fresh = await submit(base, { prompt: "x" });
    expect(await status(old.body.request_id)).toBe(404);
    expect(await status(fresh.body.request_id)).toBe(200);
  });

  it("the output still follows the input's duration (all that is kept of the input)", async () => {
    const { mock, base } = await start({
      endpoints: [
        {
          key: "acme/clip/make",
          validate: () => [],
          output: { type: "object", required: ["duration"], properties: { duration: { type: "integer" } } },
        },
      ],
    });
    const ack = await fetch(`${base}/v1/queue/acme/clip/make`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ prompt: "x".repeat(100_000), duration: 7 }),
    }).then((r) => r.json() as Promise<any>);
    mock.advance(ack.request_id);
    mock.advance(ack.request_id);
    expect(await (await fetch(ack.response_url, { headers: auth })).json()).toEqual({ duration: 7 });
  });
});

describe("connections and deadlines of its own (issue 23.11)", () => {
  it("a connection past maxConnections is answered 503 in JSON and closed; the others are served", async () => {
    const { base } = await start({ maxConnections: 2 });
    const { hostname, port } = new URL(base);
    const held = [connect(Number(port), hostname), connect(Number(port), hostname)];
    await Promise.all(held.map((s) => new Promise((r) => s.once("connect", r))));
    const answer = parse(await raw(base, ""));
    expect(answer.status).toBe(503);
    expect(answer.body.error.code).toBe("TOO_MANY_CONNECTIONS");
    expect(answer.headers).toContain("retry-after: 1");
    await Promise.all(held.map((s) => new Promise<void>((r) => s.end(() => r()))));
    for (const s of held) s.destroy();
  });

  it("headers that never finish get a JSON 408 and the connection closes", async () => {
    const { base } = await start({ headersTimeoutMs: 50 });
    const answer = parse(await raw(base, "GET /v1/predictions/x HTTP/1.1\r\nHost: a\r\n"));
    expect([answer.status, answer.body.error.code]).toEqual([408, "REQUEST_TIMEOUT"]);
  });

  it("a body that never finishes gets a 408 and the connection closes", async () => {
    const { base } = await start({ headersTimeoutMs: 50, requestTimeoutMs: 100 });
    const answer = await raw(
      base,
      `POST /v1/queue/example/model-c/text-to-video HTTP/1.1\r\nHost: a\r\nAuthorization: Key ${KEY}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"prompt"`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });
});

describe("wrong methods, malformed HTTP and content types (issue 23.11)", () => {
  it("every wrong method on a known path is a JSON 405 with Allow, TRACE and CONNECT too", async () => {
    const { base } = await start();
    const path = "/v1/queue/example/model-c/text-to-video";
    for (const method of ["GET", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"]) {
      const response = await fetch(base + path, { method, headers: auth });
      expect([method, response.status, response.headers.get("allow")]).toEqual([method, 405, "POST"]);
    }
    const trace = parse(
      await raw(base, `TRACE ${path} HTTP/1.1\r\nHost: a\r\nAuthorization: Key ${KEY}\r\nConnection: close\r\n\r\n`),
    );
    expect([trace.status, trace.body.error.code]).toEqual([405, "METHOD_NOT_ALLOWED"]);
    expect(trace.headers).toContain("allow: post");
    const status = parse(
      await raw(
        base,
        `TRACE /v1/predictions/abc HTTP/1.1\r\nHost: a\r\nAuthorization: Key ${KEY}\r\nConnection: close\r\n\r\n`,
      ),
    );
    expect(status.status).toBe(405);
    expect(status.headers).toContain("allow: get");
    const connectAnswer = parse(await raw(base, "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n"));
    expect([connectAnswer.status, connectAnswer.body.error.code]).toEqual([405, "METHOD_NOT_ALLOWED"]);
    expect(connectAnswer.headers).toMatch(/allow: get, post, put/);
  });

  it("malformed HTTP gets a JSON 400 (or 431 for oversized headers), and it keeps serving", async () => {
    const { base } = await start();
    for (const bytes of [
      "GET / HTTX/1.1\r\n\r\n",
      "GET / HTTP/1.1\r\nbad header line\r\n\r\n",
      "GET /\x00 HTTP/1.1\r\n\r\n",
    ]) {
      const answer = parse(await raw(base, bytes));
      expect([answer.status, answer.body.error.code]).toEqual([400, "BAD_REQUEST"]);
    }
    const unknownMethod = parse(await raw(base, "FROB / HTTP/1.1\r\nHost: a\r\n\r\n"));
    expect(unknownMethod.status).toBe(405);
    expect(unknownMethod.headers).toContain("allow: get, post, put");
    const big = parse(await raw(base, `GET / HTTP/1.1\r\nHost: a\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`));
    expect([big.status, big.body.error.code]).toEqual([431, "HEADERS_TOO_LARGE"]);
    expect((await submit(base, { prompt: "x" })).status).toBe(200);
  });

  it("only application/json (parameters allowed) is accepted", async () => {
    const { base } = await start();
    expect((await submit(base, { prompt: "x" }, { "content-type": "application/json; charset=utf-8" })).status).toBe(
      200,
    );
    expect((await submit(base, { prompt: "x" }, { "content-type": "Application/JSON" })).status).toBe(200);
    for (const type of ["application/json-evil", "application/jsonx", "application/vnd.evil+json", "text/plain"]) {
      const answer = await submit(base, { prompt: "x" }, { "content-type": type });
      expect([type, answer.status, answer.body.error.code]).toEqual([type, 415, "UNSUPPORTED_MEDIA_TYPE"]);
    }
  });
});
