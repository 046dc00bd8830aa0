import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonSyntaxError } from "../../src/json/index.js";

describe("jsonSyntaxError names line, column and problem of a text JSON.parse rejects", () => {
  const cases: Array<[string, string, number, number, RegExp]> = [
    ["a missing value", '{"a": }', 1, 7, /unexpected "}", expected a value/],
    ["a bare word", '{\n  "a": nope\n}', 2, 8, /unexpected "n"|expected a value/],
    ["an unquoted key", "{\n\n  oops: 1}", 3, 3, /double-quoted property name/],
    ["a trailing comma", "[1, 2,]", 1, 7, /unexpected "\]", expected a value/],
    ["text after the value", '{"a": 1} x', 1, 10, /unexpected text after the JSON value/],
    ["an unterminated string", '["abc', 1, 6, /unterminated string/],
    ["a control character", '"a\u0001"', 1, 3, /control character/],
    ["the end of input", '{"a": [1, 2', 1, 12, /unexpected end of input/],
  ];
  it.each(cases)("%s", (_name, text, line, column, problem) => {
    expect(() => JSON.parse(text)).toThrow();
    const found = jsonSyntaxError(text);
    expect([found.line, found.column]).toEqual([line, column]);
    expect(found.problem).toMatch(problem);
  });

  it("counts lines from the given first line (NDJSON)", () => {
    expect(jsonSyntaxError('{"a": }', 7).line).toBe(7);
  });

  it("quotes at most one character of the text, so a signed URL never appears", () => {
    const found = jsonSyntaxError('{"u": https://cdn.example/x.png?X-Amz-Signature=SECRET}');
    expect(found.problem).not.toContain("SECRET");
    expect(found.problem.length).toBeLessThan(60);
  });

  it("finds the error wherever JSON.parse finds one, at or after its own position", () => {
    fc.assert(
      fc.property(fc.json(), fc.nat(), fc.constantFrom("}", "]", ",", ":", "x", '"', "\u0001"), (json, at, junk) => {
        const k = at % (json.length + 1);
        const text = json.slice(0, k) + junk + json.slice(k);
        let rejected = false;
        try {
          JSON.parse(text);
        } catch {
          rejected = true;
        }
        if (!rejected) return;
        const found = jsonSyntaxError(text);
        expect(found.offset).toBeGreaterThanOrEqual(0);
        expect(found.offset).toBeLessThanOrEqual(text.length);
        expect(found.problem).not.toBe("");
      }),
      { numRuns: 500 },
    );
  });
});
