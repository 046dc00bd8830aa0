/**
 * The editor schemas `vsk generate` writes (`<owner>/<name>/<endpoint>.schema.json`): what an
 * editor reads from a request file's `"$schema"`. Read from the committed generated/ (which
 * test/emit/committed.test.ts keeps current) and checked with Ajv's draft 2020-12 validator,
 * as VS Code and JetBrains check a file: a fixture carrying `$schema` is accepted, what the
 * schema forbids is flagged, and the descriptions state defaults, bounds and the rules.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { emitEditorSchema } from "../../src/emit/editor-schema.js";
import { rulesFor } from "../../src/rules/index.js";
import type { EndpointModel } from "../../src/schema/index.js";

const GENERATED = resolve(import.meta.dirname, "../../generated");

interface Manifest {
  endpoints: Array<{ key: string; rules: string[]; editorSchema: string }>;
}
const manifest = JSON.parse(readFileSync(join(GENERATED, "endpoints.json"), "utf8")) as Manifest;
type Schema = Record<string, unknown> & {
  description: string;
  markdownDescription: string;
  properties: Record<string, Record<string, unknown>>;
  $defs?: Record<string, { properties: Record<string, Record<string, unknown>> }>;
};
const schemaOf = (key: string): Schema => {
  const entry = manifest.endpoints.find((e) => e.key === key)!;
  return JSON.parse(readFileSync(join(GENERATED, entry.editorSchema), "utf8")) as Schema;
};
/** Ajv's messages for a request file, as an editor would squiggle it ([] when it is fine). */
const check = (key: string, file: unknown): string[] => {
  // an editor knows the formats the schema names (uri): without them Ajv warns "unknown format" on every compile
  const ajv = addFormats.default(new Ajv2020({ allErrors: true, strict: false }));
  const validate = ajv.compile(schemaOf(key));
  return validate(file) ? [] : validate.errors!.map((e) => `${e.instancePath} ${e.message}`);
};
const SCHEMA_KEY = { $schema: "./generated/example/model-a/keyframes-to-video.schema.json" };

