import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkRules, diagnose, quickCheckSource, type RuleSpec } from "../../src/rules/index.js";
import { unknownFields } from "../../src/rules/unknown-fields.js";
import { runKindCases } from "./kind-cases.js";
import type { JsonSchemaObject } from "../../src/schema/index.js";

// spec 4.1, "Unlisted fields are not described": the warning at every object the schema
// describes, reached through properties, items and $refs; not inside objects it leaves open.

const schema: JsonSchemaObject = {
  type: "object",
  properties: {
    prompt: { type: "string" },
    keyframes: { type: "array", items: { $ref: "#/$defs/Keyframe" } },
    camera: { anyOf: [{ $ref: "#/$defs/Camera" }, { type: "null" }] },
    grid: { type: "array", items: { type: "array", items: { $ref: "#/$defs/Keyframe" } } },
    tree: { $ref: "#/$defs/Node" },
    extra: { type: "object", properties: { a: { type: "string" } }, additionalProperties: true },
  },
  $defs: {
    Keyframe: { type: "object", properties: { image_url: { type: "string" }, frame_index: { type: "integer" } } },
    Camera: { type: "object", properties: { pan: { type: "number" }, tilt: { type: "number" } } },
    Node: {
      type: "object",
      properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/Node" } } },
    },
  },
};
const rule = unknownFields.derive!(schema)!;
const check = (input: Record<string, unknown>) =>
  checkRules([rule], input, []).map((d) => [d.severity, d.rule, d.pointer, d.message]);

describe("unknown-field inside described objects", () => {
  it("warns at a keyframe's unlisted field, with the nested pointer and did-you-mean", () => {
    expect(
      check({ prompt: "p", keyframes: [{ image_url: "a", frame_index: 0, strength: 0.5, frame_indx: 2 }] }),
    ).toEqual([
      [
        "warning",
        "unknown-field",
        "/keyframes/0/strength",
        "keyframes[0].strength: is not a field of keyframes[0] (known: image_url, frame_index)",
      ],
      [
        "warning",
        "unknown-field",
        "/keyframes/0/frame_indx",
        'keyframes[0].frame_indx: is not a field of keyframes[0]; did you mean "frame_index"? (known: image_url, frame_index)',
      ],
    ]);
  });

  it("follows nullable objects, arrays of arrays and recursive $refs", () => {
    const found = check({
      camera: { pan: 1, zoom: 2 },
      grid: [[{ image_url: "a", strength: 1 }]],
      tree: { name: "a", children: [{ name: "b", children: [{ nam: "c" }] }] },
    }).map(([, , pointer, message]) => [pointer, message]);
    expect(found).toEqual([
      ["/camera/zoom", "camera.zoom: is not a field of camera (known: pan, tilt)"],
      ["/grid/0/0/strength", "grid[0][0].strength: is not a field of grid[0][0] (known: image_url, frame_index)"],
      [
        "/tree/children/0/children/0/nam",
        'tree.children[0].children[0].nam: is not a field of tree.children[0].children[0]; did you mean "name"? (known: name, children)',
      ],
    ]);
    expect(check({ camera: null, grid: [null, [5]], tree: { name: "x", children: "no" } })).toEqual([]);
  });

  it("does not enter an object that states additionalProperties (the schema says what it allows)", () => {
    expect(check({ extra: { a: "x", b: 1 } })).toEqual([]);
  });

  it("escapes pointer tokens and ignores prototype names the schema does not list", () => {
    const input = JSON.parse('{"keyframes":[{"a/b~c":1,"__proto__":{"x":1}}]}') as Record<string, unknown>;
    expect(check(input).map(([, , pointer]) => pointer)).toEqual(["/keyframes/0/a~1b~0c", "/keyframes/0/__proto__"]);
  });

  it("the rule is data: finite for a recursive schema, JSON round-trips", () => {
    expect(JSON.parse(JSON.stringify(rule))).toEqual(rule);
    expect(rule.objects?.map((o) => o.known)).toEqual([
      ["image_url", "frame_index"],
      ["pan", "tilt"],
      ["name", "children"],
    ]);
  });

  it("the quick form is never more lenient than the full check on nested payloads", () => {
    const quick = new Function("input", "errorsOnly", quickCheckSource([rule as RuleSpec])) as (
      input: unknown,
    ) => boolean;
    const key = fc.constantFrom("image_url", "frame_index", "strength", "pan", "zoom", "name", "children", "a", "b");
    const leaf = fc.oneof(fc.integer(), fc.constant(null), fc.string({ maxLength: 3 }));
    const obj = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: "small" }, leaf, fc.array(tie("value"), { maxLength: 3 }), tie("object")),
      object: fc.dictionary(key, tie("value"), { maxKeys: 3 }),
    })).object;
    const payload = fc.record(
      {
        prompt: fc.string({ maxLength: 3 }),
        keyframes: fc.array(obj, { maxLength: 3 }),
        camera: fc.oneof(obj, fc.constant(null)),
        grid: fc.array(fc.array(obj, { maxLength: 2 }), { maxLength: 2 }),
        tree: obj,
        extra: obj,
      },
      { requiredKeys: [] },
    );
    let taken = 0;
    fc.assert(
      fc.property(payload, (input) => {
        if (!quick(input)) return;
        taken++;
        expect(checkRules([rule as RuleSpec], input, [])).toEqual([]);
      }),
      { numRuns: 3000 },
    );
    expect(taken).toBeGreaterThan(0);
    expect(
      quick({ keyframes: [{ image_url: "a" }], camera: { pan: 1 }, tree: { name: "a", children: [{ name: "b" }] } }),
    ).toBe(false); // recursion: maybe
    expect(quick({ keyframes: [{ image_url: "a" }], camera: { pan: 1 }, grid: [[{ frame_index: 1 }]] })).toBe(true);
    expect(quick({ keyframes: [{ image_url: "a", strength: 1 }] })).toBe(false);
  });
});

