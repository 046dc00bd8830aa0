/**
 * Serves a `fetch(Request) → Response` handler over node:http: the mock's real port. Bad input
 * never stops it, and every answer is JSON: malformed HTTP a 400 (a header block over 16 KiB a
 * 431, an unknown method a 405), a request whose headers or body do not arrive in time a 408, a
 * connection past `maxConnections` a 503, a handler failure a 500; and it keeps serving.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { Readable } from "node:stream";
import { timestamp } from "./replies.js";
import type { PlatformRequest, PlatformResponse } from "../platform/index.js";

/** What `close` needs of the node:http server (structural: the public `.d.ts` imports no node module). */
export interface ServerHandle {
  close(callback: () => void): unknown;
  closeAllConnections(): void;
}

export interface Listening {
  server: ServerHandle;
  /** `http://<host>:<port>` */
  url: string;
}

/** The limits of the mock's HTTP server (`createMockService` options). */
export interface HttpLimits {
  /** open connections at most (default 1024); one more is answered 503 and closed */
  maxConnections?: number;
  /** the request line and headers must arrive within this (ms, default 10 000) */
  headersTimeoutMs?: number;
  /** the whole request, body included, must arrive within this (ms, default 30 000) */
  requestTimeoutMs?: number;
}

export const DEFAULT_HTTP_LIMITS: Required<HttpLimits> = {
  maxConnections: 1024,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
};

/** The methods a handler is given; fetch's `Request` cannot carry CONNECT, TRACE or TRACK. */
export type Handle = (request: PlatformRequest, method: string) => Promise<PlatformResponse>;

/** Every method the mock serves somewhere: the `Allow` of a method it cannot even route. */
const SERVED_METHODS = "GET, POST, PUT";

function toRequest(req: IncomingMessage, origin: string): Request {
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const method = req.method ?? "GET";
  // a method fetch forbids is routed by name (always a 405) and given to the handler as a bodiless GET
  const representable = !/^(CONNECT|TRACE|TRACK)$/i.test(method);
  const hasBody = representable && method !== "GET" && method !== "HEAD";
  return new Request(new URL(req.url ?? "/", origin), {
    method: representable ? method : "GET",
    headers,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: "half" } : {}),
  } as RequestInit);
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => (headers[key] = value));
  res.writeHead(response.status, { ...headers, "content-length": String(body.byteLength) });
  res.end(body);
}

const REASONS: Record<number, string> = {
  400: "Bad Request",
  405: "Method Not Allowed",
  408: "Request Timeout",
  431: "Request Header Fields Too Large",
  503: "Service Unavailable",
};

/** A whole JSON answer written straight to a socket (no request object to answer through), then closed. */
function rawAnswer(socket: Duplex, status: number, code: string, message: string, extra = ""): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify({ error: { code, message }, timestamp: timestamp(Date.now()) });
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status]}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extra}connection: close\r\n\r\n${body}`,
  );
}

/** node's parser errors, answered as JSON: code → [status, our code, message]. */
const CLIENT_ERRORS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, "HEADERS_TOO_LARGE", "the request headers are over 16 KiB"],
  HPE_INVALID_METHOD: [405, "METHOD_NOT_ALLOWED", `the method is not one the mock serves; use ${SERVED_METHODS}`],
  ERR_HTTP_REQUEST_TIMEOUT: [408, "REQUEST_TIMEOUT", "the request did not arrive in time"],
  HPE_HEADER_TIMEOUT: [408, "REQUEST_TIMEOUT", "the request headers did not arrive in time"],
};

/** Listens on `host:port` (port 0: an ephemeral one) and answers with `handle`. */
export function listen(
  handle: Handle,
  port: number,
  host: string,
  onListening: (url: string) => void,
  limits: HttpLimits = {},
): Promise<Listening> {
  const { maxConnections, headersTimeoutMs, requestTimeoutMs } = { ...DEFAULT_HTTP_LIMITS, ...limits };
  return new Promise((resolve, reject) => {
    let origin = `http://${host}`;
    const server = createServer(
      {
        headersTimeout: headersTimeoutMs,
        requestTimeout: Math.max(requestTimeoutMs, headersTimeoutMs),
        // how often node looks for requests past their deadline
        connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(headersTimeoutMs / 2))),
      },
      (req, res) => {
        let request: Request;
        try {
          request = toRequest(req, origin);
        } catch {
          res.writeHead(400, { "content-type": "application/json", connection: "close" });
          res.end(
            JSON.stringify({
              error: { code: "BAD_REQUEST", message: "the request line or headers cannot be read" },
              timestamp: timestamp(Date.now()),
            }),
          );
          return;
        }
        handle(request, (req.method ?? "GET").toUpperCase())
          .then((response) => send(res, response))
          .catch(() => {
            if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
            res.end(JSON.stringify({ error: { code: "INTERNAL", message: "the mock failed to answer" } }));
          });
      },
    );
    let open = 0;
    server.on("connection", (socket) => {
      open++;
      socket.once("close", () => open--);
      if (open > maxConnections)
        rawAnswer(
          socket,
          503,
          "TOO_MANY_CONNECTIONS",
          `the mock serves ${maxConnections} connections at once; close one (or reuse it) and try again`,
          "retry-after: 1\r\n",
        );
    });
    server.on("clientError", (error: NodeJS.ErrnoException, socket) => {
      const [status, code, message] = CLIENT_ERRORS[error.code ?? ""] ?? [
        400,
        "BAD_REQUEST",
        "the request is not well-formed HTTP/1.1",
      ];
      rawAnswer(socket, status, code, message, status === 405 ? `allow: ${SERVED_METHODS}\r\n` : "");
    });
    // CONNECT never reaches the request handler: the mock is no proxy
    server.on("connect", (_req, socket) =>
      rawAnswer(
        socket,
        405,
        "METHOD_NOT_ALLOWED",
        `CONNECT is not allowed; use ${SERVED_METHODS}`,
        `allow: ${SERVED_METHODS}\r\n`,
      ),
    );
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      const address = server.address();
      const actual = typeof address === "object" && address !== null ? address.port : port;
      const shownHost = host.includes(":") ? `[${host}]` : host;
      origin = `http://${shownHost}:${actual}`;
      onListening(origin);
      resolve({ server, url: origin });
    });
  });
}
