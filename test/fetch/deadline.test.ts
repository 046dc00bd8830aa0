/**
 * The overall fetch deadline (`--timeout SECONDS`, `VSK_FETCH_TIMEOUT`): a real server on
 * 127.0.0.1 that trickles its answer one byte at a time, so no idle timeout ever fires; `vsk pull`
 * and `vsk drift` must give up at the deadline, say it timed out, and exit 3. And URLs written
 * wrong on purpose must never be printed with their credentials.
 */
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const CLI = join(ROOT, "bin/vsk.mjs");

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function vsk(args: string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("VSK_")));
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd,
      env: { ...base, VSK_RETRY_BASE_MS: "5", VSK_RETRY_MAX_DELAY_MS: "50", ...env },
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

/**
 * A slow-loris server: `headers` trickles the status line and headers too, `body` sends the
 * headers at once and then a never-ending body, one byte every 50 ms.
 */
function trickleServer(what: "headers" | "body"): Promise<{ origin: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => {});
    socket.on("close", () => sockets.delete(socket));
    // chunked, so no length announces a body over the size cap: one 1-byte chunk at a time
    const head = "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n";
    let sent = 0;
    if (what === "body") socket.write(head);
    const timer = setInterval(() => {
      if (socket.destroyed) return clearInterval(timer);
      socket.write(what === "headers" && sent < head.length ? head[sent++]! : "1\r\n \r\n");
    }, 50);
    timers.add(timer);
  });
  return new Promise((done) =>
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      done({
        origin: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((closed) => {
            for (const t of timers) clearInterval(t);
            for (const s of sockets) s.destroy();
            server.close(() => closed());
          }),
      });
    }),
  );
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "vsk-deadline-"));
  cpSync(join(ROOT, "schemas-cache"), join(dir, "schemas-cache"), { recursive: true });
  // a project names its models: drift refuses the built-in examples beside a schemas-cache/ without a config
  cpSync(join(ROOT, "vsk.config.json"), join(dir, "vsk.config.json"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("an overall deadline per request", () => {
  it.each(["body", "headers"] as const)(
    "pull --timeout 0.3 against a server trickling its %s gives up, says it timed out, exits 3 and writes nothing",
    async (what) => {
      const server = await trickleServer(what);
      try {
        const before = readFileSync(join(dir, "schemas-cache/manifest.json"), "utf8");
        const run = await vsk(["pull", "--schema-url", server.origin, "--model", "modelA", "--timeout", "0.3"], dir);
        expect(run.code).toBe(3);
        expect(run.stderr).toMatch(
          /example\/model-a: .*: timed out: no complete answer within the 0.3 s deadline \(--timeout or VSK_FETCH_TIMEOUT\)/,
        );
        expect(run.stderr).not.toMatch(/^\s+at /m);
        expect(readFileSync(join(dir, "schemas-cache/manifest.json"), "utf8")).toBe(before);
      } finally {
        await server.close();
      }
    },
  );

  it("VSK_FETCH_TIMEOUT sets the same deadline (fractions of a second allowed)", async () => {
    const server = await trickleServer("body");
    try {
      const run = await vsk(["pull", "--schema-url", server.origin, "--model", "modelB"], dir, {
        VSK_FETCH_TIMEOUT: "0.2",
      });
      expect(run.code).toBe(3);
      expect(run.stderr).toContain("timed out: no complete answer within the 0.2 s deadline");
    } finally {
      await server.close();
    }
  });

  it("drift --timeout 0.3 reports the model as an error (exit 3), never as no drift", async () => {
    const server = await trickleServer("body");
    try {
      const run = await vsk(["drift", "--schema-url", server.origin, "--timeout", "0.3", "--format", "json"], dir);
      expect(run.code).toBe(3);
      const report = JSON.parse(run.stdout) as { models: { status: string; message?: string }[] };
      expect(report.models.map((m) => m.status)).toEqual(["error", "error", "error"]);
      expect(report.models[0]!.message).toContain("timed out");
    } finally {
      await server.close();
    }
  });

  it.each([
    ["pull", "0"],
    ["pull", "soon"],
    ["drift", "-1"],
  ])("%s --timeout %s is a usage error (exit 2)", async (command, value) => {
    const run = await vsk([command, "--schema-url", "http://127.0.0.1:9", `--timeout=${value}`], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--timeout must be a number of seconds > 0/);
  });

  it("a bad VSK_FETCH_TIMEOUT is a usage error (exit 2)", async () => {
    const run = await vsk(["pull", "--schema-url", "http://127.0.0.1:9"], dir, { VSK_FETCH_TIMEOUT: "1m" });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('VSK_FETCH_TIMEOUT must be a number of seconds > 0, got "1m"');
  });
});

describe("pull never prints a URL written wrong with its credentials", () => {
  it.each([
    "https:user:SECRET@h.example",
    "HTTPS:/user:SECRET@h.example",
    "https:\\\\user:SECRET@h.example/",
    "//user:SECRET@h.example/",
    "user:SECRET@h.example",
    "ht tp://user:SECRET@h.example/",
    "https://user:SECRET@h.example:99999/x",
    "http://user:SECRET@[bad/x",
    "HTTPS://user:SECRET@h.example/",
    "https://user:SECRET@",
  ])("%s: a usage error (exit 2) that does not show SECRET", async (url) => {
    const run = await vsk(["pull", "--schema-url", url], dir);
    expect(run.code).toBe(2);
    expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(run.stdout + run.stderr).not.toContain("SECRET");
  });
});
