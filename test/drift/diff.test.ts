/**
 * Normalization before the diff: `$ref` versus the same schema inline and every form of
 * nullability are no change; a recursive schema terminates; the accept file silences by model,
 * id and either pointer, and expired or unused entries warn.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  AcceptFileError,
  applyAccepted,
  classifyModel,
  diffModels,
  parseAcceptEntries,
  type Change,
} from "../../src/drift/index.js";
import { loadModelDocument, type ModelSchema } from "../../src/schema/index.js";

const ROOT = join(import.meta.dirname, "../..");
const read = (path: string): unknown => JSON.parse(readFileSync(join(ROOT, path), "utf8"));
const load = (model: string, doc: unknown): ModelSchema => loadModelDocument(doc, { model, file: "fixture" });

describe("no change after normalization", () => {
  it.each([
    [
      "every $ref inlined, keys reordered",
      "example/model-a",
      "schemas-cache/example/model-a/latest.json",
      "test/fixtures/drift/equivalent/model-a.inlined.json",
    ],
    [
      "OpenAPI 3.0 nullable: true versus 3.1 anyOf null",
      "example/model-b",
      "schemas-cache/example/model-b/latest.json",
      "test/fixtures/schema/model-b.openapi30.json",
    ],
    [
      'type: [X, "null"] versus anyOf [X, {type: null}]',
      "example/model-b",
      "schemas-cache/example/model-b/latest.json",
      "test/fixtures/drift/equivalent/model-b.type-array-null.json",
    ],
  ])("%s", (_name, model, before, after) => {
    expect(diffModels(load(model, read(before)), load(model, read(after)))).toEqual([]);
  });
});

describe("every form of a null-only branch is the same nullability", () => {
  const withX = (x: unknown): unknown => ({
    openapi: "3.1.0",
    info: { title: "t", version: "1" },
    paths: {
      "/fx/null/run": {
        post: {
          requestBody: {
            content: { "application/json": { schema: { type: "object", required: ["x"], properties: { x } } } },
          },
          responses: { "200": { content: { "application/json": { schema: { type: "object", properties: { x } } } } } },
        },
      },
    },
  });
  const AB = { type: "string", enum: ["a", "b"] };
  const base = withX({ anyOf: [AB, { type: "null" }] });
  it.each([
    ["enum: [null] as the null branch", { anyOf: [AB, { enum: [null] }] }],
    ["the null branch first", { anyOf: [{ type: "null" }, AB] }],
    ["the null branch in a nested anyOf", { anyOf: [{ anyOf: [AB, { enum: [null] }] }] }],
    ["null among three alternatives", { anyOf: [AB, { type: "null" }, { type: "integer" }] }, ["any-of-added"]],
    ['type: ["string", "null"] with null in the enum', { type: ["string", "null"], enum: ["a", "b", null] }],
    ["const: null as the null branch", { anyOf: [AB, { const: null }] }],
    ["a null branch with another constraint is not null-only", { anyOf: [AB, { type: "null", minimum: 1 }] }, null],
  ])("%s", (_name, x, want: string[] | null = []) => {
    const found = diffModels(load("fx/null", base), load("fx/null", withX(x)));
    if (want === null) expect(found.map((f) => f.kind)).toContain("request/became-not-nullable");
    else expect([...new Set(found.map((f) => f.kind.split("/")[1]))]).toEqual(want);
  });
});

describe("walking the schemas", () => {
  const doc = (leafMax: number): unknown => ({
    openapi: "3.1.0",
    info: { title: "t", version: "1" },
    paths: {
      "/fx/tree/run": {
        post: {
          requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/Node" } } } },
          responses: { "200": { content: { "application/json": { schema: { type: "object" } } } } },
        },
      },
    },
    components: {
      schemas: {
        Node: {
          type: "object",
          properties: {
            size: { type: "integer", maximum: leafMax },
            children: { type: "array", items: { $ref: "#/components/schemas/Node" } },
          },
        },
      },
    },
  });

  it("terminates on a recursive schema and reports the change once per place reached", () => {
    const changes = classifyModel(
      diffModels(load("fx/tree", doc(10)), load("fx/tree", doc(5))),
      load("fx/tree", doc(10)),
      load("fx/tree", doc(5)),
    );
    expect(changes.map((c) => [c.id, c.field, c.pointer.before])).toEqual([
      ["request-property-max-decreased", "/size", "/properties/size/maximum"],
      // the root is inlined by the loader; the recursion goes through $defs
      ["request-property-max-decreased", "/children/*/size", "/$defs/Node/properties/size/maximum"],
    ]);
    expect(changes[0]!.example).toEqual({ size: 10 });
  });

  it("names changes inside shared definitions by the field that reaches them", () => {
    const before = read("schemas-cache/example/model-a/latest.json") as {
      components: { schemas: Record<string, { properties: Record<string, Record<string, unknown>> }> };
    };
    const after = structuredClone(before);
    // 100 frames: below the 120 of the default 5 s video, so the snapshot (with its frame_index
    // rules, which follow the schema's shape, spec 2.2) accepts a payload the source rejects
    after.components.schemas.Keyframe!.properties.frame_index!.maximum = 100;
    const [b, a] = [load("example/model-a", before), load("example/model-a", after)];
    const changes = classifyModel(diffModels(b, a), b, a);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({
      id: "request-property-max-set",
      endpoint: "keyframes-to-video",
      field: "/keyframes/*/frame_index",
      pointer: {
        before: "/$defs/Keyframe/properties/frame_index",
        after: "/$defs/Keyframe/properties/frame_index/maximum",
      },
      text: "keyframes[].frame_index: new maximum 100",
    });
    expect(changes[0]!.example).toEqual({
      prompt: "…",
      keyframes: [{ image_url: "https://example.com/input.png", frame_index: 101 }],
    });
  });

  it("gives no example where the snapshot's cross-field rules already reject every payload the source rejects", () => {
    const before = read("schemas-cache/example/model-a/latest.json") as {
      components: { schemas: Record<string, { properties: Record<string, Record<string, unknown>> }> };
    };
    const after = structuredClone(before);
    // frame_index <= duration × 24 <= 480 already (spec 2.2, duration at most 20)
    after.components.schemas.Keyframe!.properties.frame_index!.maximum = 480;
    const [b, a] = [load("example/model-a", before), load("example/model-a", after)];
    const changes = classifyModel(diffModels(b, a), b, a);
    expect(changes.map((c) => [c.id, c.example])).toEqual([["request-property-max-set", undefined]]);
  });
});

