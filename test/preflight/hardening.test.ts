/**
 * Issue 37, items 2 to 8: what a referenced file's server (or a payload's URL) can do to a
 * preflight run — through the package entry point and `runLint` (the library under
 * `vsk lint --preflight`), against real HTTP servers on 127.0.0.1. No other address is
 * contacted: host names resolve through an injected resolver, and a connection to any address
 * but 127.0.0.1 is refused at `net.connect` before a packet is sent.
 */
import net from "node:net";
import { PassThrough } from "node:stream";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import v8 from "node:v8";
import vm from "node:vm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  createPreflight,
  embeddedIPv4,
  notPublic,
  preflight,
  PREFLIGHT_DEFAULTS,
  type PreflightDiagnostic,
} from "../../src/preflight/index.js";
import { runLint } from "../../src/lint/index.js";
import { tempDir } from "../cli/run.js";
import { HUGE_BYTES, startMediaServer, type MediaServer } from "./media-server.js";

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;

let server: MediaServer;
const url = (path: string) => `${server.origin}${path}`;
const MODEL_B = "example/model-b/reference-to-video";
beforeAll(async () => {
  server = await startMediaServer();
});
afterAll(() => server.close());
afterEach(() => vi.restoreAllMocks());

const messages = (ds: readonly PreflightDiagnostic[]) => ds.map((d) => d.message);

// ---------------------------------------------------------------------------------------------
// 37.2: IPv6 forms that carry an IPv4 address, judged by it

/** An IPv4 address of every range the service may not fetch from, with its word. */
const PRIVATE_V4: ReadonlyArray<[string, string]> = [
  ["0.1.2.3", "unspecified"],
  ["127.0.0.1", "loopback"],
  ["10.1.2.3", "private"],
  ["172.16.5.4", "private"],
  ["172.31.255.254", "private"],
  ["192.168.1.1", "private"],
  ["169.254.169.254", "link-local"],
  ["100.64.0.7", "CGNAT"],
];
const PUBLIC_V4 = "8.8.4.4";

const v4Bytes = (ip: string) => ip.split(".").map(Number);
/** 16 bytes → the canonical-ish text form (groups in hex, no compression). */
const v6 = (bytes: number[]) =>
  Array.from({ length: 8 }, (_, i) => ((bytes[2 * i]! << 8) | bytes[2 * i + 1]!).toString(16)).join(":");
const pad = (prefix: number[], tail: number[] = []) => [
  ...prefix,
  ...Array(16 - prefix.length - tail.length).fill(0),
  ...tail,
];

/** Every form, writing `ip` where it carries it. */
const FORMS: ReadonlyArray<{ form: string; make: (ip: string) => string }> = [
  { form: "IPv4-mapped", make: (ip) => `::ffff:${ip}` },
  { form: "IPv4-mapped", make: (ip) => v6(pad([], [0xff, 0xff, ...v4Bytes(ip)])) },
  { form: "IPv4-compatible", make: (ip) => `::${ip}` },
  { form: "NAT64", make: (ip) => `64:ff9b::${ip}` },
  { form: "NAT64", make: (ip) => v6(pad([0, 0x64, 0xff, 0x9b], v4Bytes(ip))) },
  // RFC 8215's local-use 64:ff9b:1::/48, each RFC 6052 layout: /96, /64, /56, /48
  { form: "NAT64", make: (ip) => v6(pad([0, 0x64, 0xff, 0x9b, 0, 1], v4Bytes(ip))) },
  { form: "NAT64", make: (ip) => v6(pad([0, 0x64, 0xff, 0x9b, 0, 1, 0, 0, 0, ...v4Bytes(ip)])) },
  {
    form: "NAT64",
    make: (ip) => {
      const [a, b, c, d] = v4Bytes(ip);
      return v6(pad([0, 0x64, 0xff, 0x9b, 0, 1, 0, a!, 0, b!, c!, d!]));
    },
  },
  {
    form: "NAT64",
    make: (ip) => {
      const [a, b, c, d] = v4Bytes(ip);
      return v6(pad([0, 0x64, 0xff, 0x9b, 0, 1, a!, b!, 0, c!, d!]));
    },
  },
  { form: "6to4", make: (ip) => v6(pad([0x20, 0x02, ...v4Bytes(ip)], [0, 1])) },
  // Teredo: the client in the last 32 bits, each bit inverted (server 65.54.227.120 is public)
  {
    form: "Teredo",
    make: (ip) => v6([0x20, 0x01, 0, 0, 65, 54, 227, 120, 0x80, 0, 0xf2, 0x27, ...v4Bytes(ip).map((x) => x ^ 255)]),
  },
  // … and the server in bits 32-63 (the client 192.0.2.45, public)
  {
    form: "Teredo",
    make: (ip) => v6([0x20, 0x01, 0, 0, ...v4Bytes(ip), 0x80, 0, 0xf2, 0x27, ...[192, 0, 2, 45].map((x) => x ^ 255)]),
  },
];

