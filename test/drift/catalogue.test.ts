/**
 * The change catalogue (src/drift/table/): one typed entry per change id, the committed
 * docs/drift-changes.md generated from it, and every id the differ can produce in it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  CHANGE_CATALOGUE,
  CHANGE_KINDS,
  changeCataloguePage,
  classifyModel,
  diffModels,
} from "../../src/drift/index.js";
import { loadModelDocument } from "../../src/schema/index.js";

const ROOT = join(import.meta.dirname, "../..");

describe("the change catalogue", () => {
  it("is what docs/drift-changes.md lists (regenerate: npm run build && node scripts/drift-changes.mjs)", () => {
    expect(readFileSync(join(ROOT, "docs/drift-changes.md"), "utf8")).toBe(changeCataloguePage());
  });

  it("has one entry per id, with its direction in the id, and an entry for every row", () => {
    const ids = CHANGE_CATALOGUE.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const e of CHANGE_CATALOGUE) {
      expect(e.id).toMatch(e.direction === "endpoint" ? /^endpoint-/ : new RegExp(`(^|-)${e.direction}-`));
      expect(e.id).not.toMatch(/[{}]/);
      expect(e.description).not.toMatch(/[{}]/);
    }
    expect(new Set(CHANGE_CATALOGUE.map((e) => e.kind))).toEqual(new Set(CHANGE_KINDS.map((r) => r.kind)));
  });

  it("expects an example for every breaking request change", () => {
    const without = CHANGE_CATALOGUE.filter(
      (e) => e.direction === "request" && e.severity === "breaking" && !e.example,
    );
    expect(without.map((e) => e.id)).toEqual([]);
  });
});

describe("every id the differ can produce is in the catalogue", () => {
  const origin = { model: "fx/cat", file: "cat.json" };
  const doc = (x: unknown): unknown => ({
    openapi: "3.1.0",
    info: { title: "t", version: "1" },
    paths: {
      "/fx/cat/run": {
        post: {
          requestBody: { content: { "application/json": { schema: { type: "object", properties: { x } } } } },
          responses: { "200": { content: { "application/json": { schema: { type: "object", properties: { x } } } } } },
        },
      },
    },
  });
  // every JSON Schema 2020-12 keyword, OpenAPI's own, an extension: each set, changed and removed
  const KEYWORDS: Array<[string, unknown, unknown]> = [
    ...["maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum", "multipleOf"].map(
      (k) => [k, 2, 4] as [string, unknown, unknown],
    ),
    ...["maxLength", "minLength", "maxItems", "minItems", "maxProperties", "minProperties"].map(
      (k) => [k, 1, 3] as [string, unknown, unknown],
    ),
    ...["minContains", "maxContains"].map((k) => [k, 1, 2] as [string, unknown, unknown]),
    ["format", "uri", "email"],
    ["pattern", "^a", "^b"],
    ["uniqueItems", true, false],
    ["enum", ["a"], ["b"]],
    ["const", "a", "b"],
    ["type", "string", "integer"],
    ["required", ["a"], ["b"]],
    ["properties", { a: { type: "string" } }, { a: { type: "integer" } }],
    ["additionalProperties", false, { type: "string" }],
    ["patternProperties", { "^a": {} }, { "^b": {} }],
    ["propertyNames", { maxLength: 1 }, { maxLength: 2 }],
    ["dependentRequired", { a: ["b"] }, { a: ["c"] }],
    ["dependentSchemas", { a: {} }, { b: {} }],
    ["items", { type: "string" }, { type: "integer" }],
    ["prefixItems", [{}], [{}, {}]],
    ["contains", { type: "string" }, { type: "integer" }],
    ["unevaluatedProperties", false, true],
    ["unevaluatedItems", false, true],
    ["allOf", [{ type: "string" }, { maxLength: 3 }], [{ type: "string" }, { maxLength: 4 }]],
    ["anyOf", [{ type: "string" }, { type: "integer" }], [{ type: "string" }]],
    ["oneOf", [{ minimum: 1 }, { maximum: 3 }], [{ minimum: 2 }, { maximum: 3 }]],
    ["not", { const: 1 }, { const: 2 }],
    ["if", { const: 1 }, { const: 2 }],
    ["then", { const: 1 }, { const: 2 }],
    ["else", { const: 1 }, { const: 2 }],
    ["contentEncoding", "base64", "base32"],
    ["contentMediaType", "image/png", "image/jpeg"],
    ["contentSchema", { type: "string" }, { type: "integer" }],
    ["$dynamicRef", "#a", "#b"],
    ["title", "a", "b"],
    ["description", "a", "b"],
    ["default", "a", "b"],
    ["examples", ["a"], ["b"]],
    ["deprecated", true, false],
    ["readOnly", true, false],
    ["writeOnly", true, false],
    ["$comment", "a", "b"],
    ["discriminator", { propertyName: "a" }, { propertyName: "b" }],
    ["xml", { name: "a" }, { name: "b" }],
    ["x-extension", 1, 2],
  ];
  it.each(KEYWORDS)("%s", (keyword, one, two) => {
    const sides = [{}, { [keyword]: one }, { [keyword]: two }].map((x) => loadModelDocument(doc(x), origin));
    for (const [b, a] of [
      [0, 1],
      [1, 2],
      [2, 0],
    ] as const) {
      const [before, after] = [sides[b]!, sides[a]!];
      // classify throws for an id the catalogue does not have
      const changes = classifyModel(diffModels(before, after), before, after);
      for (const c of changes) expect(CHANGE_CATALOGUE.map((e) => e.id)).toContain(c.id);
      // (the rows test classifies every row fixture the same way)
    }
  });
});
