/**
 * src/json/pointer.ts (issue 28.4; in src/schema until issue 42.6): the one JSON Pointer module (RFC 6901) outside the runtime
 * regions: escaping, parsing, formatting and the value a pointer names.
 */
import { describe, expect, it } from "vitest";
import { escapePointerToken, formatPointer, getAt, parsePointer, unescapePointerToken } from "../../src/json/index.js";

describe("reference tokens", () => {
  it.each([
    ["plain", "a", "a"],
    ["a slash", "a/b", "a~1b"],
    ["a tilde", "m~n", "m~0n"],
    ["a tilde before a 1 is not a slash", "~1", "~01"],
    ["both", "~/", "~0~1"],
    ["empty", "", ""],
  ])("%s: %j escapes to %j and back", (_, token, escaped) => {
    expect(escapePointerToken(token)).toBe(escaped);
    expect(unescapePointerToken(escaped)).toBe(token);
  });
});

describe("pointers", () => {
  it.each([
    ["the whole document", [], ""],
    ["one token", ["a"], "/a"],
    ["an empty token", [""], "/"],
    ["escaped tokens", ["a/b", "c~d"], "/a~1b/c~0d"],
    ["an array index", ["items", "0"], "/items/0"],
  ])("%s: %j is %j and back", (_, tokens, pointer) => {
    expect(formatPointer(tokens)).toBe(pointer);
    expect(parsePointer(pointer)).toEqual(tokens);
  });

  it("formats numbers as index tokens", () => expect(formatPointer(["a", 2])).toBe("/a/2"));
});

describe("getAt", () => {
  const doc = JSON.parse('{"a":{"b/c":[10,{"d":null}]},"__proto__":{"x":1}}') as unknown;

  it.each([
    ["the root", [], doc],
    ["through objects and arrays", ["a", "b/c", "1", "d"], null],
    ["an own __proto__ key written in the document", ["__proto__", "x"], 1],
    ["a missing key", ["a", "nope"], undefined],
    ["past a leaf", ["a", "b/c", "0", "x"], undefined],
    ["an index past the end", ["a", "b/c", "5"], undefined],
    ["an inherited member", ["a", "constructor"], undefined],
    ["an inherited member of an array", ["a", "b/c", "map"], undefined],
  ])("%s", (_, tokens, want) => {
    expect(getAt(doc, tokens as string[])).toBe(want);
  });
});
