/**
 * Issue 23 (client part): what a hostile or broken server can make the client do. Real servers
 * on 127.0.0.1, through the package client (`src/client`) and the generated `createClient`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createClient } from "../../generated/client.mjs";
import { endpoints, type EndpointTypeMap } from "../../generated/index.mjs";
import { createQueueClient, type EdgeError, type ResultNotReadyError } from "../../src/client/index.js";

const KEY = "sk_live_echoed_0123456789abcdef";
const C = "example/model-c/text-to-video";

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;
const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise((r) => (s.closeAllConnections(), s.close(r))))));

/** A server on 127.0.0.1 whose answer is chosen by the first path segment (the case name). */
async function serve(routes: Record<string, Handler>): Promise<string> {
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk));
    req.on("end", () => {
      const name = (req.url ?? "/").split("/")[1] ?? "";
      (routes[name] ?? ((_q, r) => r.writeHead(404).end()))(req, res, body);
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

const json = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));

/** The key a request carried (`Authorization: Key …`), echoed back as a careless server would. */
const keyOf = (req: IncomingMessage) => String(req.headers.authorization).replace(/^Key /, "");

const factories = {
  "package createQueueClient": (baseUrl: string) =>
    createQueueClient<EndpointTypeMap>({
      baseUrl,
      credentials: KEY,
      endpoints,
      retry: { retries: 0 },
      pollIntervalMs: 5,
    }),
  "generated createClient": (baseUrl: string) =>
    createClient({ baseUrl, credentials: () => KEY, retry: { retries: 0 }, pollIntervalMs: 5 }),
};

// the generated client runs on its own copies of the classes: errors are told apart by name here
/** Every way a caller may print an error. */
function printed(error: unknown): string[] {
  return [
    JSON.stringify(error),
    inspect(error, { depth: Infinity, showHidden: true }),
    String((error as Error).stack),
    String(error),
  ];
}

describe.each(Object.entries(factories))("23.1: no API key in any error field (%s)", (_name, make) => {
  let url: string;
  // set-up, not a test (issue 42.4): each test below runs alone too
  beforeAll(async () => {
    url = await serve({
      json401: (req, res) =>
        json(res, 401, { error: { code: `BAD_${keyOf(req)}`, message: `key ${keyOf(req)} is not valid` } }),
      text502: (req, res) =>
        res.writeHead(502, { "content-type": "text/plain" }).end(`upstream saw Authorization: Key ${keyOf(req)}`),
      // the key straddles the snippet's 200-character cut
      cut502: (req, res) => res.writeHead(502).end(`${"x".repeat(190)}${keyOf(req)} and more`),
      notready: (req, res) => json(res, 400, { error: { code: `NOT_READY_${keyOf(req)}`, message: keyOf(req) } }),
      failed: (req, res) =>
        json(res, 400, {
          error: {
            code: "PREDICTION_FAILED",
            message: `boom ${keyOf(req)}`,
            details: { code: keyOf(req), reason: keyOf(req), message: `boom ${keyOf(req)}`, timestamp: "t" },
          },
        }),
      logs: (req, res) =>
        req.method === "POST"
          ? json(res, 200, { request_id: "r1" })
          : json(res, 200, { request_id: "r1", status: "running", logs: [{ message: keyOf(req) }], error: null }),
    });
  });

  const cases: Array<[string, (c: ReturnType<typeof make>) => Promise<unknown>, (e: unknown) => void]> = [
    [
      "ApiRequestError.code and message",
      (c) => c.submit(C, { input: { prompt: "x" } }),
      (e) => expect((e as Error).name).toBe("ApiRequestError"),
    ],
    [
      "EdgeError.snippet",
      (c) => c.submit(C, { input: { prompt: "x" } }),
      (e) => expect((e as Error).name).toBe("EdgeError"),
    ],
    [
      "EdgeError.snippet cut inside the key",
      (c) => c.getPrediction("p1"),
      (e) => expect((e as EdgeError).snippet).toMatch(/^x{190}<redacted>/),
    ],
    [
      "ResultNotReadyError.code",
      (c) => c.result(C, "r1"),
      (e) => expect((e as ResultNotReadyError).code).toBe("NOT_READY_<redacted>"),
    ],
    [
      "PredictionFailedError.rawCode, rawReason, predictionError.message",
      (c) => c.result(C, "r1"),
      (e) => {
        expect((e as Error).name).toBe("PredictionFailedError");
        expect(e).toMatchObject({ rawCode: "<redacted>", rawReason: "<redacted>", message: "boom <redacted>" });
      },
    ],
    [
      "a cause chain and the nested objects it holds",
      (c) =>
        c.subscribe(C, {
          input: { prompt: "x" },
          logs: true,
          onQueueUpdate: (update) => {
            throw new Error("rejected update", { cause: update });
          },
        }),
      (e) => expect(((e as Error).cause as { logs: unknown }).logs).toEqual([{ message: "<redacted>" }]),
    ],
  ];
  const prefixes = ["json401", "text502", "cut502", "notready", "failed", "logs"];

  it.each(cases.map((c, i) => [c[0], i] as const))("%s", async (_what, i) => {
    const [, call, check] = cases[i]!;
    const client = make(`${url}/${prefixes[i]}`);
    const error = await call(client).then(
      () => expect.fail("resolved"),
      (e: unknown) => e,
    );
    check(error);
    for (const text of printed(error)) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(KEY.slice(0, 12));
    }
  });
});

