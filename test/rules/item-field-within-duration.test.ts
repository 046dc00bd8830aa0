// Rule kind itemFieldWithinDuration (spec 2.2: frame_index "at most duration * 24"; 4.3:
// duration defaults to 5; 8: 24 fps), through its record.
import { describe, expect, it } from "vitest";
import { itemFieldWithinDuration } from "../../src/rules/item-field-within-duration.js";
import { runKindCases, type KindCase } from "./kind-cases.js";

const rule = itemFieldWithinDuration.definitions[0]!.spec;
const id = "frame-index-within-duration";

const cases: KindCase[] = [
  ["the last frame of a 5 s video", { given: { duration: 5, keyframes: [{ frame_index: 120 }] }, want: [] }],
  [
    "past the last frame of the given duration",
    {
      given: { duration: 5, keyframes: [{ frame_index: 0 }, { frame_index: 121 }] },
      want: [
        [
          "error",
          id,
          "/keyframes/1/frame_index",
          "keyframes[1].frame_index: 121 is past the last frame (120) of a 5 s video (duration × 24, spec 2.2)",
        ],
      ],
    },
  ],
  [
    "past the last frame of the default duration",
    {
      given: { keyframes: [{ frame_index: 200 }] },
      want: [
        [
          "error",
          id,
          "/keyframes/0/frame_index",
          "keyframes[0].frame_index: 200 is past the last frame (120) of the default 5 s video (duration × 24, spec 2.2)",
        ],
      ],
    },
  ],
  ["a longer duration", { given: { duration: 10, keyframes: [{ frame_index: 240 }] }, want: [] }],
  [
    "a duration that is not a number is left to the schema",
    { given: { duration: "x", keyframes: [{ frame_index: 999 }] }, want: [] },
  ],
];

describe("rule kind itemFieldWithinDuration", () => {
  runKindCases(itemFieldWithinDuration, rule, cases);

  it("describes itself for the editor schema", () => {
    const { parts, fields, items, spec } = itemFieldWithinDuration.describe(rule);
    expect(parts.map((p) => (typeof p === "string" ? p : p.code)).join("")).toBe(
      "each keyframes[].frame_index must be at most duration × 24 (the last frame; duration defaults to 5 s, so at most 120 when it is left out)",
    );
    expect({ fields, items, spec }).toEqual({
      fields: ["/keyframes", "/duration"],
      items: { array: "/keyframes", field: "frame_index" },
      spec: "2.2",
    });
  });
});
