// Rule kind requiresFlag (spec 4.4: file_url and web_url each "requires enable_thinking=true"),
// through its record.
import { describe, expect, it } from "vitest";
import { requiresFlag } from "../../src/rules/requires-flag.js";
import { runKindCases, type KindCase } from "./kind-cases.js";

const rule = requiresFlag.definitions.find((d) => d.id === "file-url-requires-thinking")!.spec;
const id = "file-url-requires-thinking";

const cases: KindCase[] = [
  ["with the flag", { given: { file_url: "https://e.test/a.pdf", enable_thinking: true }, want: [] }],
  ["no file_url", { given: { enable_thinking: false }, want: [] }],
  ['an empty file_url names nothing ("or any string")', { given: { file_url: "" }, want: [] }],
  ["null", { given: { file_url: null }, want: [] }],
  [
    "without the flag",
    {
      given: { file_url: "https://e.test/a.pdf?token=secret" },
      want: [
        [
          "error",
          id,
          "/file_url",
          "file_url: requires enable_thinking: true, but enable_thinking is not set (default false) (spec 4.4)",
        ],
      ],
    },
  ],
  [
    "with the flag false",
    {
      given: { file_url: "https://e.test/a.pdf", enable_thinking: false },
      want: [
        ["error", id, "/file_url", "file_url: requires enable_thinking: true, but enable_thinking is false (spec 4.4)"],
      ],
    },
  ],
];

describe("rule kind requiresFlag", () => {
  runKindCases(requiresFlag, rule, cases);

  it("has one rule per URL field, both on model B's reference-to-video", () => {
    expect(requiresFlag.definitions.map((d) => [d.id, d.specModel, d.endpoint])).toEqual([
      ["file-url-requires-thinking", "modelB", "reference-to-video"],
      ["web-url-requires-thinking", "modelB", "reference-to-video"],
    ]);
  });

  it("describes itself for the editor schema", () => {
    expect(requiresFlag.describe(rule)).toEqual({
      parts: [
        { code: "file_url" },
        " requires ",
        { code: "enable_thinking: true" },
        ' when it is set (not null, not "")',
      ],
      fields: ["/file_url", "/enable_thinking"],
      spec: "4.4",
    });
  });
});