describe("accept file", () => {
  const change = (over: Partial<Change> = {}): Change => ({
    id: "request-property-enum-value-removed",
    severity: "breaking",
    model: "example/model-a",
    endpoint: "text-to-video",
    direction: "request",
    pointer: { before: "/properties/aspect_ratio/enum/2", after: "/properties/aspect_ratio/enum" },
    text: 'aspect_ratio: "2:1" is no longer accepted',
    fingerprint: "0123456789abcdef",
    ...over,
  });
  const entry = {
    model: "example/model-a",
    id: "request-property-enum-value-removed",
    pointer: "/properties/aspect_ratio/enum/2",
    reason: "we never send 2:1",
  };

  it.each([
    ["the before pointer", entry, 1],
    ["the after pointer", { ...entry, pointer: "/properties/aspect_ratio/enum" }, 1],
    ["the endpoint when given", { ...entry, endpoint: "text-to-video" }, 1],
    ["another endpoint", { ...entry, endpoint: "keyframes-to-video" }, 0],
    ["another model", { ...entry, model: "example/model-b" }, 0],
    ["another id", { ...entry, id: "request-property-removed" }, 0],
    ["an expiry in the future", { ...entry, expires: "2999-12-31" }, 1],
    ["an expiry today (valid through the day)", { ...entry, expires: "2026-06-01" }, 1],
  ])("matches by %s", (_name, e, silenced) => {
    const out = applyAccepted([change()], [e], "2026-06-01", ".vsk-drift-accept.json");
    expect(out.accepted).toHaveLength(silenced);
    expect(out.changes).toHaveLength(1 - silenced);
    if (silenced) expect(out.accepted[0]!.accepted.reason).toBe("we never send 2:1");
  });

  it("an expired entry warns and stops silencing; an unused one warns", () => {
    const out = applyAccepted(
      [change()],
      [
        { ...entry, expires: "2026-01-31" },
        { ...entry, id: "request-property-removed" },
      ],
      "2026-06-01",
      ".vsk-drift-accept.json",
    );
    expect(out.changes).toHaveLength(1);
    expect(out.warnings).toEqual([
      expect.stringMatching(/^\.vsk-drift-accept\.json at \/accept\/0: expired on 2026-01-31 .*renew or remove/),
      expect.stringMatching(/^\.vsk-drift-accept\.json at \/accept\/1: matches no change/),
    ]);
  });

  it.each([
    [[], "/: expected"],
    [{ accept: [{ ...entry, reason: "" }] }, "/accept/0/reason"],
    [{ accept: [{ ...entry, pointer: "properties" }] }, "/accept/0/pointer"],
    [{ accept: [{ ...entry, expires: "31.12.2026" }] }, "/accept/0/expires"],
    [{ accept: [{ ...entry, note: "x" }] }, "/accept/0/note: unknown key"],
  ])("a malformed file names the pointer (%#)", (raw, where) => {
    expect(() => parseAcceptEntries(raw, "f.json")).toThrow(AcceptFileError);
    expect(() => parseAcceptEntries(raw, "f.json")).toThrow(where);
  });
});
