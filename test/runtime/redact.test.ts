/** Spec 7.2 rule 3: a URL's query string is never reflected; we also drop fragment and user info. */
import { describe, expect, it } from "vitest";
import { redactUrl, redactUrlsInText } from "../../src/runtime/index.js";

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
  it("stays linear on long runs of punctuation and letters", () => {
    const text = `https://x.example/${".".repeat(200_000)}x?sig=1 ${"?".repeat(200_000)} ${"a".repeat(200_000)}`;
    const started = Date.now();
    expect(redactUrlsInText(text)).not.toContain("sig=");
    expect(Date.now() - started).toBeLessThan(2_000);
  });
  it("is idempotent", () => {
    const once = redactUrlsInText("fetch https://u:p@x.example/a?b=c#d failed.");
    expect(redactUrlsInText(once)).toBe(once);
  });
});