describe("37.2: an IPv6 address that carries an IPv4 address is judged by it", () => {
  it("every form × every range the service may not fetch from is refused, naming the IPv4 address; a public one is not", () => {
    for (const { form, make } of FORMS) {
      for (const [ip, kind] of PRIVATE_V4) {
        const address = make(ip);
        expect(embeddedIPv4(address)).toContainEqual({ ipv4: ip, form });
        // the local-use NAT64 prefix is read at each layout: another reading may be refused first
        if (address.startsWith("64:ff9b:1:")) expect(notPublic(address), `${form} ${address} (${ip})`).toBeDefined();
        else expect(notPublic(address), `${form} ${address} (${ip})`).toEqual({ kind, ipv4: ip, form });
      }
      const address = make(PUBLIC_V4);
      // the local-use NAT64 prefix is read at every layout; a public address in one layout can
      // read as some other address in another, so only the forms with one reading say "public"
      if (!address.startsWith("64:ff9b:1:")) expect(notPublic(address), `${form} ${address}`).toBeUndefined();
    }
    // IPv6's own ranges are still IPv6's
    expect(notPublic("::1")).toEqual({ kind: "loopback" });
    expect(notPublic("::")).toEqual({ kind: "unspecified" });
    expect(notPublic("2606:4700::1111")).toBeUndefined();
  });

  it("through preflight(): a host resolving to NAT64 of 127.0.0.1, and a 6to4 literal of 10.0.0.1, are refused and not fetched", async () => {
    const before = server.requests.length;
    const ds = await preflight(
      MODEL_B,
      {
        reference_images: [
          `http://media.example.test:${server.host.split(":")[1]}/media/image.png`,
          "http://[2002:a00:1::1]/media/image.png",
        ],
      },
      { resolve: async () => ["64:ff9b::7f00:1"] },
    );
    expect(messages(ds)).toEqual([
      expect.stringContaining(
        "its host media.example.test is an address (64:ff9b::7f00:1) that carries a loopback IPv4 address (127.0.0.1, NAT64) the service may not fetch from",
      ),
      expect.stringContaining(
        "its host [2002:a00:1::1] is an address (2002:a00:1::1) that carries a private IPv4 address (10.0.0.1, 6to4)",
      ),
    ]);
    expect(ds.every((d) => d.retryable === false)).toBe(true);
    expect(server.requests.length).toBe(before);
  });
});

// ---------------------------------------------------------------------------------------------
// 37.3: pins per exact host:port

/**
 * Records where each connection's lookup sends it; refuses (before any packet) every address
 * but 127.0.0.1, so that a checked "public" address in a test is never contacted.
 */
