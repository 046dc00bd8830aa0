/**
 * A real HTTP server on 127.0.0.1 (port 0) for drift tests: serves a mirror
 * (`/main/<owner>/<name>/latest.json`) from memory, so each test can change a schema, answer
 * 404 or answer in plain text like a CDN edge.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface Reply {
  status: number;
  type: string;
  body: string;
}

export interface MirrorServer {
  origin: string;
  /** path → reply; anything else is a JSON 404 */
  routes: Map<string, Reply>;
  close(): Promise<void>;
}

export async function startMirror(): Promise<MirrorServer> {
  const routes = new Map<string, Reply>();
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").replace(/[?#].*$/, "");
    const reply = routes.get(path) ?? {
      status: 404,
      type: "application/json",
      body: JSON.stringify({ error: { message: "not found" } }),
    };
    res.writeHead(reply.status, { "content-type": reply.type });
    res.end(reply.body);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    routes,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