describe("rule kind unknownFields, case by case", () => {
  const said = (field: string, hint: string) =>
    `${field}: is not a field of this endpoint; did you mean "${hint}"? (known: prompt, keyframes, camera, grid, tree, extra)`;
  runKindCases(unknownFields, rule, [
    ["only listed fields", { given: { prompt: "p", camera: { pan: 1 } }, want: [] }],
    [
      "a near miss at the top level",
      { given: { promt: "p" }, want: [["warning", "unknown-field", "/promt", said("promt", "prompt")]] },
    ],
    ["inside an object the schema leaves open", { given: { extra: { b: 1 } }, want: [] }],
  ]);
});

describe("unknown-field under a finding limit (issue 38.2: a payload with 200k unknown keys)", () => {
  const many = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));

  it("words the first `max` of its findings and counts the rest, never shown", () => {
    const found = checkRules([rule], { prompt: "p", ...many(7) }, [], false, undefined, 3);
    expect(found).toHaveLength(7);
    expect(found.slice(0, 3).map((d) => d.pointer)).toEqual(["/k0", "/k1", "/k2"]);
    for (const d of found.slice(0, 3)) expect(d.message).toMatch(/is not a field of this endpoint/);
    // the rest: warnings of the rule, counted, with nothing worded (no edit distance, no message)
    for (const d of found.slice(3)) expect([d.severity, d.rule, d.message]).toEqual(["warning", rule.id, ""]);
  });

  it("what a limited check shows is the unlimited check's first `max`, with exact totals", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1, max: 12 }), (n, max) => {
        const input = { prompt: "p", keyframes: [{ image_url: "a", frame_indx: 1 }], ...many(n) };
        const all = diagnose(null, [rule], input);
        const limited = diagnose(null, [rule], input, { max });
        if (all.length <= max) expect(limited).toEqual(all);
        else {
          expect(limited.slice(0, max)).toEqual(all.slice(0, max));
          expect(limited).toHaveLength(max + 1);
          expect(limited[max]!.expected).toMatchObject({ more: all.length - max, errors: 0 });
        }
      }),
      { seed: 382, numRuns: 200 },
    );
  });
});
