/**
 * Issue 26: the preflight through the package entry point, against a real HTTP server on
 * 127.0.0.1 serving committed media fixtures (test/fixtures/preflight, made by
 * scripts/make-preflight-fixtures.sh). No other address is contacted: host names resolve
 * through an injected resolver.
 */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPreflight, preflight, type PreflightDiagnostic } from "../../src/index.js";
import { FIXTURES, startMediaServer, type MediaServer } from "./media-server.js";

let server: MediaServer;
let allow: { allowHosts: string[] };
const url = (path: string) => `${server.origin}${path}`;
const MODEL_B = "example/model-b/reference-to-video";
const MODEL_A = "example/model-a/keyframes-to-video";

beforeAll(async () => {
  server = await startMediaServer();
  allow = { allowHosts: [server.host] };
});
afterAll(() => server.close());

const rules = (ds: readonly PreflightDiagnostic[]) => ds.map((d) => `${d.pointer} ${d.rule}`);

describe("media on the bytes", () => {
  it("accepts PNG, JPEG and WebP images; reports a GIF and an HTML page named .png at their pointers", async () => {
    const input = {
      keyframes: [
        { image_url: url("/media/image.png"), frame_index: 0 },
        { image_url: url("/media/image.gif"), frame_index: 24 },
        { image_url: url("/media/page-named.png"), frame_index: 48 },
      ],
    };
    const ds = await preflight(MODEL_A, input, allow);
    expect(rules(ds)).toEqual(["/keyframes/1/image_url image-format", "/keyframes/2/image_url image-format"]);
    expect(ds[0]!.message).toBe(
      `keyframes[1].image_url: ${url("/media/image.gif")} is a GIF image (read from its bytes); images must be PNG, JPEG or WebP (spec 2.2): the service will fail this prediction with invalid_input`,
    );
    expect(ds[1]!.message).toContain("is an HTML page");
    expect(ds[0]).toMatchObject({ severity: "error", code: "invalid_input", retryable: false });

    const fine = await preflight(
      MODEL_B,
      {
        reference_images: [url("/media/image.png"), url("/media/image.jpg"), url("/media/image.webp")],
      },
      allow,
    );
    expect(fine).toEqual([]);
  });

  it("reports a video under 16 fps and reference videos over 15 s in total (MP4, MOV, WebM)", async () => {
    const input = {
      reference_videos: [
        url("/media/video-24fps.mp4"),
        url("/media/video-12fps.mp4"),
        url("/media/video.mov"),
        url("/media/video.webm"),
      ],
    };
    const ds = await preflight(MODEL_B, input, allow);
    expect(rules(ds)).toEqual([
      "/reference_videos/1 video-frame-rate",
      "/reference_videos reference-videos-total-duration",
    ]);
    expect(ds[0]!.message).toBe(
      `reference_videos[1]: ${url("/media/video-12fps.mp4")} runs at 12 fps; each reference video must be at least 16 fps (spec 4.4, 8): the service will fail this prediction with invalid_input`,
    );
    expect(ds[1]!.message).toBe(
      "reference_videos: the reference videos add up to 18 s ([0] 4 s, [1] 4 s, [2] 5 s, [3] 5 s); at most 15 s in total (spec 4.4, 8): the service will fail this prediction with invalid_input",
    );
    // a WebM's frame rate is read too
    const webm = await preflight(MODEL_B, { reference_videos: [url("/media/video-12fps.webm")] }, allow);
    expect(rules(webm)).toEqual(["/reference_videos/0 video-frame-rate"]);
    expect(webm[0]!.message).toContain("video-12fps.webm runs at 12 fps;");
    // within 15 s in total: nothing to report
    expect(
      await preflight(MODEL_B, { reference_videos: [url("/media/video.mov"), url("/media/video.webm")] }, allow),
    ).toEqual([]);
  });

  it("reads at most 512 KiB of a 1.4 MB faststart MP4 (Range requests)", async () => {
    const path = "/media/video-24fps.mp4";
    expect(statSync(join(FIXTURES, "video-24fps.mp4")).size).toBeGreaterThan(1_300_000);
    const before = server.bytesSent.get(path) ?? 0;
    const requestsBefore = server.requests.length;
    const run = createPreflight(allow);
    const ds = await run.check(MODEL_B, { reference_videos: [url(`${path}?faststart`)] });
    await run.close();
    expect(ds).toEqual([]);
    const sent = (server.bytesSent.get(path) ?? 0) - before;
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThanOrEqual(512 * 1024);
    expect(run.stats().bytes).toBe(sent);
    expect(server.requests.slice(requestsBefore).map((r) => r.headers.range)).toEqual(["bytes=0-65535"]);
  });

  it("reads an MP4 whose moov is at the end with a second Range read of the tail", async () => {
    const path = "/media/video-moov-at-end.mp4";
    const size = statSync(join(FIXTURES, "video-moov-at-end.mp4")).size;
    const ds = await preflight(
      MODEL_B,
      { reference_videos: [url(path), url("/media/video.mov"), url("/media/video.webm")] },
      allow,
    );
    // 6 s read from the moov at the end: 6 + 5 + 5 = 16 s, over 15
    expect(ds.map((d) => d.message)).toEqual([
      "reference_videos: the reference videos add up to 16 s ([0] 6 s, [1] 5 s, [2] 5 s); at most 15 s in total (spec 4.4, 8): the service will fail this prediction with invalid_input",
    ]);
    expect(server.hits(path)).toBe(2);
    expect(server.bytesSent.get(path)!).toBeLessThan(size);
  });

  it("reads a server that ignores Range from the start and cuts it off, the tail too", async () => {
    const ds = await preflight(
      MODEL_B,
      {
        reference_images: [url("/norange/image.gif")],
        reference_videos: [
          url("/norange/video-moov-at-end.mp4"),
          url("/norange/video.mov"),
          url("/norange/video.webm"),
        ],
      },
      allow,
    );
    expect(rules(ds)).toEqual([
      "/reference_images/0 image-format",
      "/reference_videos reference-videos-total-duration",
    ]);
    expect(ds[1]!.message).toContain("add up to 16 s ([0] 6 s, [1] 5 s, [2] 5 s)");
  });

  it("reports reference audios over 15 s in total (MP3, WAV, M4A)", async () => {
    const input = { reference_audios: [url("/media/audio.mp3"), url("/media/audio.wav"), url("/media/audio.m4a")] };
    const ds = await preflight(MODEL_B, input, allow);
    expect(rules(ds)).toEqual(["/reference_audios reference-audios-total-duration"]);
    expect(ds[0]!.message).toMatch(
      /^reference_audios: the reference audios add up to 18(\.\d+)? s \(\[0\] 6(\.\d+)? s, \[1\] 6 s, \[2\] 6(\.\d+)? s\); at most 15 s in total/,
    );
    expect(await preflight(MODEL_B, { reference_audios: [url("/media/audio.wav")] }, allow)).toEqual([]);
  });

  it("checks a data: URI in place, with no request, and never echoes its data", async () => {
    const before = server.requests.length;
    const gif = `data:image/gif;base64,${readFileSync(join(FIXTURES, "image.gif")).toString("base64")}`;
    const png = `data:image/png;base64,${readFileSync(join(FIXTURES, "image.png")).toString("base64")}`;
    const ds = await preflight(MODEL_B, { reference_images: [png, gif] }, allow);
    expect(rules(ds)).toEqual(["/reference_images/1 image-format"]);
    expect(ds[0]!.message).toContain(
      `reference_images[1]: a data: URI (image/gif, ${gif.length} characters) is a GIF image`,
    );
    expect(JSON.stringify(ds)).not.toContain(gif.slice(30, 60));
    expect(server.requests.length).toBe(before);
  });
});

