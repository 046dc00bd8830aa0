import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEFAULT_MODELS } from "../../src/config/index.js";
import {
  loadModelDocument,
  nullableInner,
  parseModelText,
  SchemaLoadError,
  type EndpointModel,
  type JsonSchemaObject,
} from "../../src/schema/index.js";
import { readSnapshot } from "../../src/snapshot/index.js";

const snapshot = readSnapshot("schemas-cache", DEFAULT_MODELS);
const endpoints = new Map<string, EndpointModel>(
  snapshot.flatMap((m) => m.schema.endpoints.map((e) => [e.key, e] as const)),
);
const prop = (key: string, name: string) =>
  (endpoints.get(key)!.input.properties as Record<string, JsonSchemaObject>)[name]!;

describe("the committed snapshot (spec 2, 4.2-4.5, 8)", () => {
  it("loads the three models into exactly four endpoints with their queue paths", () => {
    expect([...endpoints.keys()].sort()).toEqual([
      "example/model-a/keyframes-to-video",
      "example/model-a/text-to-video",
      "example/model-b/reference-to-video",
      "example/model-c/text-to-video",
    ]);
    expect(endpoints.get("example/model-a/keyframes-to-video")!.queuePath).toBe(
      "/v1/queue/example/model-a/keyframes-to-video",
    );
  });

  // [endpoint, field, required?, default, type keywords expected on the field (or its non-null branch)]
  const table: Array<[string, string, boolean, unknown, JsonSchemaObject]> = [
    ["example/model-a/text-to-video", "prompt", true, undefined, { type: "string" }],
    [
      "example/model-a/text-to-video",
      "aspect_ratio",
      false,
      "auto",
      { enum: ["auto", "21:9", "2:1", "16:9", "4:3", "1:1", "3:4", "9:16"] },
    ],
    ["example/model-a/text-to-video", "generate_audio", false, true, { type: "boolean" }],
    ["example/model-a/text-to-video", "resolution", false, "720p", { enum: ["720p", "1080p"] }],
    ["example/model-a/keyframes-to-video", "keyframes", true, undefined, { type: "array" }],
    ["example/model-a/keyframes-to-video", "duration", false, 5, { type: "integer", minimum: 5, maximum: 20 }],
    [
      "example/model-b/reference-to-video",
      "seed",
      false,
      undefined,
      { type: "integer", minimum: 0, maximum: 2147483647 },
    ],
    [
      "example/model-b/reference-to-video",
      "aspect_ratio",
      false,
      "adaptive",
      { enum: ["adaptive", "16:9", "4:3", "1:1", "3:4", "9:16"] },
    ],
    ["example/model-b/reference-to-video", "audio", false, true, { type: "boolean" }],
    ["example/model-b/reference-to-video", "enable_thinking", false, false, { type: "boolean" }],
    ["example/model-b/reference-to-video", "resolution", false, "1080p", { enum: ["480p", "720p", "1080p"] }],
    ["example/model-c/text-to-video", "prompt", true, undefined, { type: "string" }],
    ["example/model-c/text-to-video", "duration", false, 5, { type: "integer", minimum: -1, maximum: 15 }],
    [
      "example/model-c/text-to-video",
      "ratio",
      false,
      "adaptive",
      { enum: ["21:9", "16:9", "4:3", "1:1", "3:4", "9:16", "adaptive"] },
    ],
    ["example/model-c/text-to-video", "resolution", false, "720p", { enum: ["480p", "720p", "1080p", "4k"] }],
  ];
  it.each(table)("%s %s: required=%s, default=%j", (key, name, required, dflt, expected) => {
    const schema = prop(key, name);
    expect(((endpoints.get(key)!.input.required as string[]) ?? []).includes(name)).toBe(required);
    expect(schema.default).toEqual(dflt);
    expect(schema).toMatchObject(expected);
    expect(typeof schema.description).toBe("string");
  });

  it("model A text-to-video duration is auto or an integer 5..20, default auto (spec 4.2)", () => {
    const schema = prop("example/model-a/text-to-video", "duration");
    expect(schema.default).toBe("auto");
    expect(schema.anyOf).toEqual([
      { type: "string", enum: ["auto"] },
      { type: "integer", minimum: 5, maximum: 20 },
    ]);
  });

  it("model B has no required field and its nullable fields use one form (spec 4.4)", () => {
    const input = endpoints.get("example/model-b/reference-to-video")!.input;
    expect(input.required).toBeUndefined();
    expect(nullableInner(prop("example/model-b/reference-to-video", "duration"))).toEqual({
      type: "integer",
      minimum: 2,
      maximum: 30,
    });
    expect(prop("example/model-b/reference-to-video", "duration").default).toBe(5);
    for (const [name, max] of [
      ["reference_images", 10],
      ["reference_videos", 5],
      ["reference_audios", 5],
    ] as const) {
      expect(nullableInner(prop("example/model-b/reference-to-video", name))).toEqual({
        type: "array",
        maxItems: max,
        items: { type: "string", format: "uri", minLength: 1, maxLength: 2083 },
      });
    }
    for (const name of ["file_url", "web_url"]) {
      const inner = nullableInner(prop("example/model-b/reference-to-video", name))!;
      expect(inner.anyOf).toEqual([
        { type: "string", format: "uri", minLength: 1, maxLength: 2083 },
        { type: "string" },
      ]);
      expect(JSON.stringify(prop("example/model-b/reference-to-video", name))).not.toContain("enable_thinking");
    }
  });

  it("keyframes are Keyframe objects: URI-or-any-string image_url and frame_index >= 0 (spec 2.2)", () => {
    const input = endpoints.get("example/model-a/keyframes-to-video")!.input;
    expect(prop("example/model-a/keyframes-to-video", "keyframes").items).toEqual({ $ref: "#/$defs/Keyframe" });
    const keyframe = (input.$defs as Record<string, JsonSchemaObject>).Keyframe!;
    expect(keyframe.required).toEqual(["image_url", "frame_index"]);
    const props = keyframe.properties as Record<string, JsonSchemaObject>;
    expect(props.frame_index).toMatchObject({ type: "integer", minimum: 0 });
    expect(props.frame_index!.maximum).toBeUndefined();
    expect(props.image_url!.anyOf).toEqual([
      { type: "string", format: "uri", minLength: 1, maxLength: 2083 },
      { type: "string" },
    ]);
  });

  it("outputs carry the File object and each model's billing fields (spec 2.1, 2.3)", () => {
    const a = endpoints.get("example/model-a/text-to-video")!.output;
    expect(a.required).toEqual(["video", "output_video_dur"]);
    expect(nullableInner((a.properties as Record<string, JsonSchemaObject>).draft_cache)).toEqual({
      $ref: "#/$defs/File",
    });
    expect((a.$defs as Record<string, JsonSchemaObject>).File!.required).toEqual([
      "content_type",
      "file_name",
      "file_size",
      "url",
    ]);
    expect(endpoints.get("example/model-c/text-to-video")!.output.required).toEqual(["video", "total_tokens", "units"]);
    expect(endpoints.get("example/model-b/reference-to-video")!.output.required).toEqual(["video", "output_video_dur"]);
  });

  it("the manifest records each file's sha256", () => {
    const manifest = JSON.parse(readFileSync("schemas-cache/manifest.json", "utf8")) as {
      models: Record<string, { sha256: string }>;
    };
    for (const m of snapshot) expect(manifest.models[m.ref.id]!.sha256).toBe(m.sha256);
  });
});

