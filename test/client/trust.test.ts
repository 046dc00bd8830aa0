/**
 * Issue 23 (client part): what a hostile or broken server can make the client do. Real servers
 * on 127.0.0.1, through the package client (`src/client`) and the generated `createClient`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { inspect } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
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
  it("starts the echoing server", async () => {
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
