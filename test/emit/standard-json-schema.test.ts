// Issue 42.2: every entry of the generated `endpoints` registry, and each endpoint module's
// `…StandardSchema` export, is also Standard JSON Schema v1 (`@standard-schema/spec` 1.1):
// `~standard.jsonSchema.input/output({ target })` give the endpoint's request schema for
// "draft-2020-12" and "draft-07", self-contained, with the cross-field rules under `x-vsk-rules`,
// and throw for any other target. The schemas come from the built generated code run under
// plain `node` (test/fixtures/emit/run-json-schema.mjs); compiled with Ajv (Ajv2020 for
// draft-2020-12, plain Ajv, draft-07, for draft-07), they accept and reject the same payloads
// as the generated validator's schema checks (its cross-field rules apart), on the request
// corpora of test/fixtures/lint and variations of them.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { StandardJSONSchemaV1 as Spec, StandardSchemaV1 as SpecSchema } from "@standard-schema/spec";
import AjvModule from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { describe, expect, it } from "vitest";
import type {
  endpoints,
  EndpointKey,
  EndpointTypeMap,
  ModelAKeyframesToVideoInput,
  modelAKeyframesToVideoStandardSchema,
  modelCTextToVideoJsonSchema,
} from "../../dist/generated/index.mjs";
import { jsonSchemaConverter } from "../../src/diagnostics/index.js";

const addFormats = addFormatsModule.default;
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const TARGETS = ["draft-2020-12", "draft-07"] as const;

// --- types: the registry's entries and the …StandardSchema exports are StandardJSONSchemaV1 by
// the real spec package (and still StandardSchemaV1), inferring the endpoint's Input
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Entry<K extends EndpointKey> = (typeof endpoints)[K];
export const typeChecks = [
  true satisfies Equal<Spec.InferInput<Entry<"example/model-a/keyframes-to-video">>, ModelAKeyframesToVideoInput>,
  true satisfies Equal<Spec.InferInput<typeof modelAKeyframesToVideoStandardSchema>, ModelAKeyframesToVideoInput>,
  true satisfies Equal<
    Spec.InferOutput<Entry<"example/model-c/text-to-video">>,
    EndpointTypeMap["example/model-c/text-to-video"]["input"]
  >,
];
export type AsJson = typeof endpoints extends Record<EndpointKey, Spec<unknown>> ? true : never;
export type AsBoth = typeof modelAKeyframesToVideoStandardSchema extends Spec & SpecSchema ? true : never;
export const converter = (c: typeof modelCTextToVideoJsonSchema): Spec.Converter => c;
export const asJson: AsJson = true;
export const asBoth: AsBoth = true;
// @ts-expect-error -- a target is required (StandardJSONSchemaV1.Options)
export const noTarget = (c: Spec.Converter) => c.input({});

// --- the corpora: every request payload of test/fixtures/lint (an envelope's `input` and the
// envelope itself), each varied field by field (left out; wrong type; out of range) and, for a
// list of objects, its first item's fields likewise
function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}
function corpus(): unknown[] {
  const found: unknown[] = [];
  const take = (text: string) => {
    try {
      const value: unknown = JSON.parse(text.replace(/^\uFEFF/, ""));
      found.push(value);
      if (typeof value === "object" && value !== null && "input" in value) found.push(value.input);
    } catch {
      // not JSON (the odd fixtures): nothing to compare
    }
  };
  for (const path of files(join(ROOT, "test/fixtures/lint"))) {
    if (!/\.(json|ndjson|jsonl)$/.test(path) || path.includes("expected")) continue;
    const text = readFileSync(path, "utf8");
    if (path.endsWith(".json")) take(text);
    else for (const line of text.split(/\r?\n/)) if (line.trim() !== "") take(line);
  }
  const WRONG: unknown[] = [null, "", "x".repeat(3000), -1, 0, 1.5, 7, 1e6, true, [], {}, ["auto"], "auto", "16:9"];
  const vary = (object: Record<string, unknown>): Array<Record<string, unknown>> =>
    Object.keys(object).flatMap((key) => {
      const { [key]: _left, ...rest } = object;
      return [rest, ...WRONG.map((w) => ({ ...object, [key]: w }))];
    });
  const out: unknown[] = [...found];
  for (const value of found) {
    if (typeof value !== "object" || value === null || Array.isArray(value)) continue;
    const object = value as Record<string, unknown>;
    out.push(...vary(object));
    for (const [key, list] of Object.entries(object)) {
      const first: unknown = Array.isArray(list) ? list[0] : undefined;
      if (typeof first !== "object" || first === null || Array.isArray(first)) continue;
      for (const item of vary(first as Record<string, unknown>))
        out.push({ ...object, [key]: [item, ...(list as unknown[]).slice(1)] });
    }
  }
  return out;
}

