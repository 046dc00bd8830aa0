// Rule kind promptLengthRecommendation (spec 4.5: recommended at most 500 Chinese characters or
// 1000 English words, "not stated as hard limits"): warnings only, through its record.
import { describe, expect, it } from "vitest";
import { promptLengthRecommendation } from "../../src/rules/prompt-length-recommendation.js";
import { runKindCases, type KindCase } from "./kind-cases.js";

const rule = promptLengthRecommendation.definitions[0]!.spec;
const id = "prompt-length-recommendation";

const cases: KindCase[] = [
  ["a short prompt", { given: { prompt: "a cat on a boat" }, want: [] }],
  ["1000 words", { given: { prompt: Array(1000).fill("cat").join(" ") }, want: [] }],
  [
    "1001 words",
    {
      given: { prompt: Array(1001).fill("cat").join(" ") },
      want: [
        [
          "warning",
          id,
          "/prompt",
          "prompt: 1001 English words, more than the recommended 1000 (spec 4.5); the service accepts it",
        ],
      ],
    },
  ],
  [
    "501 Chinese characters",
    {
      given: { prompt: "猫".repeat(501) },
      want: [
        [
          "warning",
          id,
          "/prompt",
          "prompt: 501 Chinese characters (Han, Chinese punctuation and full-width forms), more than the recommended 500 (spec 4.5); the service accepts it",
        ],
      ],
    },
  ],
  ["not a string is left to the schema", { given: { prompt: 42 }, want: [] }],
];

describe("rule kind promptLengthRecommendation", () => {
  runKindCases(promptLengthRecommendation, rule, cases);

  it("describes itself for the editor schema", () => {
    expect(promptLengthRecommendation.describe(rule)).toEqual({
      parts: [{ code: "prompt" }, ": recommended at most 500 Chinese characters or 1000 English words"],
      fields: ["/prompt"],
      spec: "4.5",
    });
  });
});
