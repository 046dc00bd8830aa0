/**
 * `vsk drift` end to end on the keyword classes issue 39 found misread: one snapshot with an
 * endpoint per case (each body `{prompt, x}` / `{video, x}`, inline and through `$ref`), one
 * spawn, the verdict per endpoint and direction; then `.vsk-drift-accept.json` naming a change by
 * its fingerprint.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ctx, report, serve, useDriftWorkspace, vsk } from "./harness.js";

useDriftWorkspace();

type Json = Record<string, unknown>;
const S = { type: "string" };
const I = { type: "integer" };
const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const tagged = (tag: string, extra: Json = {}): Json => ({
  type: "object",
  required: ["kind"],
  properties: { kind: { const: tag }, ...extra },
});

/** name, x before, x after, components before, components after, [request changes], [response changes] as "id severity" */
type Case = [string, unknown, unknown, Json, Json, string[], string[]];
const PETS = { Dog: tagged("dog", { bark: S }), Cat: tagged("cat", { purr: I }), Fish: tagged("fish", { fins: I }) };
const UNION = { A: tagged("a"), B: tagged("b") };
const CASES: Case[] = [
  [
    "prefixitems-removed",
    { type: "array", prefixItems: [S], items: I },
    { type: "array", items: I },
    {},
    {},
    ["request-property-type-changed breaking"],
    ["response-property-prefix-items-unset breaking"],
  ],
  [
    "prefixitems-added-ref",
    ref("Arr"),
    ref("Arr"),
    { Arr: { type: "array", items: S } },
    { Arr: { type: "array", prefixItems: [I], items: S } },
    ["request-property-type-changed breaking"],
    ["response-property-type-changed breaking"],
  ],
  [
    "allof-member-added",
    { type: "object", required: ["n"], properties: { n: {} } },
    { type: "object", required: ["n"], properties: { n: {} }, allOf: [{ properties: { n: I } }] },
    {},
    {},
    ["request-property-type-narrowed breaking"],
    ["response-property-type-narrowed safe"],
  ],
  [
    "allof-member-added-ref",
    { type: "object", required: ["n"], properties: { n: {} } },
    { type: "object", required: ["n"], properties: { n: {} }, allOf: [ref("IntN")] },
    {},
    { IntN: { properties: { n: I } } },
    ["request-property-type-narrowed breaking"],
    ["response-property-type-narrowed safe"],
  ],
  [
    "allof-annotation-only",
    { type: "object", allOf: [{ required: ["n"] }, { required: ["m"] }] },
    { type: "object", allOf: [{ required: ["n"] }, { required: ["m"] }, { title: "T", description: "only words" }] },
    {},
    {},
    [],
    [],
  ],
  [
    "anyof-added",
    { anyOf: [ref("Dog"), ref("Cat")] },
    { anyOf: [ref("Dog"), ref("Cat"), ref("Fish")] },
    PETS,
    PETS,
    ["request-property-any-of-added safe"],
    ["response-property-any-of-added breaking"],
  ],
  [
    "anyof-removed",
    { anyOf: [ref("Dog"), ref("Cat"), ref("Fish")] },
    { anyOf: [ref("Dog"), ref("Cat")] },
    PETS,
    PETS,
    ["request-property-any-of-removed breaking"],
    ["response-property-any-of-removed safe"],
  ],
  [
    "writeonly-set-optional",
    { type: "object", properties: { s: S } },
    { type: "object", properties: { s: { ...S, writeOnly: true } } },
    {},
    {},
    [],
    ["response-optional-property-became-write-only behavior"],
  ],
  [
    "writeonly-unset-required",
    { type: "object", required: ["s"], properties: { s: { ...S, writeOnly: true } } },
    { type: "object", required: ["s"], properties: { s: S } },
    {},
    {},
    [],
    ["response-property-no-longer-write-only behavior"],
  ],
  [
    "discriminator-added",
    { oneOf: [ref("A"), ref("B")] },
    { oneOf: [ref("A"), ref("B")], discriminator: { propertyName: "kind" } },
    UNION,
    UNION,
    ["request-property-discriminator-changed docs"],
    ["response-property-discriminator-changed docs"],
  ],
  [
    "content-changed",
    ref("Blob"),
    ref("Blob"),
    { Blob: { type: "string", contentMediaType: "application/json", contentEncoding: "base64" } },
    { Blob: { type: "string", contentMediaType: "text/plain", contentEncoding: "quoted-printable" } },
    ["request-property-content-media-type-changed behavior", "request-property-content-encoding-changed behavior"],
    ["response-property-content-media-type-changed behavior", "response-property-content-encoding-changed behavior"],
  ],
  [
    "pattern-relaxed",
    { type: "string", pattern: "^[a-z]+$" },
    { type: "string", pattern: "^[a-z0-9]+$" },
    {},
    {},
    ["request-property-pattern-changed unclassified"],
    ["response-property-pattern-changed behavior"],
  ],
];