/** A plain client on `baseUrl`, no retries, for the bound tests. */
const plain = (baseUrl: string, extra: Partial<Parameters<typeof createQueueClient<EndpointTypeMap>>[0]> = {}) =>
  createQueueClient<EndpointTypeMap>({ baseUrl, credentials: KEY, endpoints, retry: { retries: 0 }, ...extra });

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail("resolved"),
    (e: unknown) => e as Error & Record<string, unknown>,
  );

describe("23.8: no redirect to another origin is followed", () => {
  let other: string;
  let otherHits: string[];
  let url: string;
  // set-up, not a test (issue 42.4): each test below runs alone too
  beforeAll(async () => {
    otherHits = [];
    const otherServer = createServer((req, res) => {
      otherHits.push(`${req.method} ${req.url}`);
      req.resume();
      json(res, 200, { request_id: "stolen", id: "stolen", status: "succeeded", error: null });
    });
    servers.push(otherServer);
    await new Promise<void>((r) => otherServer.listen(0, "127.0.0.1", () => r()));
    other = `http://127.0.0.1:${(otherServer.address() as { port: number }).port}`;
    url = await serve({
      // /<status>/… redirects to the other origin with that status; /same/… to itself once
      ...Object.fromEntries(
        [301, 302, 303, 307, 308].map((code) => [
          String(code),
          ((_q, res) => res.writeHead(code, { location: `${other}/collect?token=abc123` }).end()) satisfies Handler,
        ]),
      ),
      same: (req, res, body) =>
        req.url?.includes("/again")
          ? json(res, 200, { request_id: `same-${req.method}-${JSON.parse(body).prompt}` })
          : res.writeHead(307, { location: `${req.url}/again` }).end(),
    });
  });

  it.each([301, 302, 303, 307, 308])(
    "a submit answered %i to another origin is a RedirectError naming it",
    async (code) => {
      const error = await rejection(plain(`${url}/${code}`).submit(C, { input: { prompt: "x" } }));
      expect(error.name).toBe("RedirectError");
      expect(error.message).toContain(`HTTP ${code} redirects to another origin, ${other}`);
      expect(error).toMatchObject({ status: code, targetOrigin: other });
      for (const text of printed(error)) expect(text).not.toContain("abc123");
      expect(otherHits).toEqual([]);
    },
  );

  it("status, result, cancel and getPrediction refuse it too", async () => {
    const c = plain(`${url}/302`);
    for (const call of [
      () => c.status(C, "r1"),
      () => c.result(C, "r1"),
      () => c.cancel(C, "r1"),
      () => c.getPrediction("r1"),
    ])
      expect((await rejection(call())).name).toBe("RedirectError");
    expect(otherHits).toEqual([]);
  });

  it("a 307 to the same origin is followed, method and body kept", async () => {
    expect((await plain(`${url}/same`).submit(C, { input: { prompt: "kept" } })).requestId).toBe("same-POST-kept");
  });
});

