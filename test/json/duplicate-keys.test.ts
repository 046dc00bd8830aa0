/** `findDuplicateKeys`: every repeated key of a JSON text, with its pointer and line; none in the usual text. */
import { describe, expect, it } from "vitest";
import { findDuplicateKeys } from "../../src/json/index.js";

const dup = (text: string) => findDuplicateKeys(text, JSON.parse(text)).map((d) => `${d.pointer}@${d.line}`);

describe("findDuplicateKeys", () => {
  it.each([
    ["none", '{"a":1,"b":{"c":[1,{"d":2}]}}', []],
    ["top level", '{"a":1,"a":2}', ["/a@1"]],
    ["three times", '{"a":1,"a":2,"a":3}', ["/a@1", "/a@1"]],
    ["nested in an array", '{"k":[{"x":1},{"x":1,"x":2}]}', ["/k/1/x@1"]],
    ["the same key in two objects is fine", '{"a":{"x":1},"b":{"x":1}}', []],
    ["keys with escapes and slashes", '{"a/b~":1,"a\\/b~":2}', ["/a~1b~0@1"]],
    ["a key ending in a backslash", '{"a\\\\":1,"a\\\\":2}', ["/a\\@1"]],
    ["__proto__ twice", '{"__proto__":1,"__proto__":2}', ["/__proto__@1"]],
    ["whitespace before the colon", '{"a" :1,\n"a"\n:2}', ["/a@2"]],
    ["lines of a pretty-printed file", '{\n  "a": 1,\n  "b": {\n    "c": 1,\n    "c": 2\n  }\n}', ["/b/c@5"]],
  ])("%s", (_name, text, want) => {
    expect(dup(text)).toEqual(want);
  });

  it.each([
    ["colons and quotes inside strings", '{"p":"a: \\"b\\": c","q":": x","r":"\\":"}'],
    ["a string that looks like a repeated key", '{"p":"\\"p\\":1"}'],
    ["only an array", '[1,{"a":1},{"a":2}]'],
  ])("no false alarm: %s", (_name, text) => {
    expect(dup(text)).toEqual([]);
  });

  it("names at most `limit` repetitions", () => {
    const text = `{${Array.from({ length: 100 }, () => '"a":1').join(",")}}`;
    expect(findDuplicateKeys(text, JSON.parse(text), 1, 20)).toHaveLength(20);
  });
});