function watchConnections(): Array<{ port: number; address: string }> {
  const seen: Array<{ port: number; address: string }> = [];
  const original = net.connect;
  vi.spyOn(net, "connect").mockImplementation(((options: net.NetConnectOpts & { lookup?: net.LookupFunction }) => {
    const port = Number((options as net.TcpNetConnectOpts).port);
    const lookup = options.lookup;
    if (lookup === undefined) return original(options);
    const wrapped = ((host: string, opts: { all?: boolean }, callback: (...args: unknown[]) => void) =>
      lookup(
        host,
        opts as never,
        ((error: Error | null, address: unknown, family?: number) => {
          const list = Array.isArray(address)
            ? (address as Array<{ address: string }>).map((a) => a.address)
            : [address];
          for (const a of list) seen.push({ port, address: String(a) });
          if (error === null && list.some((a) => a !== "127.0.0.1"))
            return callback(Object.assign(new Error("test: not contacted"), { code: "ECONNREFUSED" }));
          callback(error, address, family);
        }) as never,
      )) as net.LookupFunction;
    return original({ ...options, lookup: wrapped } as net.NetConnectOpts);
  }) as typeof net.connect);
  return seen;
}

describe("37.3: a connection goes only to an address checked for that exact host and port", () => {
  it("an allow-listed name:port resolving to 127.0.0.1 never lends its addresses to the same name on another port", async () => {
    const other = await startMediaServer();
    try {
      const seen = watchConnections();
      const port = (s: MediaServer) => s.host.split(":")[1]!;
      // the DNS answer changes between the two hosts' lookups: first a public address, then 127.0.0.1
      let answer = "198.51.100.7";
      const run = createPreflight({
        allowHosts: [`media.test:${port(server)}`],
        concurrency: 1,
        timeoutMs: 2000,
        resolve: async () => [answer],
      });
      try {
        // two URLs on the other port (not allowed): checked against the public answer, the second
        // waiting its turn behind the first
        const refused = run.check(MODEL_B, {
          reference_images: [
            `http://media.test:${port(other)}/media/image.png`,
            `http://media.test:${port(other)}/media/image.jpg`,
          ],
        });
        answer = "127.0.0.1";
        // the allowed name:port, resolved now to 127.0.0.1 and pinned without the check
        const allowed = run.check(MODEL_B, { reference_images: [`http://media.test:${port(server)}/media/image.png`] });
        expect(await allowed).toEqual([]);
        const ds = await refused;
        expect(ds.map((d) => d.rule)).toEqual(["input-fetch-failed", "input-fetch-failed"]);
      } finally {
        await run.close();
      }
      // the port that was not allowed got no request at all: its connections went to its own pin only
      expect(other.requests).toHaveLength(0);
      expect(seen.filter((s) => s.port === Number(port(other))).map((s) => s.address)).not.toContain("127.0.0.1");
      expect(seen.filter((s) => s.port === Number(port(server))).map((s) => s.address)).toContain("127.0.0.1");
    } finally {
      await other.close();
    }
  });

  it("a name is resolved once per host:port for the run: a later answer (a rebinding) is never used", async () => {
    const answers = ["198.51.100.7", "127.0.0.1"];
    let lookups = 0;
    const before = server.requests.length;
    watchConnections();
    const port = server.host.split(":")[1];
    const ds = await preflight(
      MODEL_B,
      {
        reference_images: [
          `http://rebind.test:${port}/media/image.png`,
          `http://rebind.test:${port}/media/image.jpg`,
          `http://rebind.test:${port}/media/image.webp`,
        ],
      },
      { resolve: async () => [answers[Math.min(lookups++, 1)]!], timeoutMs: 1000 },
    );
    expect(lookups).toBe(1);
    // every one went to the checked public answer (refused here before a packet), none to 127.0.0.1
    expect(ds.map((d) => d.rule)).toEqual(["input-fetch-failed", "input-fetch-failed", "input-fetch-failed"]);
    expect(server.requests.length).toBe(before);
  });
});

// ---------------------------------------------------------------------------------------------
// 37.4: timeouts that fire, and a deadline that says what it stopped

