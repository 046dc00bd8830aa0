/**
 * The scenario table: one row per change kind, placed in a request body and in a response body,
 * narrowing and widening, each with the change id, severity and exit code (`--fail-on breaking`)
 * a user sees; endpoint changes; and the equivalent rewrites that must report nothing.
 */
import { describe, expect, it } from "vitest";
import {
  buildReport,
  catalogueEntry,
  classifyModel,
  diffModels,
  keywordName,
  type Change,
} from "../../src/drift/index.js";
import { loadModelDocument, type ModelSchema } from "../../src/schema/index.js";

type Json = Record<string, unknown>;
const S = { type: "string" };
const I = { type: "integer" };
const N = { type: "number" };
const A = { type: "array", items: S };
const O = { type: "object" };
const TUPLE = (prefixItems: unknown[]): Json => ({ type: "array", prefixItems });

/** A one-endpoint model whose request and response bodies are `{prompt, x}` / `{video, x}`. */
function model(x: unknown, extra: { components?: Json; requestX?: unknown; responseX?: unknown } = {}): Json {
  const body = (base: string, value: unknown): Json => ({
    type: "object",
    required: [base],
    properties: { [base]: S, ...(value === undefined ? {} : { x: value }) },
  });
  return {
    openapi: "3.1.0",
    info: { title: "scenario", version: "1" },
    paths: {
      "/fx/scenario/run": {
        post: {
          requestBody: {
            content: { "application/json": { schema: body("prompt", extra.requestX ?? x) } },
          },
          responses: {
            "200": {
              description: "ok",
              content: { "application/json": { schema: body("video", extra.responseX ?? x) } },
            },
          },
        },
      },
    },
    components: { schemas: extra.components ?? {} },
  };
}

const load = (doc: unknown): ModelSchema =>
  loadModelDocument(doc, { model: "fx/scenario", file: "scenario.json" }, { lenient: true });

function changes(before: unknown, after: unknown): Change[] {
  const [b, a] = [load(before), load(after)];
  return classifyModel(diffModels(b, a), b, a);
}

/** The exit code `vsk drift --fail-on breaking` gives for these changes. */
function exitCode(found: Change[]): number {
  const report = buildReport({
    source: "scenario",
    models: [{ model: "fx/scenario", status: "changed", sha256: { snapshot: null, source: null } }],
    changes: found,
    accepted: [],
    warnings: [],
    failOn: "breaking",
  });
  return report.summary.exitCode;
}

/** id, severity, and `false` when no payload crosses the change (so none may be shown) */
type Want = [id: string, severity: Change["severity"], example?: false];
/** name, x before, x after, what the request side reports, what the response side reports */
type Row = [string, unknown, unknown, Want | null, Want];

