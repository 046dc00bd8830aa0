/**
 * `vsk pull` behind a proxy (issue 30.2): HTTP_PROXY / HTTPS_PROXY / NO_PROXY are honoured. A real
 * proxy on 127.0.0.1 written here (CONNECT tunnels and absolute-URI forwarding, to 127.0.0.1 only)
 * in front of a real schema server on 127.0.0.1; the proxy records what went through it.
 */
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../cli/run.js";
import { startServer, type TestServer } from "./serve.js";

const ROOT = resolve(import.meta.dirname, "../..");
const CLI = join(ROOT, "bin/vsk.mjs");
const MIRROR = join(ROOT, "test/fixtures/pull/mirror");

interface Proxy {
  origin: string;
  /** "CONNECT host:port" or "GET http://…", one per request that went through */
  seen: string[];
  close(): Promise<void>;
}

/** A forward proxy that only ever connects to 127.0.0.1; anything else is answered 403. */
async function startProxy(): Promise<Proxy> {
  const seen: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const target = new URL(req.url ?? "/");
    if (target.hostname !== "127.0.0.1") return void res.writeHead(403).end();
    const upstream = request(
      {
        host: "127.0.0.1",
        port: target.port,
        path: target.pathname + target.search,
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on("connect", (req, client: Socket, head: Buffer) => {
    seen.push(`CONNECT ${req.url}`);
    sockets.add(client);
    client.on("error", () => {});
    const [host, port] = (req.url ?? "").split(":");
    if (host !== "127.0.0.1") return void client.end("HTTP/1.1 403 Forbidden\r\n\r\n");
    const upstream = connect(Number(port), "127.0.0.1", () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on("error", () => client.destroy());
  });
  server.on("connection", (socket: Socket) => sockets.add(socket));
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((done) => {
        for (const s of sockets) s.destroy();
        server.close(() => done());
      }),
  };
}

function pull(
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith("VSK_") && !/^(https?|no|all)_proxy$/i.test(k)),
  );
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [CLI, "pull", "--model", "example/model-b"], {
      cwd,
      env: { ...base, VSK_FETCH_RETRIES: "0", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", fail);
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
}

let schemas: TestServer;
let proxy: Proxy;
beforeAll(async () => {
  [schemas, proxy] = await Promise.all([startServer({}, MIRROR), startProxy()]);
});
afterAll(async () => {
  await Promise.all([schemas.close(), proxy.close()]);
});

/** A project whose config names one model and the schema server. */
function project(): string {
  const dir = tempDir("vsk-proxy-");
  return dir;
}

describe("vsk pull behind a proxy", () => {
  it.each(["HTTP_PROXY", "http_proxy"])("goes through the proxy named by %s", async (name) => {
    const dir = project();
    const before = proxy.seen.length;
    const run = await pull(dir, { VSK_SCHEMA_URL: schemas.origin, [name]: proxy.origin });
    expect(run.code, run.stderr).toBe(0);
    expect(readdirSync(join(dir, "schemas-cache/example"))).toEqual(["model-b"]);
    const port = new URL(schemas.origin).port;
    expect(proxy.seen.slice(before).length).toBeGreaterThan(0);
    for (const line of proxy.seen.slice(before))
      expect(line).toMatch(new RegExp(`^(CONNECT 127\\.0\\.0\\.1:${port}|GET http://127\\.0\\.0\\.1:${port}/)`));
  });

  it("connects directly to a host NO_PROXY names", async () => {
    const dir = project();
    const before = proxy.seen.length;
    const run = await pull(dir, { VSK_SCHEMA_URL: schemas.origin, HTTP_PROXY: proxy.origin, NO_PROXY: "127.0.0.1" });
    expect(run.code, run.stderr).toBe(0);
    expect(proxy.seen.slice(before)).toEqual([]);
  });

  it("a proxy that refuses is a clear failure naming the model, not a hang", async () => {
    const refusing = await startProxy();
    const dir = project();
    // the proxy only connects to 127.0.0.1: a schema URL on "localhost" is refused (403)
    const run = await pull(dir, {
      VSK_SCHEMA_URL: schemas.origin.replace("127.0.0.1", "localhost"),
      HTTP_PROXY: refusing.origin,
    });
    await refusing.close();
    expect(run.code).toBe(3);
    expect(refusing.seen.length).toBeGreaterThan(0);
    expect(run.stderr).toMatch(/example\/model-b/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