interface Attempt {
  schema?: Record<string, unknown>;
  error?: string;
}
interface Report {
  vendor: string;
  exported: boolean;
  schemas: Record<(typeof TARGETS)[number], { input: Attempt; output: Attempt }>;
  unsupported: Array<{ target: string | null; input: Attempt; output: Attempt }>;
  fresh: boolean;
  verdicts: Array<{ schemaOk: boolean; ok: boolean }>;
}

const payloads = corpus();
const run = spawnSync(process.execPath, [join(ROOT, "test/fixtures/emit/run-json-schema.mjs")], {
  input: JSON.stringify({ module: join(ROOT, "dist/generated/index.mjs"), payloads }),
  encoding: "utf8",
  maxBuffer: 64 * 1024 * 1024,
});
const reports = (run.status === 0 ? JSON.parse(run.stdout) : {}) as Record<string, Report>;
const manifest = JSON.parse(readFileSync(join(ROOT, "generated/endpoints.json"), "utf8")) as {
  endpoints: Array<{ key: string; rules: string[] }>;
};

/** Ajv as a consumer has it: default (strict) options, the formats, `x-vsk-rules` declared an annotation. */
function ajvFor(target: (typeof TARGETS)[number]): Ajv2020 | InstanceType<typeof AjvModule.default> {
  const ajv = target === "draft-07" ? new AjvModule.default() : new Ajv2020();
  addFormats(ajv);
  ajv.addKeyword("x-vsk-rules");
  return ajv;
}

/** Every key of every object in a JSON value, with the path to it. */
function keysIn(value: unknown, path = ""): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => keysIn(v, `${path}/${i}`));
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([k, v]) => [`${path}/${k}`, ...keysIn(v, `${path}/${k}`)]);
}

