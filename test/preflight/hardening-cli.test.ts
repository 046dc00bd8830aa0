/**
 * Issue 37, items 2 to 8, as a user meets them: `vsk lint --preflight` (bin/vsk.mjs in a child
 * process) against real HTTP servers on 127.0.0.1. Two runs: one log whose payloads carry every
 * hostile case at once, and one that shows the pace (the per-host limit reached, never passed).
 * The library's side of each item is in hardening.test.ts.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir, vskAsync } from "../cli/run.js";
import { HUGE_BYTES, startMediaServer, type MediaServer } from "./media-server.js";

let server: MediaServer;
let dir: string;
beforeAll(async () => {
  server = await startMediaServer();
  dir = tempDir("vsk-preflight37-");
});
afterAll(() => server.close());

const envelope = (input: Record<string, unknown>) =>
  JSON.stringify({ model: "example/model-b", endpoint: "reference-to-video", input: { prompt: "a cat", ...input } });

type Report = {
  results: Array<{
    line: number;
    valid: boolean;
    diagnostics: Array<{ pointer: string; rule: string; message: string }>;
  }>;
};

describe("vsk lint --preflight against hostile servers and addresses", () => {
  it("refuses IPv6 forms of private IPv4, stops a trickle at --preflight-timeout, reads 64 KiB + 4 MiB of a Range-ignoring 100 MiB file, and words it all plainly", async () => {
    const port = server.host.split(":")[1]!;
    const url = (path: string) => `${server.origin}${path}`;
    writeFileSync(
      join(dir, "hostile.ndjson"),
      [
        envelope({
          reference_images: [
            `http://[64:ff9b::7f00:1]:${port}/media/image.png`,
            "http://0.0.0.0:9/a.png",
            "data:image/png",
            url("/status/503"),
            // the allow-list names another port: this one is checked, and refused
            `http://127.0.0.1:${Number(port) === 9 ? 10 : 9}/media/image.png`,
          ],
        }),
        envelope({ reference_videos: [url("/huge-norange.mp4")] }),
        envelope({ reference_images: [url("/trickle"), url("/media/image.png")] }),
      ].join("\n") + "\n",
    );
    const started = performance.now();
    const run = await vskAsync(
      [
        "lint",
        "--preflight",
        "--preflight-allow-host",
        server.host,
        "--preflight-timeout",
        "1",
        "--preflight-concurrency",
        "1",
        "--format",
        "json",
        "hostile.ndjson",
      ],
      dir,
    );
    const took = performance.now() - started;
    expect(run.code, run.stderr).toBe(1);
    const report = JSON.parse(run.stdout) as Report;
    const [first, second, third] = report.results.map((r) => r.diagnostics.map((d) => d.message));
    expect(first).toEqual([
      expect.stringContaining(
        `its host [64:ff9b::7f00:1] is an address (64:ff9b::7f00:1) that carries a loopback IPv4 address (127.0.0.1, NAT64) the service may not fetch from; use a publicly reachable URL (for a local mirror, allow the host: --preflight-allow-host [64:ff9b::7f00:1]:${port})`,
      ),
      expect.stringContaining("its host 0.0.0.0 is an unspecified address (0.0.0.0)"),
      "reference_images[2]: a data: URI with no comma before its data (14 characters): the service will fail this prediction with input_fetch_failed: a data: URI without a comma before its data",
      `reference_images[3]: ${url("/status/503")}: the service will fail this prediction with input_fetch_failed: HTTP 503 Service Unavailable; the host failed for the moment (retryable: the same request may succeed later)`,
      expect.stringContaining("is a loopback address (127.0.0.1)"),
    ]);
    expect(second).toEqual([
      expect.stringContaining(
        "is an MP4 video; the preflight could not read its duration and frame rate (the server ignored the Range request and sent the file from its start, and the preflight reads at most 4160 KiB of a file, so the part that holds them was not read)",
      ),
    ]);
    expect(server.bytesSent.get("/huge-norange.mp4")!).toBeLessThan(HUGE_BYTES / 5);
    // the trickle times out at 1 s (not the run's 120 s deadline); the file queued behind it is fetched and passes
    expect(third).toEqual([expect.stringContaining("no complete answer (headers and body) within 1 s (a timeout)")]);
    expect(server.hits("/media/image.png")).toBeGreaterThan(0);
    expect(took).toBeLessThan(20_000);
  });

  it("keeps payloads in flight: 4 requests at a time with --preflight-concurrency 4 (never more), results in input order", async () => {
    const slow = await startMediaServer({ latencyMs: 150 });
    try {
      const lines = Array.from({ length: 40 }, (_, i) =>
        envelope({ reference_images: [`${slow.origin}/media/image.${i % 10 === 9 ? "gif" : "png"}?n=${i}`] }),
      );
      writeFileSync(join(dir, "paced.ndjson"), lines.join("\n") + "\n");
      const run = await vskAsync(
        [
          "lint",
          "--preflight",
          "--preflight-allow-host",
          slow.host,
          "--preflight-concurrency",
          "4",
          "--format",
          "json",
          "paced.ndjson",
        ],
        dir,
      );
      expect(run.code, run.stderr).toBe(1);
      expect(slow.maxInFlight()).toBe(4);
      const report = JSON.parse(run.stdout) as Report;
      expect(report.results.map((r) => r.line)).toEqual(lines.map((_, i) => i + 1));
      expect(report.results.filter((r) => !r.valid).map((r) => r.line)).toEqual([10, 20, 30, 40]);
    } finally {
      await slow.close();
    }
  });
});
