/**
 * A real HTTP server on 127.0.0.1 (ephemeral port) with scripted faults, for fetch and pull tests.
 * Each path has a list of replies: hit n uses reply n (the last one repeats). Other paths are
 * served from a mirror directory when one is given, else 404.
 */
import { createReadStream, existsSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

export type Reply = (res: ServerResponse, req: IncomingMessage) => void;

export interface Recorded {
  path: string;
  /** the request target as received, query string included */
  target: string;
  headers: IncomingHttpHeaders;
}

export interface TestServer {
  origin: string;
  requests: Recorded[];
  hits(path: string): number;
  /** paths whose response was closed before it finished (an aborted download) */
  aborted: Set<string>;
  close(): Promise<void>;
}

export async function startServer(routes: Record<string, Reply | Reply[]> = {}, mirror?: string): Promise<TestServer> {
  const requests: Recorded[] = [];
  const aborted = new Set<string>();
  const server = createServer((req, res) => {
    const target = req.url ?? "/";
    const path = target.replace(/[?#].*$/, "");
    const n = requests.filter((r) => r.path === path).length;
    requests.push({ path, target, headers: req.headers });
    res.on("close", () => {
      if (!res.writableFinished) aborted.add(path);
    });
    const route = routes[path];
    if (route !== undefined) {
      const list = Array.isArray(route) ? route : [route];
      list[Math.min(n, list.length - 1)]!(res, req);
      return;
    }
    const file = mirror === undefined ? undefined : join(mirror, path);
    if (file !== undefined && existsSync(file)) {
      res.writeHead(200, { "content-type": "application/json" });
      createReadStream(file).pipe(res);
    } else json({ error: { message: "not found" } }, 404)(res, req);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    aborted,
    hits: (path) => requests.filter((r) => r.path === path).length,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

export const json =
  (body: unknown, status = 200, headers: Record<string, string> = {}): Reply =>
  (res) => {
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(JSON.stringify(body));
  };

export const text =
  (status: number, body: string, type = "text/plain", headers: Record<string, string> = {}): Reply =>
  (res) => {
    res.writeHead(status, { "content-type": type, ...headers });
    res.end(body);
  };

export const file =
  (path: string): Reply =>
  (res) => {
    res.writeHead(200, { "content-type": "application/json" });
    createReadStream(path).pipe(res);
  };

export const redirect =
  (location: string, status = 302): Reply =>
  (res) => {
    res.writeHead(status, { location });
    res.end();
  };

/** Accepts the request and never sends the headers. */
export const hang: Reply = () => {};

/** Sends the headers and a first chunk, then nothing more. */
export const stall: Reply = (res) => {
  res.writeHead(200, { "content-type": "application/json" });
  res.write("{");
};

/** Drops the connection without an answer (the client sees a reset / closed socket). */
export const reset: Reply = (_res, req) => {
  req.socket.destroy();
};

/** Streams `bytes` bytes of JSON-ish filler, with or without a Content-Length. */
export const oversize =
  (bytes: number, declareLength: boolean): Reply =>
  (res) => {
    res.writeHead(200, {
      "content-type": "application/json",
      ...(declareLength ? { "content-length": String(bytes) } : {}),
    });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const pump = (): void => {
      while (sent < bytes && !res.destroyed) {
        const part = chunk.subarray(0, Math.min(chunk.length, bytes - sent));
        sent += part.length;
        if (!res.write(part)) return void res.once("drain", pump);
      }
      if (!res.destroyed) res.end();
    };
    pump();
  };
