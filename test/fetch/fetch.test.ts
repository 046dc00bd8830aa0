/**
 * Stage 1 against a real HTTP server on 127.0.0.1 with faults injected; short timeouts and
 * retry delays are passed as options so every case takes milliseconds.
 */
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { FetchError, fetchModelSchema, type FetchOptions } from "../../src/fetch/index.js";
import { file, hang, json, oversize, redirect, reset, stall, startServer, text, type TestServer } from "./serve.js";

const MIRROR = resolve(import.meta.dirname, "../fixtures/pull/mirror");
const MODEL_A = "/main/example/model-a/latest.json";
const SECRET = "sk-test-0123456789abcdef";

const delays: number[] = [];
const fast: FetchOptions = {
  env: {},
  connectTimeoutMs: 300,
  headersTimeoutMs: 300,
  bodyTimeoutMs: 300,
  retryBaseMs: 5,
  retryMaxDelayMs: 40,
  random: () => 0.5,
  sleep: async (ms) => {
    delays.push(ms);
    await new Promise((done) => setTimeout(done, ms));
  },
};

const servers: TestServer[] = [];
async function serve(...args: Parameters<typeof startServer>): Promise<TestServer> {
  const server = await startServer(...args);
  servers.push(server);
  return server;
}
afterEach(async () => {
  delays.length = 0;
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function failure(promise: Promise<unknown>): Promise<FetchError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FetchError);
  return error as FetchError;
}