/** Model A's document with one queue endpoint per case; components prefixed by the case. */
function document(side: "before" | "after"): string {
  const paths: Json = {};
  const schemas: Json = {};
  for (const [name, xb, xa, cb, ca] of CASES) {
    const prefix = name.replace(/-/g, "_") + "_";
    const rename = (v: unknown): unknown =>
      JSON.parse(JSON.stringify(v).replace(/#\/components\/schemas\//g, `#/components/schemas/${prefix}`));
    for (const [k, v] of Object.entries(side === "before" ? cb : ca)) schemas[prefix + k] = rename(v);
    const x = rename(side === "before" ? xb : xa);
    const body = (base: string): Json => ({ type: "object", required: [base], properties: { [base]: S, x } });
    paths[`/example/model-a/${name}`] = {
      post: {
        requestBody: { content: { "application/json": { schema: body("prompt") } } },
        responses: { "200": { description: "ok", content: { "application/json": { schema: body("video") } } } },
      },
    };
  }
  return JSON.stringify({ openapi: "3.1.0", info: { title: "model-a", version: "1" }, paths, components: { schemas } });
}

describe("vsk drift: the keyword classes of issue 39, one endpoint each", () => {
  it("gives each class the verdict a careful reviewer would, and names each change by a fingerprint accept files can use", async () => {
    writeFileSync(join(ctx.dir, "schemas-cache/example/model-a/latest.json"), document("before"));
    serve("example/model-a", document("after"));
    const run = await vsk(["--format", "json", "--fail-on", "never"], ctx.dir);
    expect(run.stderr).toBe("");
    const r = report(run);
    for (const [name, , , , , request, response] of CASES) {
      const of = (direction: string): string[] =>
        r.changes
          .filter((c: any) => c.endpoint === name && c.direction === direction)
          .map((c: any) => `${c.id} ${c.severity}`);
      expect([name, of("request"), of("response")]).toEqual([name, request, response]);
    }
    // the relaxed pattern's example crosses only the pattern: the rest of the body is the minimal one
    const pattern = r.changes.find((c: any) => c.endpoint === "pattern-relaxed" && c.direction === "response");
    expect(Object.keys(pattern.example).sort()).toEqual(["video", "x"]);
    expect(pattern.example.x).toMatch(/^[a-z0-9]+$/);
    expect(pattern.example.x).not.toMatch(/^[a-z]+$/);
    // every change has its own fingerprint
    const prints = r.changes.map((c: any) => c.fingerprint);
    expect(new Set(prints).size).toBe(prints.length);

    // accepted by fingerprint alone: listed apart, the gate passes
    const removed = r.changes.find((c: any) => c.id === "request-property-any-of-removed");
    const prefix = r.changes.find((c: any) => c.endpoint === "prefixitems-removed" && c.direction === "request");
    writeFileSync(
      join(ctx.dir, ".vsk-drift-accept.json"),
      JSON.stringify({
        accept: [removed, prefix].map((c: any) => ({
          model: "example/model-a",
          fingerprint: c.fingerprint,
          reason: "reviewed",
        })),
      }),
    );
    const gated = await vsk(["--format", "json"], ctx.dir);
    const g = report(gated);
    expect(g.accepted.map((c: any) => c.fingerprint).sort()).toEqual([removed.fingerprint, prefix.fingerprint].sort());
    expect(g.warnings).toEqual([]);
    // the other breaking changes still fail the gate
    expect(gated.code).toBe(1);
    expect(g.changes.some((c: any) => c.fingerprint === removed.fingerprint)).toBe(false);
  });
});
