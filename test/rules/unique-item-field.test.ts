// Rule kind uniqueItemField (spec 2.2: frame_index "must be unique across the keyframes of one
// request"), through its record.
import { describe, expect, it } from "vitest";
import { uniqueItemField } from "../../src/rules/unique-item-field.js";
import { runKindCases, type KindCase } from "./kind-cases.js";

const rule = uniqueItemField.definitions[0]!.spec;
const said = (i: number, others: string) =>
  `keyframes[${i}].frame_index: 5 is also used by ${others}; each frame_index must be unique (spec 2.2)`;

const cases: KindCase[] = [
  ["distinct frame indexes", { given: { keyframes: [{ frame_index: 0 }, { frame_index: 24 }] }, want: [] }],
  ["one keyframe", { given: { keyframes: [{ frame_index: 0 }] }, want: [] }],
  ["no keyframes", { given: { prompt: "p" }, want: [] }],
  [
    "a repeated index: an error on each item that uses it",
    {
      given: { keyframes: [{ frame_index: 5 }, { frame_index: 9 }, { frame_index: 5 }] },
      want: [
        ["error", "frame-index-unique", "/keyframes/0/frame_index", said(0, "keyframes[2]")],
        ["error", "frame-index-unique", "/keyframes/2/frame_index", said(2, "keyframes[0]")],
      ],
    },
  ],
  [
    "items that are not objects or have no index are skipped",
    { given: { keyframes: [null, 3, { frame_index: 1 }, {}] }, want: [] },
  ],
];

describe("rule kind uniqueItemField", () => {
  runKindCases(uniqueItemField, rule, cases);

  it("describes itself for the editor schema", () => {
    expect(uniqueItemField.describe(rule)).toEqual({
      parts: [{ code: "frame_index" }, " must be unique across the items of ", { code: "keyframes" }],
      fields: ["/keyframes"],
      items: { array: "/keyframes", field: "frame_index" },
      spec: "2.2",
    });
  });
});