describe("37.4: --preflight-timeout bounds each request's headers and body; a slow URL fails no other", () => {
  it("a server trickling one byte every 200 ms times out at timeoutMs even across garbage collections; the URL behind it is fetched", async () => {
    const started = performance.now();
    const check = preflight(
      MODEL_B,
      { reference_images: [url("/trickle?a"), url("/media/image.png")] },
      { allowHosts: [server.host], timeoutMs: 700, concurrency: 1 },
    );
    // collect garbage while the trickle runs (0.7 s): a timer the request owns survives it. Then
    // stop, so that the URL behind it is not fetched under a collection every 50 ms (on a loaded
    // machine, that alone took it past its own 0.7 s)
    const collector = setInterval(gc, 50);
    const stop = setTimeout(() => clearInterval(collector), 1_000);
    const ds = await check.finally(() => {
      clearInterval(collector);
      clearTimeout(stop);
    });
    const took = performance.now() - started;
    expect(messages(ds)).toEqual([
      expect.stringContaining("no complete answer (headers and body) within 0.7 s (a timeout)"),
    ]);
    expect(ds[0]).toMatchObject({ pointer: "/reference_images/0", retryable: true });
    expect(took).toBeLessThan(5000);
    expect(server.hits("/media/image.png")).toBeGreaterThan(0);
  });

  it("when the run's deadline passes, a file being fetched says so and one never sent says it was not requested", async () => {
    const before = server.hits("/trickle");
    const ds = await preflight(
      MODEL_B,
      { reference_images: [url("/trickle?1"), url("/trickle?2"), url("/trickle?3")] },
      { allowHosts: [server.host], timeoutMs: 600, deadlineMs: 900, concurrency: 1 },
    );
    expect(messages(ds)).toEqual([
      expect.stringContaining("no complete answer (headers and body) within 0.6 s (a timeout)"),
      expect.stringContaining("the preflight's overall deadline (0.9 s for the run) passed before the file answered"),
      expect.stringContaining(
        `not requested: the preflight's overall deadline (0.9 s for the run) passed while it waited its turn for ${server.host}`,
      ),
    ]);
    // the third was never sent
    expect(server.hits("/trickle") - before).toBe(2);
  });
});

// ---------------------------------------------------------------------------------------------
// 37.5: a server that ignores Range

describe("37.5: a server that ignores Range costs at most 64 KiB + 4 MiB", () => {
  it("stops at the budget and says what it could not decide", async () => {
    const run = createPreflight({ allowHosts: [server.host] });
    let ds: PreflightDiagnostic[];
    try {
      ds = await run.check(MODEL_B, { reference_videos: [url("/huge-norange.mp4")] });
    } finally {
      await run.close();
    }
    expect(ds).toHaveLength(1);
    expect(ds[0]).toMatchObject({ rule: "media-unreadable", severity: "warning" });
    expect(ds[0]!.message).toBe(
      `reference_videos[0]: ${url("/huge-norange.mp4")} is an MP4 video; the preflight could not read its duration and frame rate (the server ignored the Range request and sent the file from its start, and the preflight reads at most 4160 KiB of a file, so the part that holds them was not read), so the spec's limits on it were not checked`,
    );
    expect(run.stats().bytes).toBeLessThanOrEqual(PREFLIGHT_DEFAULTS.readBytesPerFile);
    // what the server got out: the budget and the sockets' buffers, far from the file's 100 MiB
    expect(server.bytesSent.get("/huge-norange.mp4")!).toBeLessThan(HUGE_BYTES / 5);
  });
});

// ---------------------------------------------------------------------------------------------
// 37.6: the run's memory does not grow with its distinct URLs

