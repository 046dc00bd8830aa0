/**
 * Drift never hides a breaking change (issue 39): the differential check (`soundness/fuzz.ts`)
 * at a fixed seed, every counterexample it found as a named regression case, and the stability
 * of a change's fingerprint.
 *
 * `VSK_DRIFT_FUZZ_LONG=1` runs the check for two minutes (`VSK_DRIFT_FUZZ_MS` to choose) from
 * `VSK_DRIFT_FUZZ_SEED` (default: a new seed, printed), instead of the fixed 240 pairs.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { classify, diffModels, SEVERITY_ORDER } from "../../src/drift/index.js";
import { loadModelDocument } from "../../src/schema/index.js";
import { checkPair, fuzz, Rng, scenarioDoc, type Counterexample, type Side } from "./soundness/fuzz.js";

const ROOT = join(import.meta.dirname, "../..");
const SNAPSHOTS = ["a", "b", "c"].map((m) =>
  JSON.parse(readFileSync(join(ROOT, `schemas-cache/example/model-${m}/latest.json`), "utf8")),
);
const LONG = process.env.VSK_DRIFT_FUZZ_LONG === "1";

const show = (found: Counterexample[]): string =>
  found
    .slice(0, 3)
    .map((f) => JSON.stringify({ direction: f.direction, before: f.before, after: f.after, instance: f.instance }))
    .join("\n");

describe("the differential soundness check", () => {
  it(
    LONG ? "finds nothing in its time budget (long run)" : "finds nothing at its seed",
    () => {
      const seed = LONG ? Number(process.env.VSK_DRIFT_FUZZ_SEED ?? Date.now() % 2 ** 31) : 39;
      const ms = LONG ? Number(process.env.VSK_DRIFT_FUZZ_MS ?? 120_000) : 60_000;
      const result = fuzz(seed, ms, SNAPSHOTS, LONG ? Infinity : 240);
      if (LONG) console.log(`drift soundness: seed ${seed}, ${result.pairs} pairs, ${result.skipped} skipped`);
      expect(result.found, `seed ${seed}:\n${show(result.found)}`).toEqual([]);
      expect(result.pairs - result.skipped).toBeGreaterThan(LONG ? 1000 : 200);
    },
    LONG ? 900_000 : 60_000,
  );
});

const S = { type: "string" };
const I = { type: "integer" };
const side = (x: unknown, components: Record<string, unknown> = {}): Side => ({ x, components });

/**
 * Every counterexample the check found (issue 39), each fixed: the pair, the direction it
 * crossed in, and what drift says of it now. The check runs on each with many draws and must
 * find nothing.
 */
