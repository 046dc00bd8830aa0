// Rule kind uniqueItemField (spec 2.2: frame_index "must be unique across the keyframes of one
// request"), through its record.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkUniqueItemField, uniqueItemField } from "../../src/rules/unique-item-field.js";
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

  it("words a pair's message anew when the other item or the value changes (one after another)", () => {
    const messages = (frames: number[]) =>
      checkUniqueItemField(rule, { keyframes: frames.map((f) => ({ frame_index: f })) }, new Set()).map(
        (d) => d.message,
      );
    const pair = (i: number, v: number, j: number) =>
      `keyframes[${i}].frame_index: ${v} is also used by keyframes[${j}]; each frame_index must be unique (spec 2.2)`;
    expect(messages([5, 9, 5])).toEqual([pair(0, 5, 2), pair(2, 5, 0)]);
    expect(messages([5, 5, 9])).toEqual([pair(0, 5, 1), pair(1, 5, 0)]);
    expect(messages([7, 7])).toEqual([pair(0, 7, 1), pair(1, 7, 0)]);
    expect(messages([7, 7])).toEqual([pair(0, 7, 1), pair(1, 7, 0)]);
  });

  it("names each repeated value's items in the order of its first use, whatever the array's size (seeded)", () => {
    // up to 32 items the values are compared pairwise, beyond in a Map: both give the groups in
    // the order of their first item and each group's items in order; a number and a bigint differ
    const value = fc.oneof(fc.integer({ min: 0, max: 6 }), fc.bigInt({ min: 0n, max: 3n }), fc.constant("5"));
    const item = fc.oneof(
      { weight: 8, arbitrary: value.map((v) => ({ frame_index: v })) },
      fc.constant({}),
      fc.constant(null),
    );
    fc.assert(
      fc.property(fc.array(item, { minLength: 0, maxLength: 40 }), (keyframes) => {
        const groups = new Map<unknown, number[]>();
        keyframes.forEach((k, i) => {
          const v = (k as { frame_index?: unknown } | null)?.frame_index;
          if (typeof v === "number" || typeof v === "bigint") groups.set(v, [...(groups.get(v) ?? []), i]);
        });
        const want = [...groups.values()]
          .filter((g) => g.length > 1)
          .flat()
          .map((i) => `/keyframes/${i}/frame_index`);
        const found = checkUniqueItemField(rule, { keyframes }, new Set());
        expect(found.map((d) => d.pointer)).toEqual(want);
      }),
      { numRuns: 300 },
    );
  });

  it("describes itself for the editor schema", () => {
    expect(uniqueItemField.describe(rule)).toEqual({
      parts: [{ code: "frame_index" }, " must be unique across the items of ", { code: "keyframes" }],
      fields: ["/keyframes"],
      items: { array: "/keyframes", field: "frame_index" },
      spec: "2.2",
    });
  });
});