describe("23.9: every call has a deadline; subscribe's timeoutMs covers the submit", () => {
  let url: string;
  // set-up, not a test (issue 42.4): each test below runs alone too
  beforeAll(async () => {
    url = await serve({ held: () => undefined });
  });

  it("the client's requestTimeoutMs bounds submit, status, result, cancel and getPrediction", async () => {
    const c = plain(`${url}/held`, { requestTimeoutMs: 150 });
    for (const call of [
      () => c.submit(C, { input: { prompt: "x" } }),
      () => c.status(C, "r1"),
      () => c.result(C, "r1"),
      () => c.cancel(C, "r1"),
      () => c.getPrediction("r1"),
    ]) {
      const error = await rejection(call());
      expect([error.name, error.timeoutMs]).toEqual(["RequestTimeoutError", 150]);
      expect(error.message).toMatch(/no complete answer within 150 ms/);
    }
  });

  it("a call's own timeoutMs wins over the client's", async () => {
    const error = await rejection(
      plain(`${url}/held`, { requestTimeoutMs: Infinity }).getPrediction("r1", { timeoutMs: 100 }),
    );
    expect([error.name, error.timeoutMs]).toEqual(["RequestTimeoutError", 100]);
  });

  it("the default deadline is 60 s (DEFAULT_TIMEOUT_MS): a client with no option gives up then", async () => {
    const c = plain(`${url}/held`);
    // the client reads timers from globalThis when called: the 60 s pass on a fake clock
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const pending = rejection(c.getPrediction("r1"));
      await vi.advanceTimersByTimeAsync(60_000);
      const error = await pending;
      expect([error.name, error.timeoutMs]).toEqual(["RequestTimeoutError", 60_000]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("subscribe({ timeoutMs }) rejects while the submit is still held", async () => {
    const error = await rejection(plain(`${url}/held`).subscribe(C, { input: { prompt: "x" }, timeoutMs: 150 }));
    expect(error.name).toBe("SubscribeTimeoutError");
    expect(error.requestId).toBeUndefined();
    expect(error.message).toMatch(/no acknowledgement of the submit within 150 ms/);
  });

  it("a bound that is not a positive number is a TypeError", () => {
    expect(() => plain(url, { requestTimeoutMs: Number.NaN })).toThrow("requestTimeoutMs must be a positive number");
    expect(() => plain(url, { maxResponseBytes: -1 })).toThrow("maxResponseBytes must be a positive number of bytes");
  });
});

describe("23.10: every body read is capped", () => {
  let url: string;
  // set-up, not a test (issue 42.4): each test below runs alone too
  beforeAll(async () => {
    url = await serve({
      // 64 KiB chunks until the client stops reading (at most 64 MiB, so the test is bounded even when it fails)
      endless: (_q, res) => {
        res.writeHead(200, { "content-type": "application/json" });
        const chunk = Buffer.alloc(64 * 1024, " ");
        let sent = 0;
        const more = () => {
          while (sent < 1024 && !res.destroyed) {
            sent++;
            if (!res.write(chunk)) return void res.once("drain", more);
          }
          res.end();
        };
        res.write("{");
        more();
      },
      declared: (_q, res) => {
        res.writeHead(200, { "content-type": "application/json", "content-length": String(20 * 1024 * 1024) });
        res.write("{");
      },
    });
  });

  it("an endless 200 body stops at maxResponseBytes with a clear error", async () => {
    const error = await rejection(plain(`${url}/endless`, { maxResponseBytes: 1024 * 1024 }).getPrediction("p1"));
    expect(error.name).toBe("ResponseTooLargeError");
    expect(error).toMatchObject({ status: 200, limitBytes: 1024 * 1024 });
    expect(error.message).toMatch(/is larger than 1048576 bytes; reading stopped \(raise maxResponseBytes/);
  });

  it("a Content-Length over the default cap (10 MiB) is refused before reading", async () => {
    const error = await rejection(plain(`${url}/declared`).result(C, "r1"));
    expect([error.name, error.limitBytes]).toEqual(["ResponseTooLargeError", 10 * 1024 * 1024]);
  });
});