describe("37.6: the run keeps verdicts, not URLs", () => {
  it("60 distinct 1 MB data: URIs, checked one after another, leave the heap where it was", async () => {
    const png = Buffer.from(
      "89504e470d0a1a0a0000000d4948445200000001000000010806000000" +
        "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082",
      "hex",
    );
    const run = createPreflight();
    const uri = (i: number) => {
      const bytes = Buffer.alloc(768 * 1024, i);
      png.copy(bytes);
      return `data:image/png;base64,${bytes.toString("base64")}`;
    };
    try {
      await run.check(MODEL_B, { reference_images: [uri(0)] });
      gc();
      const before = process.memoryUsage().heapUsed;
      for (let i = 1; i <= 60; i++) await run.check(MODEL_B, { reference_images: [uri(i)] });
      gc();
      const grown = process.memoryUsage().heapUsed - before;
      expect(grown).toBeLessThan(20 * 1024 * 1024);
      // a verdict is still there: the same URI again is not inspected again
      await run.check(MODEL_B, { reference_images: [uri(60)] });
      expect(run.stats().urls).toBe(61);
    } finally {
      await run.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------
// 37.7: lint keeps a window of payloads in flight

describe("37.7: runLint with a preflight paces by the per-host limit, in input order", () => {
  it("40 payloads, 40 URLs at 150 ms, concurrency 4: 4 requests in flight (never more), results in order", async () => {
    const slow = await startMediaServer({ latencyMs: 150 });
    const dir = tempDir("vsk-window-");
    try {
      const lines = Array.from({ length: 40 }, (_, i) =>
        JSON.stringify({
          model: "example/model-b",
          endpoint: "reference-to-video",
          input: {
            prompt: "a cat",
            // every 10th a GIF, so that findings show the order
            reference_images: [`${slow.origin}/media/image.${i % 10 === 9 ? "gif" : "png"}?n=${i}`],
          },
        }),
      );
      writeFileSync(join(dir, "requests.ndjson"), lines.join("\n") + "\n");
      const out = new PassThrough();
      let text = "";
      out.on("data", (c) => (text += c));
      const started = performance.now();
      const run = await runLint(
        {
          cwd: dir,
          inputs: ["requests.ndjson"],
          format: "json",
          context: { color: false, showValid: true, stepSummary: undefined, maxAnnotations: 10 },
          out,
          preflight: { allowHosts: [slow.host], concurrency: 4 },
        },
        () => {},
      );
      const took = performance.now() - started;
      expect(run.exitCode).toBe(1);
      expect(slow.maxInFlight()).toBe(4);
      const report = JSON.parse(text) as { results: Array<{ line: number; valid: boolean }> };
      expect(report.results.map((r) => r.line)).toEqual(lines.map((_, i) => i + 1));
      expect(report.results.filter((r) => !r.valid).map((r) => r.line)).toEqual([10, 20, 30, 40]);
      // ideal 40 × 150 ms ÷ 4 = 1.5 s; one payload at a time took 6 s
      expect(took).toBeLessThan(4500);
    } finally {
      await slow.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------
// 37.8: words

describe("37.8: the words", () => {
  it("an unspecified address; a data: URI without a comma; one 'may succeed later'; the advice names allowHosts", async () => {
    const ds = await preflight(MODEL_B, {
      reference_images: ["http://0.0.0.0:9/a.png", "data:image/png", "http://localhost:9/b.png"],
    });
    const [unspecified, comma, local] = messages(ds);
    expect(unspecified).toContain("its host 0.0.0.0 is an unspecified address (0.0.0.0)");
    expect(unspecified).toContain('allow the host: allowHosts: ["0.0.0.0:9"]');
    expect(comma).toBe(
      "reference_images[1]: a data: URI with no comma before its data (14 characters): the service will fail this prediction with input_fetch_failed: a data: URI without a comma before its data",
    );
    expect(local).not.toContain("--preflight-allow-host");
    const [busy] = await preflight(MODEL_B, { reference_images: [url("/status/503")] }, { allowHosts: [server.host] });
    expect(busy!.message).toBe(
      `reference_images[0]: ${url("/status/503")}: the service will fail this prediction with input_fetch_failed: HTTP 503 Service Unavailable; the host failed for the moment (retryable: the same request may succeed later)`,
    );
  });

  it("voice: service words a fetch failure as the service's own error", async () => {
    const [d] = await preflight(
      MODEL_B,
      { reference_images: [url("/status/403")] },
      { allowHosts: [server.host], voice: "service" },
    );
    expect(d!.message).toBe(
      `reference_images[0]: could not fetch ${url("/status/403")}: HTTP 403 Forbidden; a presigned link may have expired, or the file is private`,
    );
  });
});
