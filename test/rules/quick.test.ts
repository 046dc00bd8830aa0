import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../../src/diagnostics/index.js";
import { checkRules, quickCheckSource, quickModuleSource, SPEC_RULES, type RuleSpec } from "../../src/rules/index.js";

// The quick face of a rule may say "maybe" (false) when the full check finds nothing, but it
// must never say "nothing" (true) when the full check finds something.

const scalar = fc.oneof(fc.integer({ min: -2, max: 500 }), fc.constantFrom(null, true, false, "x", "", 1.5, undefined));
const keyframe = fc.record(
  { image_url: fc.constantFrom("a", "https://x.io/a.png", 5), frame_index: scalar },
  { requiredKeys: [] },
);
const payload = fc.record(
  {
    prompt: fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom("字".repeat(501), "word ".repeat(1001), 7)),
    keyframes: fc.oneof(fc.array(keyframe, { maxLength: 6 }), fc.constantFrom(null, "x", [1, null])),
    duration: scalar,
    enable_thinking: scalar,
    file_url: fc.constantFrom(undefined, null, "https://d.io/x.pdf", "", 3),
    web_url: fc.constantFrom(undefined, null, "https://w.io"),
  },
  { requiredKeys: [] },
);
/** the same with, now and then, a field the endpoint does not know (or named like a prototype member) */
const withExtras = fc
  .tuple(
    payload,
    fc.constantFrom({}, {}, {}, { aspect_ratio: "16:9" }, JSON.parse('{"__proto__": {"polluted": true}}') as object, {
      constructor: 1,
    }),
  )
  .map(([p, extra]) => ({ ...p, ...extra }));

const unknown: RuleSpec = {
  id: "unknown-field",
  kind: "unknownFields",
  known: ["prompt", "keyframes", "duration", "enable_thinking", "file_url", "web_url"],
};
const endpoints = Object.entries(SPEC_RULES).map(([key, rules]) => [key, [...rules, unknown]] as const);

describe("quick rule checks are never more lenient than the full checks", () => {
  it.each(endpoints)("%s", (_key, rules) => {
    const quick = new Function("input", "errorsOnly", quickCheckSource(rules)) as (input: unknown) => boolean;
    fc.assert(
      fc.property(fc.oneof(withExtras, fc.jsonValue({ maxDepth: 2 })), (input) => {
        if (quick(input)) expect(checkRules(rules, input, [])).toEqual([]);
      }),
      { numRuns: 2000 },
    );
  });

  it("says true for an ordinary valid payload (the fast path is taken)", () => {
    const quick = new Function(
      "input",
      "errorsOnly",
      quickCheckSource([...SPEC_RULES["modelA/keyframes-to-video"]!, unknown]),
    ) as (input: unknown) => boolean;
    expect(
      quick({
        prompt: "p",
        keyframes: [
          { image_url: "a", frame_index: 0 },
          { image_url: "b", frame_index: 120 },
        ],
      }),
    ).toBe(true);
    expect(quick({ prompt: "p", keyframes: [{ image_url: "a", frame_index: 121 }] })).toBe(false);
  });
});

// A payload with schema errors runs the full checks, each rule's skipped where its quick form
// says it cannot find anything (issue 40): the findings must be exactly those of running them all,
// whatever fields already failed their schema.
describe("the full checks, each skipped where its quick form says nothing", () => {
  const pointers = fc.subarray([
    "/keyframes/0/frame_index",
    "/keyframes/1/frame_index",
    "/keyframes/2/frame_index",
    "/duration",
    "/prompt",
    "/file_url",
    "/enable_thinking",
    "/keyframes",
  ]);
  it.each(endpoints)("%s", (_key, rules) => {
    const quickRules = new Function(`${quickModuleSource(rules)}\nreturn quickRules;`)() as Array<
      ((input: Record<string, unknown>) => boolean) | undefined
    >;
    expect(quickRules).toHaveLength(rules.length);
    expect(quickRules.some((q) => q !== undefined)).toBe(true);
    fc.assert(
      fc.property(
        fc.oneof(withExtras, fc.jsonValue({ maxDepth: 2 })),
        pointers,
        fc.boolean(),
        (input, failed, words) => {
          const errors = failed.map((pointer) => ({ pointer }) as Diagnostic);
          expect(checkRules(rules, input, errors, false, [], Infinity, words, quickRules)).toEqual(
            checkRules(rules, input, errors, false, [], Infinity, words),
          );
        },
      ),
      { numRuns: 1000 },
    );
  });
});