describe("dialects", () => {
  it("reads OpenAPI 3.0 (nullable: true) into the same endpoint model as 3.1", () => {
    const file = "test/fixtures/schema/model-b.openapi30.json";
    const origin = { model: "example/model-b", file };
    const loaded = loadModelDocument(parseModelText(readFileSync(file, "utf8"), origin), origin);
    expect(loaded.dialect).toBe("openapi-3.0");
    const b31 = endpoints.get("example/model-b/reference-to-video")!;
    expect(loaded.endpoints).toHaveLength(1);
    expect(loaded.endpoints[0]!.input).toEqual(b31.input);
    expect(loaded.endpoints[0]!.output).toEqual(b31.output);
  });

  it("reads type: [T, 'null'] as the same nullable form", () => {
    const doc = minimalDoc({ type: ["integer", "null"], minimum: 2, description: "d" });
    const e = loadModelDocument(doc, { model: "o/m", file: "f.json" }).endpoints[0]!;
    expect((e.input.properties as Record<string, unknown>).x).toEqual({
      description: "d",
      anyOf: [{ type: "integer", minimum: 2 }, { type: "null" }],
    });
  });
});

function minimalDoc(x: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    openapi: "3.1.0",
    info: { title: "m", version: "1" },
    paths: {
      "/o/m/run": {
        post: {
          requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/In" } } } },
          responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } } },
        },
      },
    },
    components: { schemas: { In: { type: "object", properties: { x } } } },
    ...extra,
  };
}