describe("Standard JSON Schema v1 (the generated endpoints, under plain node)", () => {
  it("the driver ran, over every endpoint, on a corpus of hundreds of payloads", () => {
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(Object.keys(reports).sort()).toEqual(manifest.endpoints.map((e) => e.key).sort());
    expect(payloads.length).toBeGreaterThan(300);
    expect(typeChecks).toHaveLength(3);
  });

  it("each entry's jsonSchema is the endpoint module's …StandardSchema's; input and output give the same schema, a new one each call", () => {
    for (const report of Object.values(reports)) {
      expect(report.vendor).toBe("video-schema-kit");
      expect(report.exported).toBe(true);
      expect(report.fresh).toBe(true);
      for (const target of TARGETS) {
        expect(report.schemas[target].input.error).toBeUndefined();
        expect(report.schemas[target].output).toEqual(report.schemas[target].input);
      }
    }
  });

  it("an unsupported target throws, from input and output alike, naming the targets there are", () => {
    for (const report of Object.values(reports))
      for (const { target, input, output } of report.unsupported) {
        expect(input.schema).toBeUndefined();
        expect(output).toEqual(input);
        expect(input.error).toBe(
          `Error: video-schema-kit: no JSON Schema for ${target === null ? "no target (undefined)" : JSON.stringify(target)}: the supported targets are "draft-2020-12" and "draft-07" (pass { target: "draft-2020-12" })`,
        );
      }
  });

  it("the schemas are self-contained, of their draft, and list the cross-field rules under x-vsk-rules", () => {
    for (const [key, report] of Object.entries(reports)) {
      const rules = manifest.endpoints.find((e) => e.key === key)!.rules.filter((r) => r !== "unknown-field");
      for (const target of TARGETS) {
        const schema = report.schemas[target].input.schema!;
        expect(schema.$schema).toBe(
          target === "draft-07"
            ? "http://json-schema.org/draft-07/schema#"
            : "https://json-schema.org/draft/2020-12/schema",
        );
        const listed = schema["x-vsk-rules"] as Array<Record<string, unknown>>;
        expect(listed.map((r) => r.id)).toEqual(rules);
        for (const rule of listed) {
          expect(Object.keys(rule)).toEqual(["id", "severity", "message", "spec", "fields"]);
          expect(rule.message).toMatch(/\w{3}/);
        }
        const text = JSON.stringify(schema);
        for (const ref of text.matchAll(/"\$ref":"([^"]*)"/g))
          expect(ref[1]).toMatch(target === "draft-07" ? /^#\/definitions\// : /^#\/\$defs\//);
        if (target === "draft-07")
          for (const path of keysIn(schema))
            expect(path).not.toMatch(
              /\/(\$defs|prefixItems|dependentSchemas|dependentRequired|unevaluated\w+|\$anchor)$/,
            );
      }
    }
    expect(
      (reports["example/model-a/keyframes-to-video"]!.schemas["draft-07"].input.schema!["x-vsk-rules"] as unknown[])[0],
    ).toEqual({
      id: "frame-index-unique",
      severity: "error",
      message: "frame_index must be unique across the items of keyframes",
      spec: "2.2",
      fields: ["/keyframes", "/keyframes/*/frame_index"],
    });
  });

  for (const target of TARGETS)
    it(`${target}: Ajv accepts and rejects every corpus payload as the generated validator's schema checks do`, () => {
      for (const [key, report] of Object.entries(reports)) {
        const validate = ajvFor(target).compile(report.schemas[target].input.schema!);
        const differ = payloads.filter((p, i) => validate(p) !== report.verdicts[i]!.schemaOk);
        expect({ key, differ: differ.slice(0, 3) }).toEqual({ key, differ: [] });
        const accepted = report.verdicts.filter((v) => v.schemaOk).length;
        expect(accepted, key).toBeGreaterThan(10);
        expect(payloads.length - accepted, key).toBeGreaterThan(100);
      }
      // the rules are not in the schema: a duplicate frame_index passes Ajv, not the validator
      const keyframes = reports["example/model-a/keyframes-to-video"]!;
      expect(keyframes.verdicts.some((v) => v.schemaOk && !v.ok)).toBe(true);
    });
});

// --- the conversion itself, on schemas the example models do not have (src/diagnostics, in process)
describe("draft 2020-12 → draft-07", () => {
  const convert = (schema: Record<string, unknown>, target: (typeof TARGETS)[number] = "draft-07") =>
    jsonSchemaConverter(schema, []).input({ target });
  const same = (schema: Record<string, unknown>, payloads: unknown[]) => {
    const converted = convert(schema);
    const before = new Ajv2020({ strict: false }).compile(schema);
    const after = new AjvModule.default({ strict: false }).compile(converted);
    expect(payloads.map((p) => after(p))).toEqual(payloads.map((p) => before(p)));
    expect(new Set(payloads.map((p) => before(p)))).toEqual(new Set([true, false]));
    return converted;
  };

  it("prefixItems + items → items + additionalItems; dependentSchemas/dependentRequired → dependencies", () => {
    const converted = same(
      {
        type: "object",
        properties: { pair: { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }], items: false } },
        dependentRequired: { a: ["b"] },
        dependentSchemas: { c: { required: ["d"] }, a: { required: ["e"] } },
      },
      [
        { pair: ["x", 1] },
        { pair: ["x", "y"] },
        { pair: ["x", 1, 2] },
        { a: 1, b: 2, e: 3 },
        { a: 1, e: 3 },
        { a: 1, b: 2 },
        { c: 1, d: 1 },
        { c: 1 },
      ],
    );
    expect(converted.properties).toEqual({
      pair: { type: "array", items: [{ type: "string" }, { type: "integer" }], additionalItems: false },
    });
    expect(converted.dependencies).toEqual({
      a: { allOf: [{ required: ["b"] }, { required: ["e"] }] },
      c: { required: ["d"] },
    });
  });

  it("$defs → definitions with every $ref relocated (escaped names too); a $ref's siblings kept through allOf; $anchor → $id", () => {
    const converted = same(
      {
        $defs: {
          "a/b c": { type: "integer", minimum: 1 },
          n: { $ref: "#/$defs/a~1b%20c", maximum: 5 },
          s: { $anchor: "short", type: "string", maxLength: 2 },
        },
        type: "object",
        properties: { x: { $ref: "#/$defs/n" }, y: { $ref: "#/$defs/a~1b%20c" }, z: { $ref: "#short" } },
      },
      [{ x: 3 }, { x: 9 }, { x: 0 }, { y: 9 }, { y: 0 }, {}, { z: "ab" }, { z: "abc" }],
    );
    expect(converted.definitions).toEqual({
      "a/b c": { type: "integer", minimum: 1 },
      n: { maximum: 5, allOf: [{ $ref: "#/definitions/a~1b%20c" }] },
      s: { $id: "#short", type: "string", maxLength: 2 },
    });
    expect(converted).not.toHaveProperty("$defs");
  });

  it("a field named __proto__ stays an own property; the target draft-2020-12 is the schema as it is", () => {
    const schema = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string"}},"required":["__proto__"]}',
    );
    const converted = convert(schema);
    expect(Object.keys(converted.properties as object)).toEqual(["__proto__"]);
    expect(convert(schema, "draft-2020-12")).toEqual({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      ...schema,
      "x-vsk-rules": [],
    });
  });

  it("what draft-07 cannot state throws, naming the keyword and where", () => {
    expect(() => convert({ properties: { a: { type: "object", unevaluatedProperties: false } } })).toThrow(
      'video-schema-kit: draft-07 cannot state "unevaluatedProperties" (at /properties/a) of this schema; ask for target "draft-2020-12"',
    );
    expect(() => convert({ contains: { type: "integer" }, minContains: 2 })).toThrow('"minContains" (at the root)');
    expect(convert({ contains: { type: "integer" }, minContains: 1 })).toEqual({
      $schema: "http://json-schema.org/draft-07/schema#",
      contains: { type: "integer" },
      "x-vsk-rules": [],
    });
  });
});