describe("fetchability (spec 7.2 input_fetch_failed)", () => {
  const fetchCase = async (path: string, options = {}) => {
    const [d, ...rest] = await preflight(MODEL_B, { file_url: url(path) }, { ...allow, ...options });
    expect(rest).toEqual([]);
    expect(d).toMatchObject({
      rule: "input-fetch-failed",
      severity: "error",
      pointer: "/file_url",
      code: "invalid_input",
      reason: "input_fetch_failed",
    });
    return d!;
  };

  it("a 403 is not retryable and says a presigned link may have expired, without the signature", async () => {
    const d = await preflight(
      MODEL_B,
      { reference_images: [url("/status/403?X-Amz-Credential=AKIAEXAMPLE&X-Amz-Signature=SIGSECRET123")] },
      allow,
    );
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({
      rule: "input-fetch-failed",
      pointer: "/reference_images/0",
      code: "invalid_input",
      reason: "input_fetch_failed",
      retryable: false,
    });
    expect(d[0]!.message).toBe(
      `reference_images[0]: ${url("/status/403")}: the service will fail this prediction with input_fetch_failed: HTTP 403 Forbidden; a presigned link may have expired, or the file is private`,
    );
    const text = JSON.stringify(d);
    expect(text).not.toContain("SIGSECRET123");
    expect(text).not.toContain("AKIAEXAMPLE");
  });

  it("a 404 is not retryable; a 503 is", async () => {
    expect((await fetchCase("/status/404")).retryable).toBe(false);
    const busy = await fetchCase("/status/503");
    expect(busy.retryable).toBe(true);
    expect(busy.message).toContain("input_fetch_failed: HTTP 503 Service Unavailable;");
  });

  it("a redirect is reported, never followed, and its Location loses its query string", async () => {
    const before = server.hits("/media/image.png");
    const d = await fetchCase("/redirect");
    expect(d.retryable).toBe(false);
    expect(d.message).toContain(
      `a redirect (HTTP 302) to ${url("/media/image.png")}, which the service does not follow`,
    );
    expect(d.message).not.toContain("LOCATIONSECRET");
    expect(server.hits("/media/image.png")).toBe(before);
  });

  it("a host that never answers is a timeout, retryable; a reset connection is retryable", async () => {
    const d = await fetchCase("/never", { timeoutMs: 300 });
    expect(d.retryable).toBe(true);
    expect(d.message).toContain("no complete answer (headers and body) within 0.3 s (a timeout)");
    expect((await fetchCase("/reset")).retryable).toBe(true);
  });

  it("a file over the size limit is not retryable", async () => {
    const d = await preflight(
      MODEL_B,
      { reference_videos: [url("/media/video-24fps.mp4?limit")] },
      { ...allow, maxFileBytes: 1024 * 1024 },
    );
    expect(d[0]).toMatchObject({ rule: "input-fetch-failed", retryable: false });
    expect(d[0]!.message).toContain("the file is 1.3 MiB, over the size limit of 1 MiB");
  });

  it("a loopback or private host is not fetched, unless allowed; a DNS failure is retryable", async () => {
    const before = server.requests.length;
    const resolve = async (host: string) => {
      if (host === "media.example.test") return ["10.1.2.3"];
      if (host === "cgnat.example.test") return ["203.0.113.9", "100.64.0.7"];
      if (host === "v6.example.test") return ["fd00::5"];
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    };
    const ds = await preflight(
      MODEL_B,
      {
        reference_images: [
          url("/media/image.png"),
          "https://media.example.test/a.png?sig=1",
          "https://cgnat.example.test/b.png",
          "https://v6.example.test/c.png",
          "https://gone.example.test/d.png",
          "http://[::1]/e.png",
        ],
      },
      { resolve },
    );
    expect(ds.map((d) => [d.pointer, d.retryable])).toEqual([
      ["/reference_images/0", false],
      ["/reference_images/1", false],
      ["/reference_images/2", false],
      ["/reference_images/3", false],
      ["/reference_images/4", true],
      ["/reference_images/5", false],
    ]);
    expect(ds[0]!.message).toContain(
      `its host 127.0.0.1 is a loopback address (127.0.0.1) the service may not fetch from; use a publicly reachable URL (for a local mirror, allow the host: allowHosts: ["${server.host}"])`,
    );
    expect(ds[1]!.message).toContain(
      "https://media.example.test/a.png: the service will fail this prediction with input_fetch_failed: its host media.example.test is a private address (10.1.2.3)",
    );
    expect(ds[2]!.message).toContain("a CGNAT address (100.64.0.7)");
    expect(ds[3]!.message).toContain("a unique-local address (fd00::5)");
    expect(ds[4]!.message).toContain("DNS lookup of gone.example.test failed (ENOTFOUND)");
    expect(ds[5]!.message).toContain("a loopback address (::1)");
    expect(server.requests.length).toBe(before);
  });
});

