/**
 * The examples' shortcut (src/drift/reject.ts): "the rejecting side surely rejects this payload",
 * decided from the subschemas at the change's location. It must never say so of a payload the
 * whole schema accepts (an example would then be wrong), checked here against Ajv on the whole
 * schema: hand-written shapes, then a sweep over every row fixture's schemas with many payloads.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { AnySchema, ValidateFunction } from "ajv";
import { describe, expect, it } from "vitest";
import { surelyRejects } from "../../src/drift/reject.js";
import { sampleValue, type Leaf } from "../../src/drift/sample.js";
import { createAjv } from "../../src/rules/index.js";
import { loadModelDocument, type JsonSchemaObject } from "../../src/schema/index.js";

const ajv = createAjv({ optimize: false });
const compiled = new WeakMap<JsonSchemaObject, ValidateFunction | null>();
const validatorOf = (schema: JsonSchemaObject): ValidateFunction | null => {
  if (!compiled.has(schema)) {
    try {
      compiled.set(schema, ajv.compile({ ...schema } as AnySchema));
    } catch {
      compiled.set(schema, null);
    }
  }
  return compiled.get(schema)!;
};
const shared = createAjv({ optimize: false });
const whole = (schema: JsonSchemaObject): ValidateFunction => {
  try {
    return shared.compile(schema as AnySchema);
  } catch {
    // an `$id` met in another fixture's schema
    return createAjv({ optimize: false }).compile(schema as AnySchema);
  }
};
const tokens = (field: string): string[] => (field === "" ? [] : field.slice(1).split("/"));
const sure = (schema: JsonSchemaObject, payload: unknown, field: string, leaf: Leaf = { value: 0 }): boolean =>
  surelyRejects({ schema }, payload, tokens(field), leaf, validatorOf);

describe("surelyRejects, shape by shape", () => {
  const defs = {
    $defs: {
      A: { type: "string", enum: ["x"] },
      Item: { type: "object", properties: { n: { type: "integer", maximum: 3 } } },
      Chain: { $ref: "#/$defs/A" },
    },
  };

  it("a leaf reached through properties, allOf and $ref rejects what it rejects, and accepts the rest unknown", () => {
    const schema = { type: "object", properties: { a: { allOf: [{ $ref: "#/$defs/Chain" }] } }, ...defs };
    expect(sure(schema, { a: "y" }, "/a")).toBe(true);
    expect(whole(schema)({ a: "y" })).toBe(false);
    expect(sure(schema, { a: "x" }, "/a")).toBe(false);
  });

  it("{unlisted} checks the properties an object does not list against its additionalProperties (item 4)", () => {
    const schema = {
      type: "object",
      properties: { a: { type: "string" } },
      additionalProperties: { $ref: "#/$defs/A" },
      ...defs,
    };
    expect(sure(schema, { a: "y", b: "y" }, "/{unlisted}")).toBe(true);
    expect(whole(schema)({ a: "y", b: "y" })).toBe(false);
    // a listed property is not its business; no unlisted property: unknown
    expect(sure(schema, { a: 5, b: "x" }, "/{unlisted}")).toBe(false);
    expect(sure(schema, { a: "y" }, "/{unlisted}")).toBe(false);
    // under patternProperties, additionalProperties may not apply: left to the whole schema
    const patterned = { ...schema, patternProperties: { "^b": true } };
    expect(sure(patterned, { b: "y" }, "/{unlisted}")).toBe(false);
    expect(whole(patterned)({ b: "y" })).toBe(true);
  });

  it("every item of an array is checked, through a $ref to a definition", () => {
    const schema = { properties: { list: { type: "array", items: { $ref: "#/$defs/Item" } } }, ...defs };
    expect(sure(schema, { list: [{ n: 1 }, { n: 5 }] }, "/list/*/n")).toBe(true);
    expect(sure(schema, { list: [{ n: 1 }, { n: 2 }] }, "/list/*/n")).toBe(false);
  });

  it("items after prefixItems do not apply to the first items: not known", () => {
    const schema = { properties: { list: { prefixItems: [{}], items: { maximum: 3 } } } };
    expect(whole(schema)({ list: [5] })).toBe(true);
    expect(sure(schema, { list: [5] }, "/list/*")).toBe(false);
  });

  it("an omitted property is rejected where a required list names it", () => {
    const schema = { type: "object", required: ["a"], properties: { b: { $ref: "#/$defs/Item" } }, ...defs };
    expect(sure(schema, { b: {} }, "/a", { omit: true })).toBe(true);
    expect(sure(schema, { a: 1 }, "/a", { omit: true })).toBe(false);
    expect(sure({ type: "object" }, {}, "/a", { omit: true })).toBe(false);
    // an omitted array item is a matter of minItems: left to the whole schema
    expect(sure({ properties: { l: { minItems: 1 } } }, { l: [] }, "/l/*", { omit: true })).toBe(false);
  });

  it("what only the whole schema decides is not known: anyOf on the way, __proto__, a reference to the root, a value absent", () => {
    const nullable = { properties: { o: { anyOf: [{ properties: { x: { maximum: 1 } } }, { type: "null" }] } } };
    expect(whole(nullable)({ o: { x: 5 } })).toBe(false);
    expect(sure(nullable, { o: { x: 5 } }, "/o/x")).toBe(false);
    const proto = JSON.parse('{"properties": {"__proto__": {"type": "string"}}}');
    expect(sure(proto, JSON.parse('{"__proto__": 1}'), "/__proto__")).toBe(false);
    const recursive = { properties: { child: { $ref: "#" }, n: { maximum: 1 } } };
    expect(sure(recursive, { child: { n: 5 } }, "/child")).toBe(false);
    expect(sure({ properties: { a: { maximum: 1 } } }, { b: 5 }, "/a")).toBe(false);
    expect(sure({ properties: { a: false } }, { a: 1 }, "/a")).toBe(true);
  });
});

