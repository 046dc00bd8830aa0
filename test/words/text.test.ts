/**
 * Words for people (src/words): "did you mean" for a mistyped command, option or key, a typed word
 * quoted back so that it never acts on a terminal, and counts.
 */
import { describe, expect, it } from "vitest";
import { closest, didYouMean, plural, quote, shown } from "../../src/words/index.js";

describe("closest / didYouMean", () => {
  const commands = ["init", "pull", "generate", "lint", "drift", "explain", "action", "mock"];
  it.each([
    ["a transposition", "lnit", "init"],
    ["a missing letter", "generat", "generate"],
    ["two letters swapped", "drfit", "drift"],
    ["a prefix of three or more", "expl", "explain"],
    ["another case", "LINT", "lint"],
    ["leading dashes aside", "--formt", "--format"],
  ])("%s: %s -> %s", (_what, word, want) => {
    expect(closest(word, [...commands, "--format", "--fail-on"])).toBe(want);
  });

  it.each([
    ["nothing close", "frobnicate"],
    ["a short word is not guessed", "xy"],
    ["too many edits for its length", "pxlx"],
  ])("%s: %s -> no guess", (_what, word) => {
    expect(closest(word, commands)).toBeUndefined();
    expect(didYouMean(word, commands)).toBe("");
  });

  it("says the guess quoted, or as the caller shows it", () => {
    expect(didYouMean("lnit", commands)).toBe('; did you mean "init"?');
    expect(didYouMean("lnit", commands, (c) => `\`vsk ${c}\``)).toBe("; did you mean `vsk init`?");
  });
});

describe("quote / shown", () => {
  it("escapes control, C1 and bidi characters so a word never acts on a terminal", () => {
    expect(quote("a\u001b[2Jb")).toBe('"a\\u001b[2Jb"');
    expect(quote("x\u202ey")).toBe('"x\\u202ey"');
    expect(quote("line\nbreak")).toBe('"line\\nbreak"');
  });

  it("clips a long word to 80 characters", () => {
    expect(quote("a".repeat(200))).toBe(`"${"a".repeat(80)}…"`);
  });

  it("shows a plain path as is, and a path holding a control character quoted", () => {
    expect(shown("schemas-cache/example/model-a/latest.json")).toBe("schemas-cache/example/model-a/latest.json");
    expect(shown("evil\u0007.json")).toBe('"evil\\u0007.json"');
  });
});

describe("plural", () => {
  it.each([
    [0, "0 models"],
    [1, "1 model"],
    [3, "3 models"],
  ])("%i -> %s", (n, want) => {
    expect(plural(n, "model")).toBe(want);
  });
});