describe("what it sends, and how often", () => {
  it("sends no Authorization, cookie or key: only Range and a user agent", async () => {
    const before = server.requests.length;
    await preflight(MODEL_B, { reference_images: [url("/media/image.jpg?headers")] }, allow);
    const sent = server.requests.slice(before);
    expect(sent.length).toBe(1);
    expect(Object.keys(sent[0]!.headers).sort()).toEqual(["connection", "host", "range", "user-agent"]);
  });

  it("drops user info from a URL: no Basic Authorization, and no password in any output", async () => {
    const before = server.requests.length;
    const withUser = url("/media/image.gif").replace("http://", "http://alice:PASSWORD123@");
    const ds = await preflight(MODEL_B, { reference_images: [withUser] }, allow);
    expect(rules(ds)).toEqual(["/reference_images/0 image-format"]);
    expect(JSON.stringify(ds)).not.toContain("PASSWORD123");
    const sent = server.requests.slice(before);
    expect(sent.map((r) => r.headers.authorization)).toEqual([undefined]);
  });

  it("fetches each distinct URL once per run across payloads, at most `concurrency` at a time per host", async () => {
    const slow = await startMediaServer({ gate: 2 });
    try {
      const run = createPreflight({ allowHosts: [slow.host], concurrency: 2 });
      const images = Array.from({ length: 6 }, (_, i) => `${slow.origin}/media/image.png?copy=${i}`);
      const payloads = Array.from({ length: 5 }, () => ({ reference_images: images }));
      const all = await Promise.all(payloads.map((p) => run.check(MODEL_B, p)));
      await run.close();
      expect(all.flat()).toEqual([]);
      expect(slow.hits("/media/image.png")).toBe(6);
      expect(slow.maxInFlight()).toBe(2);
      expect(run.stats()).toMatchObject({ urls: 6, requests: 6 });
    } finally {
      await slow.close();
    }
  });
});