describe("fetchModelSchema over HTTP", () => {
  it("retries a 500 and succeeds on the 200 that follows", async () => {
    const server = await serve({ [MODEL_A]: [text(500, "oops"), file(join(MIRROR, MODEL_A))] });
    const got = await fetchModelSchema(server.origin, "example/model-a", fast);
    expect(got.attempts).toBe(2);
    expect(server.hits(MODEL_A)).toBe(2);
    expect((got.document as { openapi: string }).openapi).toMatch(/^3\.1/);
    expect(got.source).toBe(`${server.origin}${MODEL_A}`);
  });

  it("honours Retry-After on 429, capped by retryMaxDelayMs", async () => {
    const server = await serve({ [MODEL_A]: [json({}, 429, { "retry-after": "3600" }), json({ openapi: "3.1.0" })] });
    const got = await fetchModelSchema(server.origin, "example/model-a", fast);
    expect(got.attempts).toBe(2);
    expect(delays).toEqual([40]);
  });

  it("backs off exponentially with jitter between retries on 503", async () => {
    const server = await serve({ [MODEL_A]: json({ error: {} }, 503) });
    const error = await failure(fetchModelSchema(server.origin, "example/model-a", { ...fast, random: () => 0 }));
    expect(server.hits(MODEL_A)).toBe(4);
    expect(delays).toEqual([3, 5, 10]); // base 5: 5/2, 10/2, 20/2 with random() = 0
    expect(error).toMatchObject({ status: 503, retryable: true, attempts: 4 });
    expect(error.message).toContain("gave up after 4 attempts");
  });

  it("does not retry a 404, and prints the URL without its query string", async () => {
    const server = await serve();
    const error = await failure(
      fetchModelSchema(`${server.origin}/?X-Amz-Signature=topsecret#frag`, "example/model-a", fast),
    );
    expect(server.hits(MODEL_A)).toBe(1);
    expect(server.requests[0]!.target).toBe(`${MODEL_A}?X-Amz-Signature=topsecret`); // the query string is sent...
    expect(error).toMatchObject({
      model: "example/model-a",
      status: 404,
      retryable: false,
      attempts: 1,
      url: `${server.origin}${MODEL_A}`,
    });
    expect(error.message).toBe(`example/model-a: ${server.origin}${MODEL_A}: HTTP 404 Not Found`);
    expect(error.message).not.toMatch(/topsecret|frag|\?/); // ...and never shown
  });

  it("explains a text/plain 502 from a CDN edge", async () => {
    const server = await serve({ [MODEL_A]: text(502, "upstream connect error or disconnect/reset before headers") });
    const error = await failure(fetchModelSchema(server.origin, "example/model-a", { ...fast, retries: 1 }));
    expect(error).toMatchObject({ status: 502, retryable: true, attempts: 2 });
    expect(error.message).toContain(
      "HTTP 502 Bad Gateway; the body is text/plain, not JSON: likely a CDN edge or proxy in front of the schema host",
    );
    expect(error.message).not.toContain("upstream connect error"); // the body itself is not echoed
  });

  it("reports an HTML 404 from a static host as just the status", async () => {
    const server = await serve({ [MODEL_A]: text(404, "<html>Not Found</html>", "text/html") });
    const error = await failure(fetchModelSchema(server.origin, "example/model-a", fast));
    expect(error.message).toBe(`example/model-a: ${server.origin}${MODEL_A}: HTTP 404 Not Found`);
  });

  it("rejects a 200 whose body is HTML, naming model, URL and status", async () => {
    const server = await serve({ [MODEL_A]: text(200, "<!doctype html><title>Just a moment…</title>", "text/html") });
    const error = await failure(fetchModelSchema(server.origin, "example/model-a", fast));
    expect(error).toMatchObject({ status: 200, retryable: false });
    expect(error.message).toBe(
      `example/model-a: ${server.origin}${MODEL_A}: HTTP 200 with content-type text/html: the body is not JSON (it looks like HTML or XML: an error page from a CDN edge or proxy?)`,
    );
  });

  it("locates a syntax error JSON.parse gives no position for, and is not fooled by 'position' in the body", async () => {
    const body = '{\n  "openapi": "3.1.0",\n  "note": "see position 3",\n  "paths": nope\n}\n';
    const server = await serve({ [MODEL_A]: text(200, body, "application/json") });
    const error = await failure(fetchModelSchema(server.origin, "example/model-a", fast));
    expect(error.message).toBe(
      `example/model-a: ${server.origin}${MODEL_A}: HTTP 200 with content-type application/json: ` +
        'the body is not JSON (invalid JSON at line 4, column 12: unexpected "n", expected a value)',
    );
    expect(error).toMatchObject({ status: 200, retryable: false, attempts: 1 });
  });

  it("accepts JSON served as text/plain (raw file hosts do that)", async () => {
    const server = await serve({ [MODEL_A]: text(200, '{"openapi":"3.1.0"}') });
    await expect(fetchModelSchema(server.origin, "example/model-a", fast)).resolves.toMatchObject({
      document: { openapi: "3.1.0" },
    });
  });

  it("times out when the headers never come, and retries", async () => {
    const server = await serve({ [MODEL_A]: hang });
    const error = await failure(
      fetchModelSchema(server.origin, "example/model-a", { ...fast, headersTimeoutMs: 150, retries: 1 }),
    );
    expect(server.hits(MODEL_A)).toBe(2);
    expect(error).toMatchObject({ retryable: true, attempts: 2 });
    expect(error.status).toBeUndefined();
    expect(error.message).toContain("no response headers before the timeout (150 ms) [UND_ERR_HEADERS_TIMEOUT]");
  });

  it("times out when the body stalls", async () => {
    const server = await serve({ [MODEL_A]: stall });
    const error = await failure(
      fetchModelSchema(server.origin, "example/model-a", { ...fast, bodyTimeoutMs: 150, retries: 0 }),
    );
    expect(error.message).toContain("the body stalled past the timeout (150 ms) [UND_ERR_BODY_TIMEOUT]");
  });

  it("retries after a connection reset", async () => {
    const server = await serve({ [MODEL_A]: [reset, json({ openapi: "3.1.0" })] });
    const got = await fetchModelSchema(server.origin, "example/model-a", fast);
    expect(got.attempts).toBe(2);
  });

  it("treats a refused connection as retryable", async () => {
    const server = await serve();
    const origin = server.origin;
    await server.close();
    servers.length = 0;
    const error = await failure(fetchModelSchema(origin, "example/model-a", { ...fast, retries: 1 }));
    expect(error).toMatchObject({ retryable: true, attempts: 2 });
    expect(error.message).toContain("connection refused [ECONNREFUSED]");
  });

  it.each([
    ["with a Content-Length", true],
    ["streamed without a Content-Length", false],
  ])("aborts a body over the size cap (%s)", async (_name, declared) => {
    const server = await serve({ [MODEL_A]: oversize(50 * 1024 * 1024, declared) });
    const error = await failure(
      fetchModelSchema(server.origin, "example/model-a", { ...fast, maxBytes: 100_000, bodyTimeoutMs: 5000 }),
    );
    expect(error).toMatchObject({ status: 200, retryable: false, attempts: 1 });
    expect(error.message).toContain("larger than the 100000-byte limit (VSK_FETCH_MAX_BYTES); download aborted");
    await new Promise((done) => setTimeout(done, 50));
    expect(server.aborted.has(MODEL_A)).toBe(true);
  });
});

