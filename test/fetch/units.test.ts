/** Pure parts of stage 1 as tables: source parsing, locations, redaction, retry policy, settings. */
import { describe, expect, it } from "vitest";
import {
  FETCH_DEFAULTS,
  FetchUsageError,
  isRetryableStatus,
  modelLocation,
  parseRetryAfter,
  parseSchemaSource,
  redactUrl,
  redactUrlsInText,
  resolveFetchOptions,
  retryDelay,
  scrubSecrets,
  TRANSIENT_ERRORS,
} from "../../src/fetch/index.js";

describe("parseSchemaSource + modelLocation (spec 9.1)", () => {
  it.each([
    ["https://schemas.example.com", "https://schemas.example.com/main/o/n/latest.json"],
    ["https://schemas.example.com/base/", "https://schemas.example.com/base/main/o/n/latest.json"],
    [
      "https://m.example.com/x?X-Amz-Signature=s&e=1#top",
      "https://m.example.com/x/main/o/n/latest.json?X-Amz-Signature=s&e=1",
    ],
    ["file:///srv/mirror", "/srv/mirror/main/o/n/latest.json"],
    ["/srv/mirror", "/srv/mirror/main/o/n/latest.json"],
    ["mirror", "/work/proj/mirror/main/o/n/latest.json"],
  ])("%s → %s", (given, want) => {
    expect(modelLocation(parseSchemaSource(given, "/work/proj"), "o", "n")).toBe(want);
  });

  it.each([
    ["ftp://h/x?sig=1", 'ftp://h/x: unsupported scheme "ftp:"'],
    ["https://user:pw@h/x", "https://h/x: credentials in the URL are not supported"],
    ["  ", "the schema URL is empty"],
  ])("refuses %s", (given, message) => {
    expect(() => parseSchemaSource(given)).toThrow(FetchUsageError);
    expect(() => parseSchemaSource(given)).toThrow(message);
  });
});

describe("redaction (spec 7.2 rule 3)", () => {
  it.each([
    ["https://u:p@cdn.example.com/a.json?sig=1#f", "https://cdn.example.com/a.json"],
    ["http://127.0.0.1:8080/main/o/n/latest.json", "http://127.0.0.1:8080/main/o/n/latest.json"],
    ["/plain/path", "/plain/path"],
  ])("redactUrl(%s)", (given, want) => expect(redactUrl(given)).toBe(want));

  it("redacts URLs inside text and keeps trailing punctuation", () => {
    expect(redactUrlsInText("see https://h/a?sig=1, then http://h/b#x.")).toBe("see https://h/a, then http://h/b.");
  });

  it("scrubSecrets redacts URLs and every occurrence of VSK_API_KEY (trimmed), and nothing else", () => {
    const env = { VSK_API_KEY: "  sk-live-42  " };
    expect(scrubSecrets("key sk-live-42 at https://h/a?key=sk-live-42; again sk-live-42.", env)).toBe(
      "<redacted> at https://h/a; again <redacted>.",
    );
    expect(scrubSecrets("https://h/a?sig=1 and sk-live-42", {})).toBe("https://h/a and sk-live-42");
    expect(scrubSecrets("plain text", { VSK_API_KEY: "   " })).toBe("plain text");
  });
});

describe("retry policy", () => {
  it.each([
    [500, true],
    [503, true],
    [408, true],
    [429, true],
    [400, false],
    [401, false],
    [403, false],
    [404, false],
    [410, false],
  ])("status %i retryable: %s", (status, want) => expect(isRetryableStatus(status)).toBe(want));

  it("knows DNS failures, resets and timeouts as transient", () => {
    for (const code of [
      "ENOTFOUND",
      "EAI_AGAIN",
      "ECONNRESET",
      "UND_ERR_CONNECT_TIMEOUT",
      "UND_ERR_HEADERS_TIMEOUT",
      "UND_ERR_BODY_TIMEOUT",
    ]) {
      expect(TRANSIENT_ERRORS[code]).toBeDefined();
    }
  });

  it.each([
    ["delta seconds", "120", 120_000],
    ["HTTP date", "Wed, 21 Oct 2026 07:28:30 GMT", 30_000],
    ["garbage", "soon", undefined],
    ["absent", undefined, undefined],
  ])("parseRetryAfter: %s", (_name, given, want) => {
    expect(parseRetryAfter(given, Date.parse("Wed, 21 Oct 2026 07:28:00 GMT"))).toBe(want);
  });

  it.each([
    [0, 0, undefined, 250],
    [0, 1, undefined, 500],
    [2, 0.5, undefined, 1500],
    [1, 0, 20_000, 20_000],
    [1, 0, 3_600_000, 30_000],
    [10, 1, undefined, 30_000],
  ])("retryDelay(retry %i, random %d, Retry-After %s) = %i", (retry, random, retryAfter, want) => {
    expect(retryDelay(retry, 500, 30_000, retryAfter, () => random)).toBe(want);
  });
});

describe("settings", () => {
  it("defaults, then the environment, then explicit options", () => {
    expect(resolveFetchOptions({ env: {} })).toMatchObject({ ...FETCH_DEFAULTS, apiKey: undefined });
    const fromEnv = resolveFetchOptions({
      env: { VSK_FETCH_TIMEOUT_MS: "200", VSK_RETRY_BASE_MS: "7", VSK_FETCH_MAX_BYTES: "1000", VSK_API_KEY: " k " },
    });
    expect(fromEnv).toMatchObject({
      connectTimeoutMs: 200,
      headersTimeoutMs: 200,
      bodyTimeoutMs: 200,
      retryBaseMs: 7,
      maxBytes: 1000,
      apiKey: "k",
    });
    expect(resolveFetchOptions({ env: { VSK_FETCH_RETRIES: "1" }, retries: 0 }).retries).toBe(0);
  });

  it("refuses a bad number, and a key that cannot be a header without echoing it", () => {
    expect(() => resolveFetchOptions({ env: { VSK_FETCH_TIMEOUT_MS: "fast" } })).toThrow(
      'VSK_FETCH_TIMEOUT_MS must be a whole number >= 0, got "fast"',
    );
    const attempt = (): unknown => resolveFetchOptions({ env: { VSK_API_KEY: "abc\r\nX-Evil: 1" } });
    expect(attempt).toThrow(FetchUsageError);
    expect(attempt).not.toThrow(/abc|Evil/);
  });
});