describe("host names", () => {
  it("connects an allow-listed host name to the address its resolver gave (and to no other)", async () => {
    const port = server.host.split(":")[1];
    const resolve = async (host: string) => (host === "mirror.test" ? ["127.0.0.1"] : []);
    const ok = await preflight(
      MODEL_B,
      { reference_images: [`http://mirror.test:${port}/media/image.webp?mirror`] },
      { allowHosts: [`mirror.test:${port}`], resolve },
    );
    expect(ok).toEqual([]);
    expect(server.requests.at(-1)).toMatchObject({ target: "/media/image.webp?mirror" });
    expect(server.requests.at(-1)!.headers.host).toBe(`mirror.test:${port}`);
  });

  it("stops every fetch at the run's overall deadline, retryable", async () => {
    const ds = await preflight(MODEL_B, { web_url: url("/never?deadline") }, { ...allow, deadlineMs: 200 });
    expect(ds[0]).toMatchObject({ pointer: "/web_url", rule: "input-fetch-failed", retryable: true });
    expect(ds[0]!.message).toContain(
      "the preflight's overall deadline (0.2 s for the run) passed before the file answered",
    );
  });
});

describe("fields by the endpoint's shape", () => {
  it("finds keyframes[].image_url under a custom model id by the input schema, and skips fields the schema lacks", async () => {
    const inputSchema = {
      type: "object",
      properties: {
        keyframes: {
          type: "array",
          items: { type: "object", properties: { image_url: { type: "string" }, frame_index: { type: "integer" } } },
        },
        reference_videos: { type: "integer" },
      },
    };
    const input = {
      keyframes: [{ image_url: url("/media/image.gif"), frame_index: 0 }],
      reference_videos: [url("/media/video-12fps.mp4")],
    };
    const ds = await preflight("acme/custom/kf", input, { ...allow, inputSchema });
    expect(rules(ds)).toEqual(["/keyframes/0/image_url image-format"]);
  });
});
