/**
 * Serves a `fetch(Request) → Response` handler over node:http: the mock's real port. Bad input
 * never stops it: a malformed request gets a 400, a handler failure a 500, and it keeps serving.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { Readable } from "node:stream";

export interface Listening {
  server: Server;
  /** `http://<host>:<port>` */
  url: string;
}

function toRequest(req: IncomingMessage, origin: string): Request {
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const method = req.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  return new Request(new URL(req.url ?? "/", origin), {
    method,
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

/** Listens on `host:port` (port 0: an ephemeral one) and answers with `handle`. */
export function listen(
  handle: (request: Request) => Promise<Response>,
  port: number,
  host: string,
  onListening: (url: string) => void,
): Promise<Listening> {
  return new Promise((resolve, reject) => {
    let origin = `http://${host}`;
    const server = createServer((req, res) => {
      let request: Request;
      try {
        request = toRequest(req, origin);
      } catch {
        res.writeHead(400, { "content-type": "application/json" });
        res.end(
          JSON.stringify({ error: { code: "BAD_REQUEST", message: "the request line or headers cannot be read" } }),
        );
        return;
      }
      handle(request)
        .then((response) => send(res, response))
        .catch(() => {
          if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
          res.end(JSON.stringify({ error: { code: "INTERNAL", message: "the mock failed to answer" } }));
        });
    });
    server.on("clientError", (_error, socket) => {
      if (socket.writable) socket.end("HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n");
      else socket.destroy();
    });
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
