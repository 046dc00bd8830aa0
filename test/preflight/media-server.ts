/**
 * A real HTTP server on 127.0.0.1 (ephemeral port) serving the committed media fixtures with
 * HTTP Range support, plus scripted routes (403, 404, 302, 503, never answering, reset, a trickle,
 * a 100 MiB MP4 that ignores Range), and `latencyMs` before each media answer. It
 * records every request's headers, counts body bytes sent per path and the most requests in
 * flight at once.
 */
import { readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "../fixtures/preflight");

export interface MediaServer {
  origin: string;
  /** `127.0.0.1:PORT`, for allowHosts */
  host: string;
  requests: Array<{ path: string; target: string; headers: IncomingHttpHeaders }>;
  hits(path: string): number;
  /** body bytes written per path */
  bytesSent: Map<string, number>;
  /** the most requests in flight at once */
  maxInFlight(): number;
  close(): Promise<void>;
}

type Route = (res: ServerResponse, origin: string) => void;

const ROUTES: Record<string, Route> = {
  "/status/403": (res) => res.writeHead(403, { "content-type": "application/xml" }).end("<Error>AccessDenied</Error>"),
  "/status/404": (res) => res.writeHead(404).end("not found"),
  "/status/503": (res) => res.writeHead(503).end("busy"),
  "/redirect": (res, origin) =>
    res.writeHead(302, { location: `${origin}/media/image.png?X-Amz-Signature=LOCATIONSECRET` }).end(),
  "/never": () => {
    // never answers: the request stays open until the client gives up
  },
  "/reset": (res) => res.socket?.destroy(),
  // one byte every 200 ms of a declared 1 MB: each byte within any idle timeout, the whole never (issue 37.4)
  "/trickle": (res) => {
    res.writeHead(200, { "content-type": "image/png", "content-length": 1_000_000 });
    const timer = setInterval(() => res.write("x"), 200);
    res.on("close", () => clearInterval(timer));
  },
};

/** The body bytes `/huge-norange.mp4` writes: an MP4 whose `moov` sits behind 100 MiB of `mdat`. */
export const HUGE_BYTES = 100 * 1024 * 1024;

/**
 * An MP4 of HUGE_BYTES that ignores Range (issue 37.5): an `ftyp`, one `mdat` of zeros, then
 * the last KiB where its `moov` would be, sent from byte 0 to whatever asks, with backpressure, so
 * `bytesSent` counts what the client took (plus the sockets' buffers).
 */
function hugeNoRange(res: ServerResponse, count: (n: number) => void): void {
  // ftyp: size 24, brand isom, minor version 0x200, compatible isom and mp41
  const ftyp = Buffer.concat([
    Buffer.from([0, 0, 0, 24]),
    Buffer.from("ftypisom"),
    Buffer.from([0, 0, 2, 0]),
    Buffer.from("isommp41"),
  ]);
  const mdat = Buffer.alloc(8);
  // the last KiB is where the `moov` would be: the parser asks for it
  mdat.writeUInt32BE(HUGE_BYTES - ftyp.length - 1024, 0);
  mdat.write("mdat", 4, "latin1");
  res.writeHead(200, { "content-type": "video/mp4", "content-length": HUGE_BYTES });
  let left = HUGE_BYTES;
  const chunk = Buffer.alloc(64 * 1024);
  const head = Buffer.concat([ftyp, mdat]);
  res.write(head);
  count(head.length);
  left -= head.length;
  const pump = () => {
    while (left > 0 && !res.destroyed) {
      const piece = chunk.subarray(0, Math.min(chunk.length, left));
      left -= piece.length;
      count(piece.length);
      if (!res.write(piece)) return void res.once("drain", pump);
    }
    if (left === 0) res.end();
  };
  pump();
}

/**
 * `gate: n` holds every media answer until n requests are held, then sends them all: a client
 * that sends fewer than n at a time never gets an answer, one that sends more is seen by
 * `maxInFlight`.
 */
export async function startMediaServer(options: { gate?: number; latencyMs?: number } = {}): Promise<MediaServer> {
  let held: Array<() => void> = [];
  const requests: MediaServer["requests"] = [];
  const bytesSent = new Map<string, number>();
  const sockets = new Set<Socket>();
  let inFlight = 0;
  let most = 0;
  let origin = "";
  const server = createServer((req, res) => {
    const target = req.url ?? "/";
    const path = target.replace(/[?#].*$/, "");
    requests.push({ path, target, headers: req.headers });
    inFlight++;
    most = Math.max(most, inFlight);
    res.on("close", () => inFlight--);
    const route = ROUTES[path];
    if (route !== undefined) return route(res, origin);
    if (path === "/huge-norange.mp4")
      return hugeNoRange(res, (n) => bytesSent.set(path, (bytesSent.get(path) ?? 0) + n));
    const media = /^\/(media|norange)\/([\w.-]+)$/.exec(path);
    let bytes: Buffer;
    try {
      if (media === null) throw new Error("no such route");
      bytes = readFileSync(join(FIXTURES, media[2]!));
    } catch {
      res.writeHead(404).end();
      return;
    }
    const write = (status: number, headers: Record<string, string | number>, body: Buffer) => {
      const send = () => {
        bytesSent.set(path, (bytesSent.get(path) ?? 0) + body.length);
        res.writeHead(status, { "content-type": "application/octet-stream", ...headers }).end(body);
      };
      if (options.latencyMs !== undefined) return void setTimeout(send, options.latencyMs);
      if (options.gate === undefined) return send();
      held.push(send);
      if (held.length >= options.gate) {
        const go = held;
        held = [];
        for (const release of go) release();
      }
    };
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? "");
    if (media![1] === "media" && range !== null) {
      const start = Number(range[1]);
      const end = Math.min(range[2] === "" ? bytes.length - 1 : Number(range[2]), bytes.length - 1);
      if (start >= bytes.length) return write(416, { "content-range": `bytes */${bytes.length}` }, Buffer.alloc(0));
      const body = bytes.subarray(start, end + 1);
      return write(
        206,
        { "content-range": `bytes ${start}-${end}/${bytes.length}`, "content-length": body.length },
        body,
      );
    }
    write(200, { "content-length": bytes.length }, bytes);
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    host: `127.0.0.1:${port}`,
    requests,
    hits: (p) => requests.filter((r) => r.path === p).length,
    bytesSent,
    maxInFlight: () => most,
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}