const bound = (keyword: string, base: Json, narrow: [number | undefined, number | undefined]): Row[] => {
  const name = keyword.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`).replace(/^(max|min)imum$/, "$1");
  const short =
    { maximum: "max", minimum: "min", exclusiveMaximum: "exclusive-max", exclusiveMinimum: "exclusive-min" }[keyword] ??
    name;
  const side = (v: number | undefined): Json => (v === undefined ? base : { ...base, [keyword]: v });
  const [from, to] = narrow;
  const change = (a: number | undefined, b: number | undefined): string =>
    a === undefined ? "set" : b === undefined ? "unset" : b > a ? "increased" : "decreased";
  const narrowing = change(from, to);
  const widening = change(to, from);
  return [
    [
      `${keyword} narrowed (${narrowing})`,
      side(from),
      side(to),
      [`request-property-${short}-${narrowing}`, "breaking"],
      [`response-property-${short}-${narrowing}`, "safe"],
    ],
    [
      `${keyword} widened (${widening})`,
      side(to),
      side(from),
      [`request-property-${short}-${widening}`, "safe"],
      [`response-property-${short}-${widening}`, "behavior"],
    ],
  ];
};

const ROWS: Row[] = [
  ...bound("maximum", I, [10, 5]),
  ...bound("maximum", I, [undefined, 5]),
  ...bound("minimum", I, [1, 5]),
  ...bound("exclusiveMaximum", N, [10, 5]),
  ...bound("exclusiveMinimum", N, [undefined, 0]),
  ...bound("maxLength", S, [10, 5]),
  ...bound("minLength", S, [1, 3]),
  ...bound("maxItems", A, [3, 1]),
  ...bound("minItems", A, [undefined, 2]),
  ...bound("maxProperties", O, [3, 1]),
  ...bound("minProperties", O, [1, 2]),
  [
    "format set",
    S,
    { ...S, format: "uri" },
    ["request-property-format-set", "breaking"],
    ["response-property-format-set", "safe"],
  ],
  [
    "format unset",
    { ...S, format: "uri" },
    S,
    ["request-property-format-unset", "safe"],
    ["response-property-format-unset", "behavior"],
  ],
  [
    "format rewritten",
    { ...S, format: "uri" },
    { ...S, format: "email" },
    ["request-property-format-changed", "unclassified"],
    // issue 39: a guarantee that may be weaker now
    ["response-property-format-changed", "behavior"],
  ],
  [
    "pattern set",
    S,
    { ...S, pattern: "^a" },
    ["request-property-pattern-set", "breaking"],
    ["response-property-pattern-set", "safe"],
  ],
  [
    "pattern unset",
    { ...S, pattern: "^a" },
    S,
    ["request-property-pattern-unset", "safe"],
    ["response-property-pattern-unset", "behavior"],
  ],
  // issue 29.3: a pattern every string matches ("", .*) constrains nothing
  [
    'pattern "" narrowed to ^\\w+$',
    { ...S, pattern: "" },
    { ...S, pattern: "^\\w+$" },
    ["request-property-pattern-set", "breaking"],
    ["response-property-pattern-set", "safe"],
  ],
  [
    "pattern .* narrowed to ^.*$ (a line break is rejected now)",
    { ...S, pattern: ".*" },
    { ...S, pattern: "^.*$" },
    ["request-property-pattern-set", "breaking"],
    ["response-property-pattern-set", "safe"],
  ],
  [
    'pattern "^" narrowed to ^a',
    { ...S, pattern: "^" },
    { ...S, pattern: "^a" },
    ["request-property-pattern-set", "breaking"],
    ["response-property-pattern-set", "safe"],
  ],
  [
    "pattern ^\\d*$ widened to \\d*",
    { ...S, pattern: "^\\d*$" },
    { ...S, pattern: "\\d*" },
    ["request-property-pattern-unset", "safe"],
    ["response-property-pattern-unset", "behavior"],
  ],
  [
    "pattern ^a widened to .*",
    { ...S, pattern: "^a" },
    { ...S, pattern: ".*" },
    ["request-property-pattern-unset", "safe"],
    ["response-property-pattern-unset", "behavior"],
  ],
  [
    'pattern ^.*$ widened to "" (^.*$ rejects a line break)',
    { ...S, pattern: "^.*$" },
    { ...S, pattern: "" },
    ["request-property-pattern-unset", "safe"],
    ["response-property-pattern-unset", "behavior"],
  ],
  // issue 29.2: the 2020-12 keywords, set and unset
  ...(
    [
      ["contains", A, { contains: { const: "a" } }],
      ["minContains", { ...A, contains: { const: "a" } }, { minContains: 2 }],
      ["maxContains", { ...A, contains: { const: "a" } }, { maxContains: 1 }],
      ["prefixItems", A, { prefixItems: [{ const: "a" }] }],
      ["propertyNames", O, { propertyNames: { maxLength: 1 } }],
      ["patternProperties", O, { patternProperties: { "^a": I } }],
      ["dependentRequired", O, { dependentRequired: { a: ["b"] } }],
      ["dependentSchemas", O, { dependentSchemas: { a: { required: ["b"] } } }],
      ["unevaluatedProperties", O, { unevaluatedProperties: false }],
      ["unevaluatedItems", { type: "array", prefixItems: [S] }, { unevaluatedItems: false }],
      ["then", { ...I, if: { minimum: 10 } }, { then: { maximum: 20 } }],
    ] as const
  ).flatMap(([keyword, base, set]): Row[] => {
    const id = keywordName(keyword);
    // issue 39: a tuple is compared position by position (here `items: string` → `const: "a"` at 0)
    if (keyword === "prefixItems")
      return [
        [
          "prefixItems set",
          base,
          { ...base, ...set },
          ["request-property-enum-set", "breaking"],
          ["response-property-enum-set", "safe"],
        ],
        [
          "prefixItems unset",
          { ...base, ...set },
          base,
          ["request-property-enum-unset", "safe"],
          ["response-property-prefix-items-unset", "breaking"],
        ],
      ];
    return [
      [
        `${keyword} set`,
        base,
        { ...base, ...set },
        [`request-property-${id}-set`, "breaking"],
        [`response-property-${id}-set`, "safe"],
      ],
      [
        `${keyword} unset`,
        { ...base, ...set },
        base,
        [`request-property-${id}-unset`, "safe"],
        // prefixItems and patternProperties shape the client's generated types
        [
          `response-property-${id}-unset`,
          ["prefixItems", "patternProperties"].includes(keyword) ? "breaking" : "behavior",
        ],
      ],
    ];
  }),
  // issue 29.2: a value rewritten on both sides is walked into, like properties and items
  [
    "contains rewritten",
    { ...A, contains: S },
    { ...A, contains: I },
    ["request-property-type-changed", "breaking"],
    ["response-property-type-changed", "breaking"],
  ],
  [
    "prefixItems item rewritten",
    TUPLE([S]),
    TUPLE([I]),
    ["request-property-type-changed", "breaking"],
    ["response-property-type-changed", "breaking"],
  ],
  [
    "prefixItems longer",
    TUPLE([S]),
    TUPLE([S, I]),
    // position 1 was any value (no items)
    ["request-property-type-narrowed", "breaking"],
    ["response-property-type-narrowed", "safe"],
  ],
  [
    "prefixItems shorter",
    TUPLE([S, I]),
    TUPLE([S]),
    ["request-property-type-widened", "safe"],
    ["response-property-prefix-items-unset", "breaking"],
  ],
  [
    "patternProperties value rewritten",
    { ...O, patternProperties: { "^a": S } },
    { ...O, patternProperties: { "^a": I } },
    ["request-property-type-changed", "breaking"],
    ["response-property-type-changed", "breaking"],
  ],
  [
    "patternProperties pattern added",
    { ...O, patternProperties: { "^a": S } },
    { ...O, patternProperties: { "^a": S, "^b": I } },
    ["request-property-pattern-properties-set", "breaking"],
    ["response-property-pattern-properties-set", "safe"],
  ],
  [
    "propertyNames rewritten",
    { ...O, propertyNames: { maxLength: 5 } },
    { ...O, propertyNames: { maxLength: 3 } },
    ["request-property-max-length-decreased", "breaking"],
    ["response-property-max-length-decreased", "safe"],
  ],
  [
    "dependentSchemas rewritten",
    { ...O, dependentSchemas: { a: { required: ["b"] } } },
    { ...O, dependentSchemas: { a: { required: ["b", "c"] } } },
    ["new-required-request-property", "breaking"],
    ["response-required-property-added", "safe"],
  ],
  [
    "dependentRequired rewritten",
    { ...O, dependentRequired: { a: ["b"] } },
    { ...O, dependentRequired: { a: ["b", "c"] } },
    ["request-property-dependent-required-set", "breaking"],
    ["response-property-dependent-required-set", "safe"],
  ],
  [
    "minContains raised",
    { ...A, contains: { const: "a" }, minContains: 1 },
    { ...A, contains: { const: "a" }, minContains: 2 },
    ["request-property-min-contains-set", "breaking"],
    ["response-property-min-contains-set", "safe"],
  ],
  [
    "maxContains lowered",
    { ...A, contains: { const: "a" }, maxContains: 3 },
    { ...A, contains: { const: "a" }, maxContains: 2 },
    ["request-property-max-contains-set", "breaking"],
    ["response-property-max-contains-set", "safe"],
  ],
  [
    "unevaluatedProperties rewritten",
    { ...O, unevaluatedProperties: S },
    { ...O, unevaluatedProperties: I },
    ["request-property-type-changed", "breaking"],
    ["response-property-type-changed", "breaking"],
  ],
  [
    "unevaluatedItems rewritten",
    { ...TUPLE([S]), unevaluatedItems: S },
    { ...TUPLE([S]), unevaluatedItems: I },
    ["request-property-type-changed", "breaking"],
    ["response-property-type-changed", "breaking"],
  ],
  [
    "then rewritten",
    { ...I, if: { minimum: 10 }, then: { maximum: 20 } },
    { ...I, if: { minimum: 10 }, then: { maximum: 15 } },
    ["request-property-max-decreased", "breaking"],
    ["response-property-max-decreased", "safe"],
  ],
  // below a then, the example holds what its if checks (kind: image), and what the old then requires (b)
  ...(
    [
      [
        "a then's bound lowered",
        { properties: { b: { maximum: 9 } } },
        { properties: { b: { maximum: 5 } } },
        "max-decreased",
      ],
      ["a then requiring one more", { required: ["b"] }, { required: ["b", "c"] }, undefined],
    ] as const
  ).map(([name, before, after, what]): Row => {
    const x = (then: unknown): Json => ({
      ...O,
      required: ["kind"],
      properties: { kind: { enum: ["video", "image"] }, b: I, c: S },
      if: { properties: { kind: { const: "image" } } },
      then,
    });
    return [
      `${name} below an if on a property`,
      x(before),
      x(after),
      [what === undefined ? "new-required-request-property" : `request-property-${what}`, "breaking"],
      [what === undefined ? "response-required-property-added" : `response-property-${what}`, "safe"],
    ];
  }),
  [
    "else rewritten",
    { ...I, if: { minimum: 10 }, else: { minimum: 0 } },
    { ...I, if: { minimum: 10 }, else: { minimum: 5 } },
    ["request-property-min-increased", "breaking"],
    ["response-property-min-increased", "safe"],
  ],
  // issue 29.2: a then written without an if applies once an if is set beside it
  [
    "if set beside a then",
    { ...I, then: { maximum: 0 } },
    { ...I, if: { minimum: 10 }, then: { maximum: 0 } },
    ["request-property-if-set", "breaking"],
    ["response-property-if-set", "safe"],
  ],
  [
    "if unset beside a then",
    { ...I, if: { minimum: 10 }, then: { maximum: 0 } },
    { ...I, then: { maximum: 0 } },
    ["request-property-if-unset", "safe"],
    ["response-property-if-unset", "behavior"],
  ],
  [
    "if rewritten",
    { ...I, if: { minimum: 10 }, then: { maximum: 0 } },
    { ...I, if: { minimum: 5 }, then: { maximum: 0 } },
    ["request-property-if-changed", "breaking"],
    ["response-property-if-changed", "behavior"],
  ],
  [
    "pattern rewritten",
    { ...S, pattern: "^a" },
    { ...S, pattern: "^b" },
    ["request-property-pattern-changed", "unclassified"],
    ["response-property-pattern-changed", "behavior"],
  ],
  [
    "uniqueItems set",
    A,
    { ...A, uniqueItems: true },
    ["request-property-unique-items-set", "breaking"],
    ["response-property-unique-items-set", "safe"],
  ],
  [
    "uniqueItems unset",
    { ...A, uniqueItems: true },
    A,
    ["request-property-unique-items-unset", "safe"],
    ["response-property-unique-items-unset", "behavior"],
  ],
  [
    "multipleOf set",
    I,
    { ...I, multipleOf: 5 },
    ["request-property-multiple-of-narrowed", "breaking"],
    ["response-property-multiple-of-narrowed", "safe"],
  ],
  [
    "multipleOf to a multiple",
    { ...I, multipleOf: 2 },
    { ...I, multipleOf: 6 },
    ["request-property-multiple-of-narrowed", "breaking"],
    ["response-property-multiple-of-narrowed", "safe"],
  ],
  [
    "multipleOf to a divisor",
    { ...I, multipleOf: 6 },
    { ...I, multipleOf: 2 },
    ["request-property-multiple-of-widened", "safe"],
    ["response-property-multiple-of-widened", "behavior"],
  ],
  [
    "multipleOf unset",
    { ...I, multipleOf: 5 },
    I,
    ["request-property-multiple-of-widened", "safe"],
    ["response-property-multiple-of-widened", "behavior"],
  ],
  [
    "multipleOf to neither",
    { ...N, multipleOf: 0.5 },
    { ...N, multipleOf: 0.3 },
    ["request-property-multiple-of-changed", "breaking"],
    ["response-property-multiple-of-changed", "breaking"],
  ],
  [
    "additionalProperties false added",
    O,
    { ...O, additionalProperties: false },
    ["request-property-additional-properties-narrowed", "breaking"],
    ["response-property-additional-properties-narrowed", "safe"],
  ],
  [
    "additionalProperties a schema added",
    O,
    { ...O, additionalProperties: I },
    ["request-property-additional-properties-narrowed", "breaking"],
    ["response-property-additional-properties-narrowed", "safe"],
  ],
  [
    "additionalProperties false removed",
    { ...O, additionalProperties: false },
    O,
    ["request-property-additional-properties-widened", "safe"],
    ["response-property-additional-properties-widened", "behavior"],
  ],
  [
    // issue 29.1: the schema of unlisted properties is compared as a property's is
    "additionalProperties schema rewritten",
    { ...O, additionalProperties: I },
    { ...O, additionalProperties: S },
    ["request-property-type-changed", "breaking"],
    ["response-property-type-changed", "breaking"],
  ],
  [
    "enum value removed",
    { ...S, enum: ["a", "b"] },
    { ...S, enum: ["a"] },
    ["request-property-enum-value-removed", "breaking"],
    ["response-property-enum-value-removed", "safe"],
  ],
  [
    "enum value added",
    { ...S, enum: ["a"] },
    { ...S, enum: ["a", "b"] },
    ["request-property-enum-value-added", "safe"],
    ["response-property-enum-value-added", "breaking"],
  ],
  [
    "enum set",
    S,
    { ...S, enum: ["a"] },
    ["request-property-enum-set", "breaking"],
    ["response-property-enum-set", "safe"],
  ],
  [
    "enum unset",
    { ...S, enum: ["a"] },
    S,
    ["request-property-enum-unset", "safe"],
    ["response-property-enum-unset", "breaking"],
  ],
  [
    "type narrowed",
    { type: ["string", "integer"] },
    S,
    ["request-property-type-narrowed", "breaking"],
    ["response-property-type-narrowed", "safe"],
  ],
  ["type widened", I, N, ["request-property-type-widened", "safe"], ["response-property-type-changed", "breaking"]],
  ["type changed", I, S, ["request-property-type-changed", "breaking"], ["response-property-type-changed", "breaking"]],
  [
    "became nullable (anyOf)",
    S,
    { anyOf: [S, { type: "null" }] },
    ["request-property-became-nullable", "safe"],
    ["response-property-became-nullable", "breaking"],
  ],
  [
    "became nullable (oneOf)",
    S,
    { oneOf: [S, { type: "null" }] },
    ["request-property-became-nullable", "safe"],
    ["response-property-became-nullable", "breaking"],
  ],
  [
    "no longer nullable (oneOf)",
    { oneOf: [S, { type: "null" }] },
    S,
    ["request-property-became-not-nullable", "breaking"],
    ["response-property-became-not-nullable", "safe"],
  ],
  [
    "anyOf branch removed",
    { anyOf: [S, I] },
    I,
    ["request-property-any-of-removed", "breaking"],
    ["response-property-any-of-removed", "safe"],
  ],
  [
    "anyOf branch added",
    I,
    { anyOf: [S, I] },
    ["request-property-any-of-added", "safe"],
    ["response-property-any-of-added", "breaking"],
  ],
  [
    "oneOf branch removed",
    { oneOf: [S, I, { type: "boolean" }] },
    { oneOf: [S, I] },
    ["request-property-any-of-removed", "breaking"],
    ["response-property-any-of-removed", "safe"],
  ],
  [
    "a narrowing another branch may cover",
    {
      anyOf: [
        { ...S, maxLength: 9 },
        { ...S, pattern: "^h" },
      ],
    },
    {
      anyOf: [
        { ...S, maxLength: 5 },
        { ...S, pattern: "^h" },
      ],
    },
    ["request-property-any-of-narrowing-undecided", "unclassified"],
    ["response-property-max-length-decreased", "safe"],
  ],
  [
    "a widening another branch may cover",
    {
      anyOf: [
        { ...S, maxLength: 5 },
        { ...S, pattern: "^h" },
      ],
    },
    {
      anyOf: [
        { ...S, maxLength: 9 },
        { ...S, pattern: "^h" },
      ],
    },
    ["request-property-max-length-increased", "safe"],
    ["response-property-any-of-widening-undecided", "unclassified"],
  ],
  [
    "default added",
    S,
    { ...S, default: "a" },
    ["request-property-default-value-added", "behavior"],
    ["response-property-default-changed", "docs"],
  ],
  [
    "default changed",
    { ...S, default: "a" },
    { ...S, default: "b" },
    ["request-property-default-value-changed", "behavior"],
    ["response-property-default-changed", "docs"],
  ],
  [
    "description changed",
    { ...S, description: "a" },
    { ...S, description: "b" },
    ["request-property-description-changed", "docs"],
    ["response-property-description-changed", "docs"],
  ],
  [
    "deprecated set",
    S,
    { ...S, deprecated: true },
    ["request-property-deprecated-changed", "unclassified"],
    ["response-property-deprecated-changed", "unclassified"],
  ],
  // issue 29.4: an inline allOf member that adds a constraint is that constraint
  [
    "allOf member with a constraint added",
    S,
    { ...S, allOf: [{ maxLength: 5 }] },
    ["request-property-max-length-set", "breaking"],
    ["response-property-max-length-set", "safe"],
  ],
  // a nested anyOf beside another keyword accepts its branches' types, not any type: no "undecided"
  [
    "a bound lowered beside a nested anyOf of other types",
    {
      anyOf: [
        { ...I, maximum: 10 },
        { anyOf: [S, { type: "boolean" }], minLength: 1 },
      ],
    },
    {
      anyOf: [
        { ...I, maximum: 5 },
        { anyOf: [S, { type: "boolean" }], minLength: 1 },
      ],
    },
    ["request-property-max-decreased", "breaking"],
    ["response-property-max-decreased", "safe"],
  ],
  // a tagged union (a required property with other values in each member): no member covers another's narrowing
  ...(["anyOf", "oneOf"] as const).map((union): Row => {
    const member = (tag: string, v?: number): Json => ({
      ...O,
      required: ["kind"],
      properties: { kind: { const: tag }, ...(v === undefined ? {} : { v: { ...I, maximum: v } }) },
    });
    return [
      `a bound lowered in one member of a tagged ${union}`,
      { [union]: [member("a", 9), member("b")] },
      { [union]: [member("a", 5), member("b")] },
      ["request-property-max-decreased", "breaking"],
      ["response-property-max-decreased", "safe"],
    ];
  }),
  [
    "anyOf beside other keywords rewritten",
    { ...S, anyOf: [{ maxLength: 10 }, { pattern: "^a" }] },
    { ...S, anyOf: [{ maxLength: 5 }, { pattern: "^a" }] },
    ["request-property-any-of-changed", "unclassified"],
    ["response-property-any-of-changed", "unclassified"],
  ],
  [
    "anyOf alternative added beside a duplicate",
    { anyOf: [S, { ...S, maxLength: 5 }] },
    { anyOf: [S, { ...S, maxLength: 5 }, I] },
    ["request-property-any-of-added", "safe"],
    ["response-property-any-of-added", "breaking"],
  ],
  [
    "not rewritten",
    { ...S, not: { const: "a" } },
    { ...S, not: { const: "b" } },
    ["request-property-not-changed", "unclassified"],
    ["response-property-not-changed", "unclassified"],
  ],
  [
    "an extension keyword",
    { ...S, "x-widget": 1 },
    { ...S, "x-widget": 2 },
    ["request-property-unknown-keyword-changed", "unclassified"],
    ["response-property-unknown-keyword-changed", "unclassified"],
  ],
];

/** A property `p` inside x: required or not, present or not. */
const withP = (p: unknown, required: boolean): Json => ({
  ...O,
  properties: p === undefined ? {} : { p },
  ...(required ? { required: ["p"] } : {}),
});
const PROPERTY_ROWS: Array<[string, unknown, unknown, Want | null, Want]> = [
  // issue 29.5: write-only is never returned; read-only is still checked on a request
  [
    "a write-only property's enum widened",
    withP({ ...S, enum: ["a"], writeOnly: true }, true),
    withP({ ...S, enum: ["a", "b"], writeOnly: true }, true),
    ["request-property-enum-value-added", "safe"],
    ["response-write-only-property-changed", "safe"],
  ],
  [
    "a write-only property made optional",
    withP({ ...S, writeOnly: true }, true),
    withP({ ...S, writeOnly: true }, false),
    ["request-property-became-optional", "safe"],
    ["response-write-only-property-changed", "safe"],
  ],
  [
    "a write-only property removed",
    withP({ ...S, writeOnly: true }, true),
    withP(undefined, false),
    ["request-property-removed", "breaking", false],
    ["response-write-only-property-changed", "safe"],
  ],
  [
    "a required property became write-only",
    withP(S, true),
    withP({ ...S, writeOnly: true }, true),
    // issue 39: write-only says what is returned; what a request may send is the same
    null,
    ["response-required-property-became-write-only", "breaking"],
  ],
  [
    "a read-only property narrowed",
    withP({ ...S, readOnly: true }, false),
    withP({ ...S, readOnly: true, maxLength: 3 }, false),
    ["request-property-max-length-set", "breaking"],
    ["response-property-max-length-set", "safe"],
  ],
  [
    "property became required",
    withP(S, false),
    withP(S, true),
    ["request-property-became-required", "breaking"],
    ["response-property-became-required", "safe"],
  ],
  [
    "property became optional",
    withP(S, true),
    withP(S, false),
    ["request-property-became-optional", "safe"],
    ["response-property-became-optional", "breaking"],
  ],
  [
    "required property added",
    withP(undefined, false),
    withP(S, true),
    ["new-required-request-property", "breaking"],
    ["response-required-property-added", "safe"],
  ],
  [
    "optional property added",
    withP(undefined, false),
    withP(S, false),
    ["new-optional-request-property", "safe"],
    ["response-optional-property-added", "safe"],
  ],
  // an open object still accepts `p` (and the service may ignore it): no payload crosses the change
  [
    "required property removed",
    withP(S, true),
    withP(undefined, false),
    ["request-property-removed", "breaking", false],
    ["response-required-property-removed", "breaking"],
  ],
  [
    "optional property removed",
    withP(S, false),
    withP(undefined, false),
    ["request-property-removed", "breaking", false],
    ["response-optional-property-removed", "behavior"],
  ],
  [
    "property removed from a closed object",
    { ...withP(S, false), additionalProperties: false },
    { ...withP(undefined, false), additionalProperties: false },
    ["request-property-removed", "breaking"],
    ["response-optional-property-removed", "behavior"],
  ],
];

describe("scenario table: each change in a request and in a response", () => {
  it.each([...ROWS, ...PROPERTY_ROWS])("%s", (_name, before, after, request, response) => {
    for (const [direction, want] of [
      ["request", request],
      ["response", response],
    ] as const) {
      // the change on one side only: the other body keeps the "before" schema
      const other = direction === "request" ? { responseX: before } : { requestX: before };
      const found = changes(model(before), model(after, other));
      if (want === null) {
        expect(found.map((c) => c.id)).toEqual([]);
        continue;
      }
      expect(
        found.map((c) => [c.direction, c.id, c.severity]),
        `${direction}: ${JSON.stringify(found.map((c) => c.text))}`,
      ).toEqual([[direction, want[0], want[1]]]);
      expect(catalogueEntry(want[0])).toMatchObject({ direction, severity: want[1] });
      expect(exitCode(found)).toBe(want[1] === "breaking" ? 1 : 0);
      // a breaking request change shows a payload the snapshot accepts and the source rejects
      if (want[2] === false) expect(found[0]!.example).toBeUndefined();
      else if (direction === "request" && want[1] === "breaking")
        expect(found[0]!.example, found[0]!.text).toBeDefined();
    }
  });
});

describe("a tagged union's members are paired by their tag (issue 29.4)", () => {
  const member = (tag: string, v: number, extra: Json = {}): Json => ({
    ...O,
    required: ["kind"],
    properties: { kind: { const: tag }, v: { ...I, maximum: v }, ...extra },
  });
  it("listed in another order, both changed: each change is its own member's, not undecided", () => {
    const found = changes(
      model({ oneOf: [member("a", 9), member("b", 9)] }),
      model({ oneOf: [member("b", 9, { w: S }), member("a", 5)] }),
    );
    expect(found.map((c) => [c.direction, c.id, c.severity, c.field])).toEqual([
      ["request", "request-property-max-decreased", "breaking", "/x/v"],
      ["request", "new-optional-request-property", "safe", "/x/w"],
      ["response", "response-property-max-decreased", "safe", "/x/v"],
      ["response", "response-optional-property-added", "safe", "/x/w"],
    ]);
    expect(found[0]!.example).toEqual({ prompt: "…", x: { kind: "a", v: 9 } });
  });
});

describe("a oneOf alternative added that duplicates one rejects what it accepts (issue 29.4)", () => {
  const STR = { Str: S };
  it.each([
    ["written inline", model({ oneOf: [S, I] }), model({ oneOf: [S, I, S] })],
    [
      "written as a $ref to the same schema",
      model({ oneOf: [S, I] }, { components: STR }),
      model({ oneOf: [S, I, { $ref: "#/components/schemas/Str" }] }, { components: STR }),
    ],
  ])("%s: strings now match two branches and are rejected; nothing said of integers", (_name, before, after) => {
    const found = changes(before, after);
    expect(found.map((c) => [c.direction, c.id, c.severity, c.field])).toEqual([
      ["request", "request-property-one-of-duplicated", "breaking", "/x"],
      ["response", "response-property-one-of-duplicated", "safe", "/x"],
    ]);
    expect(found[0]!.text).toMatch(/match more than one branch and are rejected/);
    // a string: the snapshot accepts it, the source rejects it (the example maker checks both with Ajv)
    expect(found[0]!.example).toEqual({ prompt: "…", x: expect.any(String) });
    expect(exitCode(found)).toBe(1);
  });

  it("a single string schema that becomes oneOf [string, integer, string]: strings rejected, integers new", () => {
    const found = changes(model(S), model({ oneOf: [S, I, S] }));
    expect(found.map((c) => [c.direction, c.id, c.severity])).toEqual([
      ["request", "request-property-one-of-duplicated", "breaking"],
      ["request", "request-property-any-of-added", "safe"],
      ["response", "response-property-one-of-duplicated", "safe"],
      ["response", "response-property-any-of-added", "breaking"],
    ]);
    expect(found[0]!.example).toEqual({ prompt: "…", x: expect.any(String) });
  });

  it("the copy removed again: strings are accepted again (safe)", () => {
    const found = changes(model({ oneOf: [S, I, S] }), model({ oneOf: [S, I] }));
    expect(found.map((c) => [c.direction, c.id, c.severity])).toEqual([
      ["request", "request-property-any-of-added", "safe"],
      ["response", "response-property-any-of-added", "breaking"],
    ]);
  });
});

/** A model with several endpoints; `edit` changes the after side's document. */
function endpoints(edit: (doc: Json) => void): [Json, Json] {
  const before = model(S) as { paths: Record<string, Json> };
  before.paths["/fx/scenario/other"] = structuredClone(before.paths["/fx/scenario/run"]!);
  const after = structuredClone(before) as Json;
  edit(after);
  return [before, after];
}
const other = (doc: Json): Json => (doc.paths as Record<string, Json>)["/fx/scenario/other"]!;
const post = (doc: Json): Json => other(doc).post as Json;

describe("endpoint changes: method, media type and status are breaking (exit 1)", () => {
  it.each([
    ["removed", (d: Json) => delete (d.paths as Json)["/fx/scenario/other"], "endpoint-removed", 1],
    ["method post → put", (d: Json) => ((other(d).put = post(d)), delete other(d).post), "endpoint-method-changed", 1],
    [
      "request JSON → multipart",
      (d: Json) => {
        const c = (post(d).requestBody as { content: Json }).content;
        c["multipart/form-data"] = c["application/json"];
        delete c["application/json"];
      },
      "endpoint-request-media-type-changed",
      1,
    ],
    [
      "response 200 → 201",
      (d: Json) => {
        const r = post(d).responses as Json;
        r["201"] = r["200"];
        delete r["200"];
      },
      "endpoint-response-status-changed",
      1,
    ],
    [
      "response JSON → text",
      (d: Json) => {
        const c = ((post(d).responses as Json)["200"] as { content: Json }).content;
        c["text/plain"] = c["application/json"];
        delete c["application/json"];
      },
      "endpoint-response-media-type-changed",
      1,
    ],
    [
      "a charset parameter added to the media type: no change",
      (d: Json) => {
        const c = (post(d).requestBody as { content: Json }).content;
        c["application/json; charset=utf-8"] = c["application/json"];
        delete c["application/json"];
      },
      undefined,
      0,
    ],
  ] as const)("%s", (_name, edit, id, code) => {
    const [before, after] = endpoints(edit);
    const found = changes(before, after);
    expect(found.map((c) => [c.endpoint, c.direction, c.id])).toEqual(
      id === undefined ? [] : [["other", "endpoint", id]],
    );
    expect(exitCode(found)).toBe(code);
  });

  it("a model with no queue-shaped endpoint left loads for drift, with every operation listed", () => {
    const [, after] = endpoints((d) => {
      for (const path of ["/fx/scenario/run", "/fx/scenario/other"]) {
        const item = (d.paths as Record<string, Json>)[path]!;
        item.put = item.post;
        delete item.post;
      }
    });
    const loaded = load(after);
    expect(loaded.endpoints).toEqual([]);
    expect(loaded.operations.map((o) => [o.endpoint, o.method])).toEqual([
      ["other", "PUT"],
      ["run", "PUT"],
    ]);
    expect(() => loadModelDocument(after, { model: "fx/scenario", file: "f.json" })).toThrow(
      /has no queue-shaped endpoint/,
    );
  });
});

describe("a shared component's change is listed for every endpoint and direction using it", () => {
  it("two endpoints, request and response: four changes", () => {
    const shared = (max: number): Json => ({ Shared: { type: "integer", maximum: max } });
    const ref = { $ref: "#/components/schemas/Shared" };
    const [before, after] = [model(ref, { components: shared(10) }), model(ref, { components: shared(5) })];
    for (const doc of [before, after])
      (doc.paths as Record<string, Json>)["/fx/scenario/other"] = structuredClone(
        (doc.paths as Record<string, Json>)["/fx/scenario/run"]!,
      );
    expect(changes(before, after).map((c) => [c.endpoint, c.direction, c.id, c.severity, c.field])).toEqual([
      ["other", "request", "request-property-max-decreased", "breaking", "/x"],
      ["other", "response", "response-property-max-decreased", "safe", "/x"],
      ["run", "request", "request-property-max-decreased", "breaking", "/x"],
      ["run", "response", "response-property-max-decreased", "safe", "/x"],
    ]);
  });
});

describe("equivalent rewrites report nothing", () => {
  const ITEM = { Item: { type: "object", properties: { n: { type: "integer", maximum: 3 } } } };
  const ref = { $ref: "#/components/schemas/Item" };
  /** the request body itself as given (instead of `{prompt, x}`) */
  const bodyDoc = (body: unknown): Json => {
    const doc = model(undefined, { components: { ...ITEM, Body: { type: "object", properties: { x: S } } } });
    const post = (doc.paths as Record<string, { post: Json }>)["/fx/scenario/run"]!.post;
    (post.requestBody as { content: Record<string, Json> }).content["application/json"]!.schema = body;
    return doc;
  };
  it.each([
    [
      "a property $ref wrapped as allOf [{$ref}]",
      model(ref, { components: ITEM }),
      model({ allOf: [ref] }, { components: ITEM }),
    ],
    [
      "a property $ref with a description, wrapped as allOf [{$ref}] beside it",
      model({ ...ref, description: "d" }, { components: ITEM }),
      model({ allOf: [ref], description: "d" }, { components: ITEM }),
    ],
    [
      "a request body $ref wrapped as allOf [{$ref}]",
      bodyDoc({ $ref: "#/components/schemas/Body" }),
      bodyDoc({ allOf: [{ $ref: "#/components/schemas/Body" }] }),
    ],
    ["a $ref and the same schema inline", model(ref, { components: ITEM }), model(ITEM.Item, { components: ITEM })],
    ["a single-member anyOf", model(S), model({ anyOf: [S] })],
    ["a single-member oneOf", model(S), model({ oneOf: [S] })],
    [
      "oneOf [X, null] and anyOf [X, null]",
      model({ anyOf: [S, { type: "null" }] }),
      model({ oneOf: [S, { type: "null" }] }),
    ],
    [
      'type [X, "null"] and anyOf [X, null]',
      model({ type: ["string", "null"] }),
      model({ anyOf: [S, { type: "null" }] }),
    ],
    [
      "a bound narrowed in the uri branch of 'a URI or any string'",
      model({ anyOf: [{ ...S, format: "uri", maxLength: 2000 }, S] }),
      model({ anyOf: [{ ...S, format: "uri", maxLength: 1000 }, S] }),
    ],
    // issue 29.4
    [
      "an anyOf alternative added that an existing one accepts all of",
      model({ anyOf: [S, I] }),
      model({ anyOf: [S, I, { ...S, maxLength: 5 }] }),
    ],
    [
      "an alternative added to a single schema that it accepts all of",
      model(S),
      model({ anyOf: [S, { ...S, maxLength: 5 }] }),
    ],
    ["an anyOf alternative added that duplicates one", model({ anyOf: [S, I] }), model({ anyOf: [S, I, S] })],
    [
      'patternProperties {".*": X} and additionalProperties X',
      model({ ...O, patternProperties: { ".*": I } }),
      model({ ...O, additionalProperties: I }),
    ],
    ["a nested anyOf repeating an alternative", model({ anyOf: [S, I] }), model({ anyOf: [{ anyOf: [S, I] }, S] })],
    [
      "an anyOf alternative removed that a remaining one accepts all of",
      model({ anyOf: [S, { ...S, maxLength: 5 }] }),
      model(S),
    ],
    [
      "an allOf member of title, description and examples only",
      model(S),
      model({ ...S, allOf: [{ title: "t", description: "d", examples: ["a"] }] }),
    ],
    ["uniqueItems false and no uniqueItems", model(A), model({ ...A, uniqueItems: false })],
    ["minLength 0 and no minLength", model(S), model({ ...S, minLength: 0 })],
    [
      "additionalProperties true, {} and none",
      model({ ...O, additionalProperties: true }),
      model({ ...O, additionalProperties: {} }),
    ],
    ['pattern "", .* and none', model({ ...S, pattern: "" }), model({ ...S, pattern: ".*" })],
    ["pattern ^.* and none", model({ ...S, pattern: "^.*" }), model(S)],
    // any pattern that matches the empty string at the start or at the end of every string
    ['pattern "^" and "$"', model({ ...S, pattern: "^" }), model({ ...S, pattern: "$" })],
    ["pattern \\S* and (?:)", model({ ...S, pattern: "\\S*" }), model({ ...S, pattern: "(?:)" })],
    ["pattern ^\\d* and none", model({ ...S, pattern: "^\\d*" }), model(S)],
    ["keys in another order", model({ type: "integer", maximum: 3 }), model({ maximum: 3, type: "integer" })],
    // issue 29.2: then/else apply only beside an if, and an if only beside one of them (2020-12, 10.2.2)
    ["an if without then or else added", model(I), model({ ...I, if: { minimum: 3 } })],
    ["a then without an if added", model(I), model({ ...I, then: { maximum: 3 } })],
    [
      "then and else without an if rewritten",
      model({ ...I, then: { maximum: 9 }, else: { minimum: 0 } }),
      model({ ...I, then: { maximum: 3 }, else: { minimum: 5 } }),
    ],
    [
      "an if rewritten once its then and else are gone",
      model({ ...I, if: { minimum: 10 } }),
      model({ ...I, if: { minimum: 5 } }),
    ],
  ])("%s", (_name, before, after) => {
    expect(changes(before, after)).toEqual([]);
  });
});

describe('patternProperties {".*": X} is additionalProperties X only when nothing else lists properties', () => {
  const PP = { ...O, patternProperties: { ".*": I } };
  const AP = { ...O, additionalProperties: I };
  it("read either way round: no change", () => {
    expect(changes(model(AP), model(PP))).toEqual([]);
    expect(changes(model(PP), model(AP))).toEqual([]);
  });
  it("a change of X under it is still found", () => {
    const found = changes(model(PP), model({ ...AP, additionalProperties: { ...I, maximum: 3 } }));
    expect(found.map((c) => [c.direction, c.id, c.severity])).toEqual([
      ["request", "request-property-max-set", "breaking"],
      ["response", "response-property-max-set", "safe"],
    ]);
  });
  it("beside properties it also applies to them: a change", () => {
    const props = { properties: { a: S } };
    expect(changes(model({ ...PP, ...props }), model({ ...AP, ...props }))).not.toEqual([]);
  });
});

describe("a request default added, changed or removed is behavior, and says why (issue 29.6, spec 1, 2.3)", () => {
  it.each([
    ["added", S, { ...S, default: "720p" }, "request-property-default-value-added"],
    ["changed", { ...S, default: "720p" }, { ...S, default: "1080p" }, "request-property-default-value-changed"],
    ["removed", { ...S, default: "720p" }, S, "request-property-default-value-removed"],
  ])("%s", (_name, before, after, id) => {
    const found = changes(model(before, { responseX: before }), model(after, { responseX: before }));
    expect(found.map((c) => [c.id, c.severity])).toEqual([[id, "behavior"]]);
    expect(found[0]!.text).toMatch(/payloads that omit it .*, which can change the output and what is billed$/);
  });
});