/** `payload` with `value` (or nothing) at `path`, creating objects and arrays on the way. */
function setAt(payload: unknown, path: readonly string[], leaf: Leaf): unknown {
  if (path.length === 0) return "value" in leaf ? leaf.value : undefined;
  const [head, ...rest] = path as [string, ...string[]];
  if (head === "*") {
    const items = Array.isArray(payload) ? [...payload] : [];
    const next = setAt(items[0], rest, leaf);
    if (next === undefined) items.splice(0, 1);
    else items[0] = next;
    return items;
  }
  const object =
    typeof payload === "object" && payload !== null && !Array.isArray(payload)
      ? { ...(payload as Record<string, unknown>) }
      : {};
  const next = setAt(object[head], rest, leaf);
  if (next === undefined) delete object[head];
  else object[head] = next;
  return object;
}

describe("surelyRejects never rejects what the whole schema accepts (every row fixture, many payloads)", () => {
  const ROWS = join(import.meta.dirname, "../fixtures/drift/rows");
  const VALUES: unknown[] = [null, "", "b", "x".repeat(40), 0, 2.5, 5, -1, 1e9, true, [1, 1], {}];

  it("holds for each fixture's request and response schemas, both sides", () => {
    let checked = 0;
    let rejected = 0;
    const wrong: unknown[] = [];
    for (const row of readdirSync(ROWS)) {
      const dir = join(ROWS, row);
      const sides = ["before", "after"].map((side) =>
        loadModelDocument(
          JSON.parse(readFileSync(join(dir, `${side}.json`), "utf8")),
          { model: "fx/model", file: side },
          { lenient: true },
        ),
      );
      const want = JSON.parse(readFileSync(join(dir, "want.json"), "utf8")) as Array<{
        field?: string;
        example?: unknown;
      }>;
      const fields = [
        ...new Set(["", "/x", "/prompt", ...want.flatMap((c) => (c.field === undefined ? [] : [c.field]))]),
      ];
      const schemas = sides.flatMap((m) => m.endpoints.flatMap((e) => [e.input, e.output]));
      const payloads = [
        ...want.flatMap((c) => (c.example === undefined ? [] : [c.example])),
        ...schemas.map((s) => sampleValue(s, { schema: s })),
      ];
      for (const schema of schemas) {
        const validate = whole(schema);
        for (const base of payloads)
          for (const field of fields)
            for (const leaf of [{ omit: true } as Leaf, ...VALUES.map((value) => ({ value }))]) {
              const payload = setAt(base, tokens(field), leaf);
              checked++;
              if (!surelyRejects({ schema }, payload, tokens(field), leaf, validatorOf)) continue;
              rejected++;
              if (validate(payload)) wrong.push({ row, field, payload });
            }
      }
    }
    expect(wrong).toEqual([]);
    // the sweep is not vacuous: the shortcut decides many of them
    expect(checked).toBeGreaterThan(10_000);
    expect(rejected).toBeGreaterThan(checked / 10);
  });
});
