// Rule kind integerInSetOrRange (spec 4.5: model C's duration is -1, automatic, or 4 to 15),
// through its record.
import { describe, expect, it } from "vitest";
import { integerInSetOrRange } from "../../src/rules/integer-in-set-or-range.js";
import { runKindCases, type KindCase } from "./kind-cases.js";

const rule = integerInSetOrRange.definitions[0]!.spec;
const said = (v: number) => `duration: ${v} is not allowed; expected -1 (automatic) or 4 to 15 (spec 4.5)`;

const cases: KindCase[] = [
  ["automatic", { given: { duration: -1 }, want: [] }],
  ["the floor", { given: { duration: 4 }, want: [] }],
  ["the maximum", { given: { duration: 15 }, want: [] }],
  ["left out", { given: {}, want: [] }],
  ["below the floor", { given: { duration: 3 }, want: [["error", "duration-auto-or-range", "/duration", said(3)]] }],
  ["zero", { given: { duration: 0 }, want: [["error", "duration-auto-or-range", "/duration", said(0)]] }],
  [
    "above the maximum",
    { given: { duration: 16 }, want: [["error", "duration-auto-or-range", "/duration", said(16)]] },
  ],
];

describe("rule kind integerInSetOrRange", () => {
  runKindCases(integerInSetOrRange, rule, cases);

  it("describes itself for the editor schema", () => {
    expect(integerInSetOrRange.describe(rule)).toEqual({
      parts: [{ code: "duration" }, " must be ", "", { code: "-1" }, " (automatic) or an integer from 4 to 15"],
      fields: ["/duration"],
      spec: "4.5",
    });
  });
});