describe("documents that cannot be read say which model, file and JSON Pointer", () => {
  const origin = { model: "o/m", file: "schemas-cache/o/m/latest.json" };
  const cases: Array<[string, unknown, RegExp]> = [
    ["not an object", [1, 2], /o\/m: schemas-cache\/o\/m\/latest\.json: is not an OpenAPI document/],
    ["not OpenAPI", { swagger: "2.0", paths: {} }, /at \/openapi: .*Swagger 2\.0 is not supported/],
    ["no endpoints", { openapi: "3.1.0", paths: {} }, /at \/paths: the document has no POST endpoint/],
    [
      "a dangling $ref",
      minimalDoc({ $ref: "#/components/schemas/Nope" }),
      /at \/components\/schemas\/In\/properties\/x\/\$ref: reference "#\/components\/schemas\/Nope" points at nothing/,
    ],
    [
      "an external $ref",
      minimalDoc({ $ref: "https://other/schema.json" }),
      /at \/components\/schemas\/In\/properties\/x\/\$ref: reference "https:\/\/other\/schema\.json" is not supported/,
    ],
  ];
  it.each(cases)("%s", (_name, doc, message) => {
    expect(() => loadModelDocument(doc, origin)).toThrow(SchemaLoadError);
    expect(() => loadModelDocument(doc, origin)).toThrow(message);
  });

  it("a body that is HTML or broken JSON names the problem and the line", () => {
    expect(() => parseModelText("<html>502 Bad Gateway</html>", origin)).toThrow(/is HTML or XML, not JSON/);
    expect(() => parseModelText('{\n  "openapi": "3.1.0",\n  oops\n}', origin)).toThrow(
      /is not valid JSON \(line 3, column 3\)/,
    );
  });
});

describe("nullability rewrites never leave a $ref dangling", () => {
  const origin = { model: "o/m", file: "f.json" };
  const doc30 = (aSchema: unknown, refTarget: string) => ({
    openapi: "3.0.3",
    info: { title: "m", version: "1" },
    paths: {
      "/o/m/run": {
        post: {
          requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/In" } } } },
          responses: {
            "200": {
              description: "ok",
              content: { "application/json": { schema: { $ref: "#/components/schemas/Out" } } },
            },
          },
        },
      },
    },
    components: {
      schemas: {
        In: { type: "object", properties: { a: { $ref: "#/components/schemas/A" } } },
        A: aSchema,
        Out: { type: "object", properties: { b: { $ref: refTarget } } },
      },
    },
  });

  it("a 3.0 nullable object keeps its properties in place, so a $ref into them resolves", () => {
    const doc = doc30(
      { type: "object", nullable: true, properties: { b: { type: "integer" } } },
      "#/components/schemas/A/properties/b",
    );
    const e = loadModelDocument(doc, origin).endpoints[0]!;
    expect((e.input.$defs as Record<string, unknown>).A).toEqual({
      type: ["object", "null"],
      properties: { b: { type: "integer" } },
    });
    expect(((e.output.properties as Record<string, unknown>).b as { $ref: string }).$ref).toBe(
      "#/$defs/A/properties/b",
    );
  });

  it("a $ref into a part that normalization moved is a clear SchemaLoadError, not a crash later", () => {
    const doc = doc30(
      { allOf: [{ type: "object", properties: { b: { type: "integer" } } }], nullable: true },
      "#/components/schemas/A/allOf/0/properties/b",
    );
    expect(() => loadModelDocument(doc, origin)).toThrow(SchemaLoadError);
    expect(() => loadModelDocument(doc, origin)).toThrow(
      /does not resolve once the endpoint's schema is made self-contained/,
    );
  });
});

describe("a cycle of references that never reaches a schema", () => {
  it("is a SchemaLoadError at load time (pull rejects it), not an Ajv stack overflow at generate time", () => {
    const doc = minimalDoc({ $ref: "#/components/schemas/A" }, {});
    (doc.components as { schemas: Record<string, unknown> }).schemas.A = { $ref: "#/components/schemas/B" };
    (doc.components as { schemas: Record<string, unknown> }).schemas.B = { $ref: "#/components/schemas/A" };
    expect(() => loadModelDocument(doc, { model: "o/m", file: "f.json" })).toThrow(
      /leads to a cycle of references that never reaches a schema/,
    );
  });
});
