/**
 * The layout comparison behind `generate --check`'s "was reformatted" (issue 24.3): what a
 * formatter may change is left out, what changes meaning is not.
 */
import { describe, expect, it } from "vitest";
import { differsOnlyInFormatting, howItDiffers } from "../../src/emit/layout.js";

const cases: Array<[string, { ours: string; theirs: string; layoutOnly: boolean }]> = [
  [
    "prettier's `;` guard before a line that starts with `(` (semi: false)",
    { ours: "let t = {};\n(t as any).a = 1;\n", theirs: "let t = {}\n;(t as any).a = 1\n", layoutOnly: true },
  ],
  [
    "the `;` guard inside a block",
    {
      ours: "function f(t: object) {\n  (t as any).a = 1;\n}\n",
      theirs: "function f(t: object) {\n  ;(t as any).a = 1\n}\n",
      layoutOnly: true,
    },
  ],
  [
    "an empty statement as an if's body is meaning, not layout",
    { ours: "if (x) f();\n", theirs: "if (x);\nf();\n", layoutOnly: false },
  ],
  [
    "an empty loop body is meaning, not layout",
    { ours: "while (next()) step();\n", theirs: "while (next());\nstep();\n", layoutOnly: false },
  ],
  [
    "quotes, semicolons and wrapping",
    { ours: 'export const a = { "b": "c" };\n', theirs: "export const a = {b: 'c'}\n", layoutOnly: true },
  ],
  ["another value", { ours: 'export const a = "c";\n', theirs: 'export const a = "d";\n', layoutOnly: false }],
];

describe("differsOnlyInFormatting", () => {
  it.each(cases)("%s", (_name, { ours, theirs, layoutOnly }) => {
    expect(differsOnlyInFormatting("x.mts", theirs, ours)).toBe(layoutOnly);
  });
});

describe("howItDiffers: a formatter keeps every comment's words, a hand edit does not (issue 42.3)", () => {
  const ours = "/**\n * The path.\n */\nexport const a = 1; // one\n";
  it.each([
    [
      "a block comment re-indented, a line comment moved: layout",
      "/**\n   * The path.\n   */\nexport const a = 1\n// one\n",
      "layout",
    ],
    ["a comment appended", `${ours}// TODO: ask the vendor\n`, "comments"],
    ["a comment's words changed", ours.replace("The path", "The queue path"), "comments"],
    ["a comment removed", ours.replace(" // one", ""), "comments"],
    ["code changed", ours.replace("= 1", "= 2"), "content"],
  ] as const)("%s", (_name, theirs, want) => {
    expect(howItDiffers("x.mts", theirs, ours)).toBe(want);
  });
});
