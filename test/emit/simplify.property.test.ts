import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createAjv, simplifySchema } from "../../src/emit/index.js";
import { normalizeNullable, transformSchema, type JsonSchemaObject } from "../../src/schema/index.js";

// The JSON Schema Test Suite never triggers the rewrites (no suite schema changes under them),
// so this property test does: random schemas built from the shapes the rewrites touch, checked
// against plain Ajv on random values. A rewrite may change speed, never an answer.

const typed = fc.constantFrom<JsonSchemaObject>(
  { type: "string" },
  { type: "string", format: "uri", minLength: 1, maxLength: 20 },
  { type: "string", pattern: "^a" },
  { type: "integer" },
  { type: "integer", minimum: 2, maximum: 30 },
  { type: "number", multipleOf: 0.5 },
  { type: "null" },
  { type: "array", maxItems: 2 },
  { type: "object", required: ["a"] },
  { type: "boolean" },
  { const: "x" },
  { enum: [1, "a", null] },
  { not: { type: "string" } },
);
const branch: fc.Arbitrary<JsonSchemaObject> = fc.oneof(
  typed,
  fc.array(typed, { minLength: 1, maxLength: 3 }).map((anyOf) => ({ anyOf })),
);
const schema: fc.Arbitrary<JsonSchemaObject> = fc
  .record({
    anyOf: fc.array(branch, { minLength: 1, maxLength: 4 }),
    description: fc.constant("d"),
  })
  .chain((s) =>
    fc.oneof(
      fc.constant<JsonSchemaObject>(s),
      fc.constant<JsonSchemaObject>({ type: "object", properties: { p: s }, required: ["p"] }),
      fc.constant<JsonSchemaObject>({ type: "array", items: s }),
    ),
  );
const nullableType = fc
  .record({
    type: fc.constantFrom(["string", "null"], ["integer", "null"], ["null", "array"], ["string", "integer", "null"]),
    minimum: fc.constantFrom(undefined, 3),
    maxLength: fc.constantFrom(undefined, 2),
    maxItems: fc.constantFrom(undefined, 1),
    enum: fc.constantFrom(undefined, ["a", 5, null]),
    default: fc.constantFrom(undefined, "a"),
  })
  .map((s) => Object.fromEntries(Object.entries(s).filter(([, v]) => v !== undefined)) as JsonSchemaObject);

const value = fc.oneof(
  fc.constantFrom(
    "",
    "a",
    "ab",
    "https://x.io/a?b=c",
    "not a uri",
    "x",
    0,
    1,
    2,
    2.5,
    3,
    30,
    31,
    -1,
    null,
    true,
    [],
    [1],
    [1, 2, 3],
    {},
    { a: 1 },
  ),
  fc.jsonValue({ maxDepth: 2 }),
);
const wrapped = (v: unknown) => fc.constantFrom(v, { p: v }, [v]);

describe("schema rewrites keep JSON Schema's meaning (property, against plain Ajv)", () => {
  it("simplifySchema accepts exactly what the original accepts", () => {
    const ajv = createAjv();
    fc.assert(
      fc.property(schema, value.chain(wrapped), (s, data) => {
        const original = ajv.compile(s);
        const simplified = ajv.compile(simplifySchema(s));
        expect(simplified(data)).toBe(original(data));
      }),
      { numRuns: 400 },
    );
  });

  it("normalizeNullable (type: [T, 'null']) accepts exactly what the original accepts", () => {
    const ajv = createAjv();
    fc.assert(
      fc.property(nullableType, value, (s, data) => {
        const normalized = transformSchema(s, (node) => normalizeNullable(node, "openapi-3.1"));
        expect(ajv.compile(normalized as JsonSchemaObject)(data)).toBe(ajv.compile(s)(data));
      }),
      { numRuns: 400 },
    );
  });

  it("simplification actually happens on the spec's URI-or-any-string shape", () => {
    const s = {
      anyOf: [{ type: "string", format: "uri", minLength: 1, maxLength: 2083 }, { type: "string" }],
      description: "d",
    };
    expect(simplifySchema(s)).toEqual({ type: "string", description: "d" });
  });
});