describe("editor schemas (one per endpoint, draft 2020-12)", () => {
  it("endpoints.json lists one per endpoint, named <owner>/<name>/<endpoint>.schema.json", () => {
    expect(manifest.endpoints.map((e) => e.editorSchema)).toEqual(
      manifest.endpoints.map((e) => `${e.key}.schema.json`),
    );
    for (const e of manifest.endpoints)
      expect(schemaOf(e.key).$schema).toBe("https://json-schema.org/draft/2020-12/schema");
  });

  it("a request file with a top-level $schema is accepted, on closed endpoints too", () => {
    const file = {
      ...SCHEMA_KEY,
      prompt: "A paper boat",
      keyframes: [{ image_url: "https://cdn.example.com/0.png", frame_index: 0 }],
    };
    expect(check("example/model-a/keyframes-to-video", file)).toEqual([]);
    expect(schemaOf("example/model-a/keyframes-to-video").additionalProperties).toBe(false);
    expect(check("example/model-c/text-to-video", { $schema: "x.json", prompt: "p", duration: -1 })).toEqual([]);
  });

  it("flags what the published schema forbids, and a field vsk lint warns about", () => {
    const key = "example/model-a/keyframes-to-video";
    expect(check(key, { prompt: "p", keyframes: [], duration: 30 })).toEqual(["/duration must be <= 20"]);
    expect(check(key, { prompt: "p", keyframes: [], resolution: "4K" })).toEqual([
      "/resolution must be equal to one of the allowed values",
    ]);
    expect(check(key, { keyframes: [] })).toEqual([" must have required property 'prompt'"]);
    expect(check(key, { prompt: "p", keyframes: [], durations: 5 })).toEqual([" must NOT have additional properties"]);
  });

  it("the root states every cross-field rule of the endpoint, or that there is none", () => {
    for (const e of manifest.endpoints) {
      const schema = schemaOf(e.key);
      for (const id of e.rules) {
        expect(schema.description, e.key).toContain(`rule ${id})`);
        expect(schema.markdownDescription, e.key).toContain(`rule ${id})`);
      }
      if (e.rules.length === 0) expect(schema.description).toContain("No cross-field rules apply to this endpoint.");
    }
  });

  it("the fields a rule concerns state it, with the values the schema gives", () => {
    const a = schemaOf("example/model-a/keyframes-to-video");
    const frameIndex = a.$defs!.Keyframe!.properties.frame_index!;
    expect(frameIndex.description).toContain(
      "- each keyframes[].frame_index must be at most duration × 24 (the last frame; duration defaults to 5 s, so at most 120 when it is left out) (error, spec 2.2; rule frame-index-within-duration)",
    );
    expect(frameIndex.description).toContain("- frame_index must be unique across the items of keyframes");
    expect(a.properties.duration!.description).toContain("rule frame-index-within-duration");
    const b = schemaOf("example/model-b/reference-to-video");
    expect(b.properties.file_url!.markdownDescription).toContain(
      '`file_url` requires `enable_thinking: true` when it is set (not null, not "") (error, spec 4.4; rule file-url-requires-thinking)',
    );
    expect(b.properties.enable_thinking!.description).toContain("rule web-url-requires-thinking");
    const c = schemaOf("example/model-c/text-to-video");
    expect(c.properties.duration!.description).toContain(
      "duration must be -1 (automatic) or an integer from 4 to 15 (error, spec 4.5; rule duration-auto-or-range)",
    );
  });

  it("defaults and bounds are shown in the descriptions", () => {
    const a = schemaOf("example/model-a/keyframes-to-video");
    expect(a.properties.duration!.description).toContain("Allowed: from 5 to 20.\nDefault: 5.");
    expect(a.properties.duration!.markdownDescription).toContain("Allowed: from 5 to 20.\n\nDefault: `5`.");
    expect(a.properties.resolution!.markdownDescription).toContain('Allowed: one of `"720p"`, `"1080p"`.');
    const t = schemaOf("example/model-a/text-to-video");
    expect(t.properties.duration!.description).toContain(
      'Allowed: string one of "auto", or integer from 5 to 20.\nDefault: "auto".',
    );
  });
});

describe("editor schema of a hostile endpoint", () => {
  const endpoint: EndpointModel = {
    model: "acme/x",
    owner: "acme",
    name: "x",
    endpoint: "go",
    key: "acme/x/go",
    queuePath: "/v1/queue/acme/x/go",
    operationPath: "/acme/x/go",
    requestMediaType: "application/json",
    responseStatus: "200",
    responseMediaType: "application/json",
    input: {
      type: "object",
      description: "see [here](https://evil.example/?token=1) <img src=x onerror=alert(1)>",
      properties: {
        "`x`": { type: "string", description: "![pixel](https://evil.example/p.png)", default: "`\u202e`" },
        $schema: { type: "integer" },
      },
      additionalProperties: false,
    },
    output: { type: "object" },
  };
  const schema = JSON.parse(emitEditorSchema(endpoint, rulesFor(endpoint))) as Schema;

  it("Markdown from the schema is text, not markup, links or images", () => {
    expect(schema.markdownDescription).toContain("see \\[here\\](https\\://evil.example/?token=1) &lt;img");
    const field = schema.properties["`x`"]!;
    expect(field.markdownDescription).toContain("!\\[pixel\\](https\\://evil.example/p.png)");
    expect(field.markdownDescription).toContain('Default: ``"`\\u202e`"``.');
    expect(field.description).toBe('![pixel](https://evil.example/p.png)\nDefault: "`\u202e`".');
  });

  it("keeps the endpoint's own $schema field and its closed additionalProperties", () => {
    expect(schema.properties.$schema).toEqual({ type: "integer" });
    expect(schema.additionalProperties).toBe(false);
  });
});
