import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as runtime from "../../src/runtime/index.js";
import * as support from "../../src/diagnostics/index.js";

// generated/support.js carries its own copy of the runtime's URL redaction; both must agree.
describe("URL redaction in generated code equals the runtime's", () => {
  const samples = [
    "https://cdn.example.com/a.png?X-Amz-Signature=abc#top",
    "https://user:pw@cdn.example.com/a.png",
    "could not fetch https://b.example/x.mp4?sig=1: HTTP 403",
    "https://x.io/my clip.mp4?sig=SECRET",
    "bucket.s3.amazonaws.com/key?X-Amz-Signature=abc",
    "no url here",
  ];
  it.each(samples)("%s", (text) => {
    expect(support.redactUrlsInText(text)).toBe(runtime.redactUrlsInText(text));
    expect(support.redactUrl(text)).toBe(runtime.redactUrl(text));
  });
  it("on arbitrary text", () => {
    const urlish = fc.stringMatching(/^[a-z]{1,5}:\/\/[a-z.@:]{1,12}\/[a-z ]{0,6}(\?[a-z]=[a-z]{0,5})?(#x)?[ .,]?$/);
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), urlish),
        (text) => support.redactUrlsInText(text) === runtime.redactUrlsInText(text),
      ),
    );
  });
});
