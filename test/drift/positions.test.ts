/**
 * Nothing dropped (issue 29.1, docs/drift.md "What is compared"): every keyword position that
 * holds a subschema, written inline and behind a `$ref`, with a type changed inside it (integer →
 * string), gives at least one finding in the request and in the response. A `$ref` written alike
 * on both sides whose definition changed used to give none.
 */
import { describe, expect, it } from "vitest";
import { classifyModel, diffModels } from "../../src/drift/index.js";
import { loadModelDocument, type ModelSchema } from "../../src/schema/index.js";

/** Each position, as a schema of field `x` holding `inner` there. */
const POSITIONS: Record<string, (inner: unknown) => Record<string, unknown>> = {
  properties: (s) => ({ type: "object", properties: { y: s } }),
  items: (s) => ({ type: "array", items: s }),
  additionalProperties: (s) => ({ type: "object", additionalProperties: s }),
  prefixItems: (s) => ({ type: "array", prefixItems: [s] }),
  contains: (s) => ({ type: "array", contains: s }),
  patternProperties: (s) => ({ type: "object", patternProperties: { "^a": s } }),
  propertyNames: (s) => ({ type: "object", propertyNames: s }),
  dependentSchemas: (s) => ({ type: "object", dependentSchemas: { y: s } }),
  if: (s) => ({ if: s, then: { minimum: 1 } }),
  then: (s) => ({ if: { type: "integer" }, then: s }),
  else: (s) => ({ if: { type: "integer" }, else: s }),
  not: (s) => ({ not: s }),
  allOf: (s) => ({ allOf: [s, { title: "t" }, { description: "d" }] }),
  anyOf: (s) => ({ anyOf: [s, { type: "boolean" }] }),
  oneOf: (s) => ({ oneOf: [s, { type: "number" }] }),
  unevaluatedProperties: (s) => ({ type: "object", unevaluatedProperties: s }),
  unevaluatedItems: (s) => ({ type: "array", unevaluatedItems: s }),
  contentSchema: (s) => ({ type: "string", contentMediaType: "application/json", contentSchema: s }),
};

const FORMS = {
  inline: (type: string) => ({ inner: { type }, defs: {} }),
  $ref: (type: string) => ({ inner: { $ref: "#/components/schemas/D" }, defs: { D: { type } } }),
};

function model(direction: "request" | "response", x: unknown, defs: Record<string, unknown>): ModelSchema {
  const body = (with_x: boolean) => ({
    type: "object",
    required: ["p"],
    properties: { p: { type: "string" }, ...(with_x ? { x } : {}) },
  });
  const doc = {
    openapi: "3.1.0",
    info: { title: "positions", version: "1" },
    paths: {
      "/fx/model/run": {
        post: {
          requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/Input" } } } },
          responses: {
            200: {
              description: "output",
              content: { "application/json": { schema: { $ref: "#/components/schemas/Output" } } },
            },
          },
        },
      },
    },
    components: {
      schemas: { ...defs, Input: body(direction === "request"), Output: body(direction === "response") },
    },
  };
  return loadModelDocument(doc, { model: "fx/model", file: "positions.json" }, { lenient: true });
}

const CASES = Object.keys(POSITIONS).flatMap((position) =>
  (["inline", "$ref"] as const).flatMap((form) =>
    (["request", "response"] as const).map((direction) => [position, form, direction] as const),
  ),
);

describe("every keyword position: a change inside is never dropped", () => {
  it.each(CASES)("%s, %s, %s", (position, form, direction) => {
    const side = (type: string): ModelSchema => {
      const { inner, defs } = FORMS[form](type);
      return model(direction, POSITIONS[position]!(inner), defs);
    };
    const before = side("integer");
    const after = side("string");
    const findings = diffModels(before, after);
    expect(findings.length, JSON.stringify(findings)).toBeGreaterThan(0);
    expect(findings.every((f) => f.direction === direction)).toBe(true);
    const changes = classifyModel(findings, before, after);
    expect(changes.length).toBe(findings.length);
    // the same schema on both sides is no change, in every position and form
    expect(diffModels(before, side("integer"))).toEqual([]);
  });
});

describe("a $ref'd additionalProperties schema whose type changed (issue 29.1)", () => {
  it.each(["inline", "$ref"] as const)("%s: breaking both ways, with an example for the request", (form) => {
    const changes = (direction: "request" | "response") => {
      const side = (type: string): ModelSchema => {
        const { inner, defs } = FORMS[form](type);
        return model(direction, POSITIONS.additionalProperties!(inner), defs);
      };
      const [before, after] = [side("integer"), side("string")];
      return classifyModel(diffModels(before, after), before, after);
    };
    const request = changes("request");
    expect(request.map(({ id, severity, field, example }) => ({ id, severity, field, example }))).toEqual([
      {
        id: "request-property-type-changed",
        severity: "breaking",
        field: "/x/{unlisted}",
        example: { p: "…", x: { unlisted_property: 0 } },
      },
    ]);
    expect(request[0]!.text).toMatch(/^x\.\{unlisted\}: type changed/);
    expect(changes("response").map(({ id, severity }) => [id, severity])).toEqual([
      ["response-property-type-changed", "breaking"],
    ]);
  });
});
