/**
 * The layout comparison behind `generate --check`'s "was reformatted" (issue 24.3): what a
 * formatter may change is left out, what changes meaning is not.
 */
import { describe, expect, it } from "vitest";
import { differsOnlyInFormatting } from "../../src/emit/layout.js";

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