describe("Authorization (spec 5)", () => {
  const withKey: FetchOptions = { ...fast, env: { VSK_API_KEY: SECRET } };

  it("sends Authorization: Key <key> and never puts the key in an error", async () => {
    const server = await serve({ [MODEL_A]: json({}, 401) });
    const error = await failure(fetchModelSchema(server.origin, "example/model-a", withKey));
    expect(server.requests[0]!.headers.authorization).toBe(`Key ${SECRET}`);
    expect(JSON.stringify({ ...error, message: error.message })).not.toContain(SECRET);
  });

  it("keeps it across a same-origin redirect and drops it for another origin", async () => {
    const other = await serve({ "/signed/model-a.json": file(join(MIRROR, MODEL_A)) });
    const server = await serve({
      [MODEL_A]: redirect("/moved/model-a.json", 301),
      "/moved/model-a.json": redirect(`${other.origin}/signed/model-a.json?sig=abc`, 307),
    });
    const got = await fetchModelSchema(server.origin, "example/model-a", withKey);
    expect(got.attempts).toBe(1);
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([`Key ${SECRET}`, `Key ${SECRET}`]);
    expect(other.requests).toHaveLength(1);
    expect(other.requests[0]!.target).toBe("/signed/model-a.json?sig=abc");
    expect(other.requests[0]!.headers.authorization).toBeUndefined();
  });

  it("stops after 5 redirects", async () => {
    const server = await serve({ [MODEL_A]: redirect(MODEL_A) });
    const error = await failure(fetchModelSchema(server.origin, "example/model-a", fast));
    expect(server.hits(MODEL_A)).toBe(6);
    expect(error).toMatchObject({ retryable: false, status: 302 });
    expect(error.message).toContain("more than 5 redirects");
  });

  it("reports a redirect with an invalid Location header as a clear, non-retryable FetchError", async () => {
    const server = await serve({ [MODEL_A]: redirect("http://[::1") });
    const error = await failure(fetchModelSchema(server.origin, "example/model-a", fast));
    expect(server.hits(MODEL_A)).toBe(1);
    expect(error).toMatchObject({ retryable: false, status: 302, attempts: 1 });
    expect(error.message).toContain("HTTP 302 Found: redirect with an invalid Location header");
    expect(error.message).toContain(`example/model-a: ${server.origin}${MODEL_A}`);
  });

  it("refuses a redirect to a file:// URL", async () => {
    const server = await serve({ [MODEL_A]: redirect("file:///etc/passwd") });
    const error = await failure(fetchModelSchema(server.origin, "example/model-a", fast));
    expect(error.message).toContain("refused: only http(s) is followed");
  });
});

describe("fetchModelSchema from files", () => {
  it.each([
    ["a directory path", MIRROR],
    ["a file:// URL (query string ignored)", pathToFileURL(MIRROR).href + "?ignored=1"],
  ])("reads %s laid out as a mirror", async (_name, source) => {
    const got = await fetchModelSchema(source, "example/model-b", fast);
    expect(got).toMatchObject({
      model: "example/model-b",
      source: join(MIRROR, "main/example/model-b/latest.json"),
      attempts: 1,
    });
    expect(got.status).toBeUndefined();
  });

  it("says which file is missing, and when the directory itself does not exist", async () => {
    const missing = await failure(fetchModelSchema(MIRROR, "example/model-z", fast));
    expect(missing.message).toContain("no such file in the mirror");
    const noDir = await failure(fetchModelSchema("schemas.example.com/v1", "example/model-a", fast));
    expect(noDir.message).toContain("is not an existing directory (for a web address write https://…)");
  });

  it("names line and column of broken JSON, and caps the size", async () => {
    const broken = resolve(import.meta.dirname, "../fixtures/pull/broken-json");
    const error = await failure(fetchModelSchema(broken, "example/model-a", fast));
    expect(error.message).toMatch(
      /example\/model-a: .*broken-json\/main\/example\/model-a\/latest\.json: the body is not JSON \(invalid JSON at line 4, column 1: unexpected end of input, expected a double-quoted property name\)$/,
    );
    const big = await failure(fetchModelSchema(MIRROR, "example/model-a", { ...fast, maxBytes: 100 }));
    expect(big.message).toMatch(/is \d+ bytes, over the 100-byte limit/);
  });

  it("strips a byte-order mark", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vsk-fetch-"));
    try {
      mkdirSync(join(dir, "main/o/n"), { recursive: true });
      writeFileSync(join(dir, "main/o/n/latest.json"), '\uFEFF{"openapi":"3.1.0"}');
      const got = await fetchModelSchema(dir, "o/n", fast);
      expect(got.text).toBe('{"openapi":"3.1.0"}');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
