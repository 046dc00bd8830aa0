/** Spec 7.2 rule 3: a URL's query string is never reflected; we also drop fragment and user info. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readPrediction, readQueueStatus, readWebhook, redactUrl, redactUrlsInText } from "../../src/runtime/index.js";
import { mayHoldSecret, redactEveryWord, redactPointer } from "../../src/runtime/redact.js";

describe("redactUrl", () => {
  const cases: [string, string, string][] = [
    [
      "a presigned URL",
      "https://b.s3.amazonaws.com/k.png?X-Amz-Signature=abc&X-Amz-Credential=AKIA",
      "https://b.s3.amazonaws.com/k.png",
    ],
    ["a fragment", "https://x.example/v.mp4#t=3", "https://x.example/v.mp4"],
    ["user info", "https://user:pw@x.example/a.png", "https://x.example/a.png"],
    ["all three", "https://u:p@x.example/a.png?sig=1#f", "https://x.example/a.png"],
    ["an @ in the path is not user info", "https://x.example/@me/a.png", "https://x.example/@me/a.png"],
    ["nothing to remove", "https://x.example/a.png", "https://x.example/a.png"],
    ["the case of the host is kept", "https://CDN.Example.com/A.png?x=1", "https://CDN.Example.com/A.png"],
    ["not a URL", "plain text?x=1", "plain text"],
    ["an upper-case scheme", "HTTPS://U:P@CDN.EXAMPLE/A.PNG?SIG=1", "HTTPS://CDN.EXAMPLE/A.PNG"],
    ["a path parameter", "https://x.example/a.png;jsessionid=SECRET", "https://x.example/a.png"],
    ["a path parameter mid-path", "https://x.example/a;jsessionid=SECRET/b.png", "https://x.example/a/b.png"],
    ["protocol-relative with a fragment", "//h.example/x#access_token=SECRET", "//h.example/x"],
    ["backslashes read as slashes", "https:\\\\u:SECRET@h.example/a", "https:\\\\h.example/a"],
    ["empty", "", ""],
  ];
  it.each(cases)("%s", (_name, url, want) => {
    expect(redactUrl(url)).toBe(want);
  });
  it("returns an empty string for a value that is not a string", () => {
    expect(redactUrl(42 as never)).toBe("");
  });
});

describe("redactUrlsInText", () => {
  const cases: [string, string, string][] = [
    [
      "a URL in a sentence",
      "Could not fetch https://x.example/a.png?sig=1: HTTP 403",
      "Could not fetch https://x.example/a.png: HTTP 403",
    ],
    ["a URL at the end of a sentence", "See https://x.example/a?k=v.", "See https://x.example/a."],
    ["a URL in parentheses", "(https://x.example/a?k=v)", "(https://x.example/a)"],
    ["a quoted URL", 'url "https://x.example/a?k=v" failed', 'url "https://x.example/a" failed'],
    ["several URLs", "http://a.example/1?s=1 http://b.example/2#x", "http://a.example/1 http://b.example/2"],
    ["other schemes", "s3://bucket/key?versionId=1", "s3://bucket/key"],
    ["text without a URL", "prompt: must not be empty?", "prompt: must not be empty?"],
    ["a question mark in prose", "why? a=b is fine", "why? a=b is fine"],
    [
      "an apostrophe inside a URL",
      "fetch https://x.example/it's.png?sig=1 failed",
      "fetch https://x.example/it's.png failed",
    ],
    ["a single-quoted URL", "url 'https://x.example/a?k=v' failed", "url 'https://x.example/a' failed"],
    [
      "a URL without a scheme",
      "fetch bucket.s3.amazonaws.com/k.png?X-Amz-Signature=abc: 403",
      "fetch bucket.s3.amazonaws.com/k.png: 403",
    ],
    [
      "a URL broken by a space",
      "fetch https://x.example/my file.png?sig=1 failed",
      "fetch https://x.example/my file.png failed",
    ],
  ];
  it.each(cases)("%s", (_name, text, want) => {
    expect(redactUrlsInText(text)).toBe(want);
  });

  // URLs written to slip past a redactor: none of them may keep SECRET
  const hostile: [string, string, string][] = [
    ["no scheme, first parameter without =", "get host/a.png?download&sig=SECRET now", "get host/a.png now"],
    ["protocol-relative, token in the fragment", "get //h/x#access_token=SECRET now", "get //h/x now"],
    ["no scheme, token in the fragment", "get h.example/x#access_token=SECRET now", "get h.example/x now"],
    ["an upper-case scheme", "get HTTPS://H.EXAMPLE/a.png?SIG=SECRET now", "get HTTPS://H.EXAMPLE/a.png now"],
    ["upper-case scheme and user info", "get HTTP://u:SECRET@H.EXAMPLE/a now", "get HTTP://H.EXAMPLE/a now"],
    [
      "a ;jsessionid path parameter",
      "get https://h.example/a.png;jsessionid=SECRET now",
      "get https://h.example/a.png now",
    ],
    ["a path parameter without a scheme", "get h.example/a.png;jsessionid=SECRET. Then", "get h.example/a.png. Then"],
    ["user:password@ with a scheme", "get ftp://user:SECRET@h.example/x now", "get ftp://h.example/x now"],
    ["user:password@ without a scheme", "get user:SECRET@h.example/a.png now", "get h.example/a.png now"],
    ["user:password@ protocol-relative", "get //user:SECRET@h.example/a now", "get //h.example/a now"],
    ["an @ inside the password", "get https://u:SEC@RET@h.example/a now", "get https://h.example/a now"],
    ["a query without =", "get h.example/a.png?SECRET now", "get h.example/a.png now"],
    ["after an equals sign", "url=https://h.example/a?sig=SECRET", "url=https://h.example/a"],
    ["in parentheses, protocol-relative", "(//h.example/a?sig=SECRET)", "(//h.example/a)"],
    ["backslash separators", "get https:/\\u:SECRET@h.example/a now", "get https:/\\h.example/a now"],
    ["an IPv6 host with user info", "get http://u:SECRET@[::1]:8080/a now", "get http://[::1]:8080/a now"],
    ["a quoted JSON value", '{"url":"https://h.example/a?sig=SECRET"}', '{"url":"https://h.example/a"}'],
    ["a host with a port, no scheme", "get localhost:8080/a?SECRET now", "get localhost:8080/a now"],
    ["a dotted host, no path", "get h.example?SECRET now", "get h.example now"],
    ["a path ending in a file name", "get some/dir/a.mp4?SECRET now", "get some/dir/a.mp4 now"],
    ["a path with parameters in the fragment", "get owner/repo#token=SECRET now", "get owner/repo now"],
    // a "scheme" (letters, then :// or :/\) inside the query of a URL before it: all of it is query
    ["a scheme-like word in the query", "get localhost:8080/p?x&sig=SECRET:/\\n now", "get localhost:8080/p now"],
    ["a scheme-like word in a fragment", "get h.example/a#t=SECRET://x now", "get h.example/a now"],
    ["a URL in the query of a file name", "get a.png?u=SECRET&v=https://h.example/b?sig=SECRET now", "get a.png now"],
  ];
  it.each(hostile)("hostile: %s", (_name, text, want) => {
    expect(redactUrlsInText(text)).toBe(want);
    expect(redactUrlsInText(text)).not.toContain("SECRET");
  });
  it.each([
    ["a question in prose", "is it valid? yes"],
    ["an issue number", "see #12 and C#"],
    ["an e-mail address", "write to ops@example.com"],
    ["a content type", "application/json; charset=utf-8"],
    ["a ratio", 'aspect_ratio: "17:9" is not one of "16:9"'],
    // issue 23.3: only a URL loses its query string and fragment
    ["a repository issue reference", "octo-org/octo-repo#2"],
    ["a Markdown heading", "## Forged"],
    ["a heading after a line break", "x\n## Forged"],
    ["a path with a fragment-like tail", "docs/guide#setup and src/a?b"],
    ["a repository reference in a sentence", "see octo-org/octo-repo#2, then owner/name?tab"],
    ["a C# file name", "src/C#/x and ##"],
  ])("leaves prose alone: %s", (_name, text) => {
    expect(redactUrlsInText(text)).toBe(text);
  });
  it("stays linear on long runs of punctuation and letters", () => {
    const text = `https://x.example/${".".repeat(200_000)}x?sig=1 ${"?".repeat(200_000)} ${"a".repeat(200_000)} a.b${";k=v".repeat(50_000)} ${"u:p@".repeat(50_000)} ${"://".repeat(50_000)} ${"//".repeat(100_000)}`;
    const started = Date.now();
    expect(redactUrlsInText(text)).not.toContain("sig=");
    expect(Date.now() - started).toBeLessThan(2_000);
  });
  it("is idempotent", () => {
    const once = redactUrlsInText("fetch https://u:p@x.example/a?b=c#d failed.");
    expect(redactUrlsInText(once)).toBe(once);
  }); // The prefilter skips the redaction for most messages (`keyframes[2]; each …`, `did you mean "3:4"?`):
  // it must never skip a text the redaction would change.
  const piece = fc.constantFrom(...'?#;@=/\\:. "<>`&aZ0_-)'.split(""), "https://", "a.png", "k=v", "user:pw@", "//h");
  it("its fast path lets through only texts that word-by-word redaction leaves unchanged", () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 24 }), (pieces) => {
        const text = pieces.join("");
        if (!mayHoldSecret(text)) expect(redactEveryWord(text)).toBe(text);
        expect(redactUrlsInText(text)).toBe(redactEveryWord(text));
      }),
      { numRuns: 3000 },
    );
  });
  it.each([
    ['did you mean "3:4"?', false],
    ["keyframes[2]; each frame_index must be unique", false],
    ["a?b", true],
    ["x.png;jsessionid=1", true],
    ["ops@example.com", true],
    ["see //host/a", true],
  ])("its fast path: %s → may hold a secret: %s", (text, expected) => {
    expect(mayHoldSecret(text)).toBe(expected);
  });
});

describe("the readers' notes never echo a signed URL (spec 7.2 rule 3)", () => {
  const signed = [
    "https://cdn.example/x.mp4?X-Amz-Signature=SECRET",
    "cdn.example/x.mp4?download&sig=SECRET",
    "//cdn.example/x.mp4#access_token=SECRET",
    "HTTPS://u:SECRET@CDN.EXAMPLE/x.mp4",
    "https://cdn.example/x.mp4;jsessionid=SECRET",
  ];
  const shapes: [string, (url: string) => unknown][] = [
    ["an error string on a queued update", (url) => ({ request_id: "r", status: "queued", error: url })],
    ["the update itself a string", (url) => url],
    ["retryable a string", (url) => ({ request_id: "r", status: "failed", error: { code: "x", retryable: url } })],
    ["code and reason unknown", (url) => ({ request_id: "r", status: "failed", error: { code: url, reason: url } })],
    [
      "a getter that throws with the URL",
      (url) => ({
        request_id: "r",
        get status(): string {
          throw new Error(`cannot read ${url}`);
        },
      }),
    ],
  ];
  for (const [name, shape] of shapes)
    it.each(signed)(`${name}: %s`, (url) => {
      for (const read of [readQueueStatus, readPrediction, readWebhook]) {
        const notes = read(shape(url)).notes;
        expect(notes.join("\n")).not.toContain("SECRET");
      }
    });
});

describe("redactPointer: a JSON Pointer is redacted token by token (issue 23.2)", () => {
  const RFC6901 = /^(\/([^~]|~[01])*)*$/;
  const encode = (tokens: readonly string[]): string =>
    tokens.map((t) => "/" + t.replace(/~/g, "~0").replace(/\//g, "~1")).join("");

  it("a field name with user info before a signed URL keeps a valid pointer (drift's counterexample)", () => {
    const key = '/?\u001b|:[@@/\u202e https://h.example/a#sig=SECRET?.\n"`';
    const out = redactPointer(encode(["properties", key]));
    // redacting the pointer's text cut `1?\u001b|:[@@` out of `~1?\u001b|:[@@~1`, leaving a lone `~`
    expect(out).toMatch(RFC6901);
    expect(out).not.toContain("SECRET");
    expect(out).toBe(encode(["properties", redactUrlsInText(key)]));
  });

  it("leaves a pointer with nothing to redact as it is, and redacts text that is not a pointer as text", () => {
    expect(redactPointer("/keyframes/0/image_url")).toBe("/keyframes/0/image_url");
    expect(redactPointer("")).toBe("");
    expect(redactPointer("https://h.example/a?sig=1")).toBe("https://h.example/a");
  });

  it("property: equals the pointer of the redacted tokens, always a valid pointer (seeded)", () => {
    const token = fc.string({
      maxLength: 24,
      unit: fc.constantFrom(..."/~01?#&=;:@.\\ ahx".split(""), "https://h.example/a", "//h.example/", "u:p@", "?sig=S"),
    });
    fc.assert(
      fc.property(fc.array(token, { maxLength: 5 }), (tokens) => {
        const out = redactPointer(encode(tokens));
        expect(out).toMatch(RFC6901);
        expect(out).toBe(encode(tokens.map(redactUrlsInText)));
      }),
      { seed: 2611, numRuns: 2000 },
    );
  });
});
