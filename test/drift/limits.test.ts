/**
 * Schemas as large as they can be written, not as they usually are: bounds in the billions, shared
 * definitions that fan out, nesting past the walk's depth limit. The report must still come out
 * with every change in it. Exponential work would run into the test timeout; no wall-clock bound
 * is asserted (the machine's load is not the code's speed: `npm run bench` measures that).
 */
import { describe, expect, it } from "vitest";
import { classifyModel, diffModels } from "../../src/drift/index.js";
import { loadModelDocument, type ModelSchema } from "../../src/schema/index.js";

type Schema = Record<string, unknown>;

/** A one-endpoint model document with the given request body and definitions. */
function doc(input: Schema, defs: Record<string, Schema> = {}, output: Schema = { type: "object" }): unknown {
  return {
    openapi: "3.1.0",
    info: { title: "t", version: "1" },
    paths: {
      "/fx/model/run": {
        post: {
          requestBody: { content: { "application/json": { schema: input } } },
          responses: { "200": { content: { "application/json": { schema: output } } } },
        },
      },
    },
    components: { schemas: defs },
  };
}
const load = (d: unknown): ModelSchema => loadModelDocument(d, { model: "fx/model", file: "fixture" });
const changesOf = (before: unknown, after: unknown) => {
  const [b, a] = [load(before), load(after)];
  return classifyModel(diffModels(b, a), b, a);
};
const withProp = (prop: Schema): unknown =>
  doc({ type: "object", required: ["prompt"], properties: { prompt: { type: "string" }, value: prop } });

describe("examples are capped", () => {
  it("a maxLength of 2147483647 lowered to 1000 is reported, with no example (no RangeError)", () => {
    const changes = changesOf(
      withProp({ type: "string", maxLength: 2147483647 }),
      withProp({ type: "string", maxLength: 1000 }),
    );
    expect(changes.map((c) => [c.id, c.field, c.example])).toEqual([
      ["request-property-max-length-decreased", "/value", undefined],
    ]);
  });

  it("a maxItems of 1e8 lowered to 10 is reported at once, with no example", () => {
    const changes = changesOf(
      withProp({ type: "array", items: { type: "string" }, maxItems: 1e8 }),
      withProp({ type: "array", items: { type: "string" }, maxItems: 10 }),
    );
    expect(changes.map((c) => [c.id, c.example])).toEqual([["request-property-max-items-decreased", undefined]]);
  });

  it("a minLength of 1e9 in the schema a sample is drawn from gives no example", () => {
    const changes = changesOf(
      withProp({ type: "string", minLength: 1e9 }),
      withProp({ type: "string", minLength: 1e9, enum: ["a"] }),
    );
    expect(changes.map((c) => [c.id, c.example])).toEqual([["request-property-enum-set", undefined]]);
  });

  it("an example at the cap is still given", () => {
    const changes = changesOf(
      withProp({ type: "string", maxLength: 10_000 }),
      withProp({ type: "string", maxLength: 9_999 }),
    );
    expect(changes).toHaveLength(1);
    expect((changes[0]!.example as { value: string }).value).toHaveLength(10_000);
  });
});

/** D0 … D<depth>: each Di has properties a and b, both `$ref` D(i+1); the last one holds `leaf`. */
function fanOut(depth: number, leaf: Schema, required: string[] = []): unknown {
  const defs: Record<string, Schema> = {};
  for (let i = 0; i < depth; i++) {
    const next = { $ref: `#/components/schemas/D${i + 1}` };
    defs[`D${i}`] = { type: "object", required, properties: { a: next, b: next } };
  }
  defs[`D${depth}`] = { type: "object", properties: { leaf } };
  return doc({ $ref: "#/components/schemas/D0" }, defs);
}

describe("shared definitions are compared once", () => {
  it("40 levels of definitions each referenced twice: fast, the change reported once, at the first field", () => {
    const findings = diffModels(
      load(fanOut(40, { type: "integer", maximum: 10 })),
      load(fanOut(40, { type: "integer", maximum: 5 })),
    );
    expect(findings.map((f) => [f.kind, f.field.join("/"), f.before])).toEqual([
      ["request/upper-bound-lowered", [..."a".repeat(40), "leaf"].join("/"), "/$defs/D40/properties/leaf/maximum"],
    ]);
  });

  it("the same with every property required: the example is dropped, not built exponentially", () => {
    const [before, after] = [
      fanOut(40, { type: "integer", maximum: 10 }, ["a", "b"]),
      fanOut(40, { type: "integer", maximum: 5 }, ["a", "b"]),
    ];
    const changes = changesOf(before, after);
    expect(changes.map((c) => [c.id, c.example])).toEqual([["request-property-max-decreased", undefined]]);
  });

  it("a definition referenced by two properties is compared once: the change is reported at the first", () => {
    const shared = (max: number): unknown =>
      doc(
        {
          type: "object",
          properties: { x: { $ref: "#/components/schemas/S" }, y: { $ref: "#/components/schemas/S" } },
        },
        { S: { type: "object", properties: { n: { type: "integer", maximum: max }, t: { type: "string" } } } },
      );
    const findings = diffModels(load(shared(10)), load(shared(5)));
    expect(findings.map((f) => [f.field.join("/"), f.before])).toEqual([["x/n", "/$defs/S/properties/n/maximum"]]);
  });
});

/** `levels` objects nested one in the other under property `p`; the innermost holds `leaf`. */
function nested(levels: number, leaf: Schema): unknown {
  let schema: Schema = { type: "object", properties: { leaf } };
  for (let i = 0; i < levels; i++) schema = { type: "object", properties: { p: schema } };
  return doc(schema);
}

describe("past the depth limit", () => {
  it("a change nested deeper than the walk goes is reported as unclassified, never dropped", () => {
    const changes = changesOf(
      nested(80, { type: "integer", maximum: 10 }),
      nested(80, { type: "integer", maximum: 5 }),
    );
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({
      id: "request-schema-too-deep-to-compare",
      severity: "unclassified",
      direction: "request",
    });
    expect(changes[0]!.field).toMatch(/^(\/p){60,}$/);
    expect(changes[0]!.text).toMatch(/nested more than 64 levels deep/);
  });

  it("identical schemas past the depth limit are no change", () => {
    const same = nested(80, { type: "integer", maximum: 10 });
    expect(diffModels(load(same), load(structuredClone(same)))).toEqual([]);
  });

  it("a change in a definition referenced past the depth limit is reported", () => {
    const withDef = (max: number): unknown => {
      let schema: Schema = { type: "object", properties: { leaf: { $ref: "#/components/schemas/L" } } };
      for (let i = 0; i < 80; i++) schema = { type: "object", properties: { p: schema } };
      return doc(schema, { L: { type: "integer", maximum: max } });
    };
    expect(diffModels(load(withDef(10)), load(withDef(5))).map((f) => f.kind)).toEqual(["request/too-deep"]);
    expect(diffModels(load(withDef(10)), load(withDef(10)))).toEqual([]);
  });
});