const REGRESSIONS: Array<[string, Side, Side, "request" | "response", string[]]> = [
  [
    "a response property that stops being write-only may now be returned",
    side({ type: "object", properties: { s: { ...S, writeOnly: true } } }),
    side({ type: "object", properties: { s: S } }),
    "response",
    ["response-property-no-longer-write-only behavior"],
  ],
  [
    "a property added inside then narrows what the object's own schema allowed of it",
    side({
      type: "object",
      properties: { kind: { enum: ["x", "y"] }, v: {} },
      if: { properties: { kind: { const: "x" } } },
      then: {},
    }),
    side({
      type: "object",
      properties: { kind: { enum: ["x", "y"] }, v: {} },
      if: { properties: { kind: { const: "x" } } },
      then: { properties: { v: I } },
    }),
    "request",
    ["request-property-type-narrowed breaking", "new-optional-request-property safe"],
  ],
  [
    "a prefixItems position removed from a request: items now applies there",
    side({ type: "array", prefixItems: [S, I], items: { type: "boolean" } }),
    side({ type: "array", prefixItems: [S], items: { type: "boolean" } }),
    "request",
    ["request-property-type-changed breaking"],
  ],
  [
    "a prefixItems position added to a response, where items said otherwise",
    side({ type: "array", prefixItems: [S], items: { type: "boolean" } }),
    side({ type: "array", prefixItems: [S, I], items: { type: "boolean" } }),
    "response",
    ["response-property-type-changed breaking"],
  ],
  [
    "patternProperties added to a response beside unevaluatedProperties: false lets those names in",
    side({ type: "object", properties: { a: S }, unevaluatedProperties: false }),
    side({ type: "object", properties: { a: S }, unevaluatedProperties: false, patternProperties: { "^b": S } }),
    "response",
    ["response-property-any-of-added breaking", "response-property-pattern-properties-set safe"],
  ],
  [
    "patternProperties removed from a request beside unevaluatedProperties: false shuts those names out",
    side({ type: "object", properties: { a: S }, unevaluatedProperties: false, patternProperties: { "^b": S } }),
    side({ type: "object", properties: { a: S }, unevaluatedProperties: false }),
    "request",
    ["request-property-any-of-removed breaking", "request-property-pattern-properties-unset safe"],
  ],
  [
    "a property added to a response closed by additionalProperties: false",
    side({ type: "object", additionalProperties: false }),
    side({ type: "object", properties: { a: S }, additionalProperties: false }),
    "response",
    ["response-property-added-to-closed-object behavior"],
  ],
  [
    "a property added to a request where additionalProperties said what it may be",
    side({ type: "object", additionalProperties: { type: "object" } }),
    side({ type: "object", properties: { a: I }, additionalProperties: { type: "object" } }),
    "request",
    ["request-property-type-changed breaking", "new-optional-request-property safe"],
  ],
  [
    "additionalProperties set beside unevaluatedProperties: false widens a response",
    side({ type: "object", properties: { a: S }, unevaluatedProperties: false }),
    side({ type: "object", properties: { a: S }, unevaluatedProperties: false, additionalProperties: S }),
    "response",
    ["response-property-additional-properties-widened behavior"],
  ],
  [
    "additionalProperties removed beside unevaluatedProperties: false narrows a request",
    side({ type: "object", properties: { a: S }, unevaluatedProperties: false, additionalProperties: S }),
    side({ type: "object", properties: { a: S }, unevaluatedProperties: false }),
    "request",
    ["request-property-additional-properties-narrowed breaking"],
  ],
  [
    "a const added beside an enum",
    side({ type: "array", items: { type: "string", enum: ["a", "b", "c"] } }),
    side({ type: "array", items: { type: "string", enum: ["a", "b", "c"], const: "a" } }),
    "request",
    ["request-property-enum-value-removed breaking", "request-property-enum-value-removed breaking"],
  ],
  [
    "an allOf $ref member whose properties a sibling's properties hid (shallow merge)",
    side({ type: "object", required: ["n"], properties: { n: {} }, allOf: [{ required: ["n"] }] }),
    side(
      {
        type: "object",
        required: ["n"],
        properties: { n: {} },
        allOf: [{ required: ["n"] }, { $ref: "#/components/schemas/N" }],
      },
      { N: { properties: { n: I } } },
    ),
    "request",
    ["request-property-type-narrowed breaking"],
  ],
  [
    "a $ref with sibling properties: both apply",
    side({ $ref: "#/components/schemas/N", properties: { n: {} } }, { N: { type: "object", properties: { n: S } } }),
    side({ $ref: "#/components/schemas/N", properties: { n: {} } }, { N: { type: "object", properties: { n: I } } }),
    "request",
    ["request-property-type-changed breaking"],
  ],
];

const load = (s: Side) =>
  loadModelDocument(
    scenarioDoc(s.x, s.components),
    { model: "fx/soundness", file: "soundness.json" },
    { lenient: true },
  );

describe("regressions the differential check found", () => {
  it.each(REGRESSIONS)("%s", (_name, before, after, direction, want) => {
    const found = diffModels(load(before), load(after))
      .map((f) => classify(f))
      .filter((c) => c.direction === direction)
      .map((c) => `${c.id} ${c.severity}`);
    expect(found).toEqual(want);
    expect(found.some((c) => SEVERITY_ORDER.indexOf(c.split(" ")[1] as never) <= 2)).toBe(true);
    expect(checkPair(before, after, new Rng(1), 400)).toBeUndefined();
  });
});

describe("a change's fingerprint", () => {
  const doc = (enumValues: string[], extra: Record<string, unknown> = {}, order = false) => {
    const x = { type: "string", enum: enumValues, maxLength: 9 };
    const y = order ? { maxLength: 9, enum: enumValues, type: "string" } : x;
    return loadModelDocument(
      scenarioDoc(order ? y : x, extra),
      { model: "fx/soundness", file: "s.json" },
      { lenient: true },
    );
  };
  const prints = (b: ReturnType<typeof doc>, a: ReturnType<typeof doc>) =>
    diffModels(b, a)
      .map((f) => classify(f))
      .map((c) => [c.id, c.direction, c.fingerprint]);

  it("is the same under key reordering and unrelated edits, and tells changes apart", () => {
    const plain = prints(doc(["a", "b", "c"]), doc(["a", "c"]));
    // "b" removed: the same change, with the enum reordered, keys reordered, and a definition added
    const moved = prints(doc(["c", "b", "a"], {}, true), doc(["c", "a", "z"], { Unused: { type: "integer" } }, true));
    expect(plain).toEqual([
      ["request-property-enum-value-removed", "request", expect.stringMatching(/^[0-9a-f]{16}$/)],
      ["response-property-enum-value-removed", "response", expect.stringMatching(/^[0-9a-f]{16}$/)],
    ]);
    for (const [id, direction, print] of plain) expect(moved).toContainEqual([id, direction, print]);
    // another value removed at the same field is another change
    const other = prints(doc(["a", "b", "c"]), doc(["b", "c"]));
    expect(other.map((c) => c[2])).not.toContain(plain[0]![2]);
    expect(new Set([...plain, ...other].map((c) => c[2])).size).toBe(4);
  });
});
