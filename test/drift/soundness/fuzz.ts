/**
 * The differential soundness check of `vsk drift` (issue 39): schema pairs made by mutating
 * small synthetic schemas and the snapshot's, instances drawn from both sides, and Ajv as the
 * oracle. A request instance the snapshot accepts and the source rejects proves the change
 * breaking; a response instance the source allows and the snapshot rejects is something new a
 * client may receive. Either way drift must report at least one change of that direction at
 * `unclassified` or above, never only `safe`/`docs` or nothing.
 */
import { classify, diffModels, SEVERITY_ORDER, type Change } from "../../../src/drift/index.js";
import { createAjv } from "../../../src/rules/index.js";
import { isSchemaObject, loadModelDocument, type ModelSchema } from "../../../src/schema/index.js";

type Json = any;

/** A seeded PRNG (mulberry32): the same seed, the same pairs, the same instances. */
export class Rng {
  constructor(private state: number) {}
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) | 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

const clone = <T>(v: T): T => structuredClone(v);
const S = { type: "string" };
const I = { type: "integer" };

/** Small schemas of every keyword class: the bases, and what mutations add or wrap with. */
export const POOL: Json[] = [
  S,
  I,
  { type: "number" },
  { type: "boolean" },
  { type: "string", minLength: 2, maxLength: 4 },
  { type: "string", pattern: "^[a-z]+$" },
  { type: "string", format: "date" },
  { type: "string", enum: ["a", "b", "c"] },
  { const: "a" },
  { type: "integer", minimum: 1, maximum: 5 },
  { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 10, multipleOf: 0.5 },
  { type: "array", items: S },
  { type: "array", items: I, minItems: 1, maxItems: 3, uniqueItems: true },
  { type: "array", prefixItems: [S, I], items: { type: "boolean" } },
  { type: "array", contains: I, minContains: 1 },
  { type: "object", properties: { a: S, b: I }, required: ["a"] },
  { type: "object", properties: { a: S }, additionalProperties: false },
  { type: "object", additionalProperties: I },
  { type: "object", patternProperties: { "^a": I } },
  { type: "object", propertyNames: { maxLength: 2 } },
  { type: "object", dependentRequired: { a: ["b"] } },
  { type: "object", properties: { a: S }, dependentSchemas: { a: { required: ["b"] } } },
  { type: "object", minProperties: 1, maxProperties: 2 },
  { anyOf: [S, I] },
  { oneOf: [S, I] },
  { anyOf: [S, { type: "null" }] },
  { type: ["string", "null"] },
  { allOf: [{ type: "string" }, { maxLength: 3 }] },
  { if: { type: "string" }, then: { minLength: 2 }, else: { type: "integer" } },
  {
    type: "object",
    properties: { kind: { enum: ["x", "y"] }, v: {} },
    if: { properties: { kind: { const: "x" } } },
    then: { properties: { v: I } },
  },
  { not: { type: "string" } },
  { type: "string", contentMediaType: "application/json", contentEncoding: "base64" },
  { type: "object", properties: { a: S }, unevaluatedProperties: false },
];

/** Keywords a mutation may add, each with a value of its class. */
const ADDED: Array<[string, Json]> = [
  ["type", "string"],
  ["type", "integer"],
  ["type", ["string", "integer"]],
  ["type", "null"],
  ["enum", ["a", 1]],
  ["const", 1],
  ["minLength", 3],
  ["maxLength", 1],
  ["pattern", "^b"],
  ["format", "email"],
  ["minimum", 2],
  ["maximum", 0],
  ["exclusiveMinimum", 1],
  ["exclusiveMaximum", 3],
  ["multipleOf", 2],
  ["items", I],
  ["items", false],
  ["prefixItems", [I]],
  ["minItems", 2],
  ["maxItems", 1],
  ["uniqueItems", true],
  ["contains", S],
  ["maxContains", 1],
  ["required", ["a"]],
  ["properties", { a: I }],
  ["additionalProperties", false],
  ["additionalProperties", S],
  ["patternProperties", { "^b": S }],
  ["propertyNames", { pattern: "^a" }],
  ["dependentRequired", { b: ["a"] }],
  ["dependentSchemas", { b: { properties: { a: I } } }],
  ["minProperties", 2],
  ["maxProperties", 0],
  ["not", { type: "integer" }],
  ["allOf", [{ properties: { a: I } }]],
  ["allOf", [{ maxLength: 2 }, { minimum: 3 }]],
  ["anyOf", [S, { type: "boolean" }]],
  ["oneOf", [I, { type: "number" }]],
  ["if", { required: ["a"] }],
  ["then", { required: ["b"] }],
  ["else", { maxProperties: 0 }],
  ["readOnly", true],
  ["writeOnly", true],
  ["discriminator", { propertyName: "kind" }],
  ["contentMediaType", "text/plain"],
  ["contentEncoding", "quoted-printable"],
  ["contentSchema", I],
  ["unevaluatedProperties", false],
  ["unevaluatedItems", false],
  ["nullable", true],
  ["description", "changed"],
  ["default", "a"],
];

/** Wrappers: the node nested under an applicator. */
const WRAPS: Array<(n: Json, r: Rng) => Json> = [
  (n) => ({ allOf: [n] }),
  (n, r) => ({ allOf: [n, clone(r.pick(POOL))] }),
  (n, r) => ({ anyOf: [n, clone(r.pick(POOL))] }),
  (n, r) => ({ oneOf: [n, clone(r.pick(POOL))] }),
  (n) => ({ if: { type: "object" }, then: n, else: n }),
  (n) => ({ if: { required: ["a"] }, then: { properties: { a: n } } }),
  (n) => ({ type: "array", prefixItems: [n] }),
  (n) => ({ type: "array", items: n }),
  (n) => ({ type: "object", patternProperties: { "^a": n } }),
  (n) => ({ type: "object", dependentSchemas: { a: n } }),
  (n) => ({ type: "object", properties: { a: n }, required: ["a"] }),
  (n) => ({ type: "object", additionalProperties: n }),
];

/** Every schema object in `root` (not `const`/`enum` values), with the path to it. */
function nodes(root: Json, path: Array<string | number> = [], out: Array<Array<string | number>> = []): typeof out {
  if (!isSchemaObject(root)) return out;
  out.push(path);
  for (const [k, v] of Object.entries(root)) {
    if (["const", "enum", "default", "examples", "required", "dependentRequired", "discriminator"].includes(k))
      continue;
    if (["properties", "patternProperties", "dependentSchemas", "$defs"].includes(k) && isSchemaObject(v))
      for (const [name, s] of Object.entries(v)) nodes(s, [...path, k, name], out);
    else if (Array.isArray(v)) v.forEach((s, i) => nodes(s, [...path, k, i], out));
    else nodes(v, [...path, k], out);
  }
  return out;
}

const getAt = (root: Json, path: Array<string | number>): Json => path.reduce((o, k) => o?.[k], root);
function setAt(root: Json, path: Array<string | number>, value: Json): Json {
  if (path.length === 0) return value;
  getAt(root, path.slice(0, -1))[path.at(-1)!] = value;
  return root;
}

const NUMERIC = [
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minItems",
  "maxItems",
  "minProperties",
  "maxProperties",
  "minContains",
  "maxContains",
  "multipleOf",
];

/** One mutation of one node: a keyword removed, added, tightened or loosened, an enum value, a wrapper, a replacement. */
function mutateNode(node: Json, r: Rng): Json {
  if (!isSchemaObject(node)) return clone(r.pick(POOL));
  const n: Json = { ...node };
  const keys = Object.keys(n);
  switch (r.int(7)) {
    case 0:
      if (keys.length > 0) delete n[r.pick(keys)];
      return n;
    case 1: {
      const [k, v] = r.pick(ADDED);
      n[k] = clone(v);
      return n;
    }
    case 2: {
      const ks = keys.filter((k) => NUMERIC.includes(k) && typeof n[k] === "number");
      if (ks.length === 0) return mutateNode(node, r);
      const k = r.pick(ks);
      n[k] = k === "multipleOf" ? r.pick([n[k] * 2, n[k] / 2, 3]) : Math.max(0, n[k] + r.pick([-2, -1, 1, 2]));
      return n;
    }
    case 3: {
      if (Array.isArray(n.enum)) {
        n.enum = r.chance(0.5) && n.enum.length > 1 ? n.enum.slice(1) : [...n.enum, r.pick(["z", 7, null])];
        return n;
      }
      if (Array.isArray(n.type)) n.type = n.type.slice(1).length ? n.type.slice(1) : "string";
      else if (typeof n.type === "string")
        n.type = r.chance(0.5)
          ? [n.type, r.pick(["integer", "null", "string"])]
          : r.pick(["number", "string", "object"]);
      else n.type = r.pick(["string", "integer", "object", "array"]);
      return n;
    }
    case 4:
      return r.pick(WRAPS)(n, r);
    case 5: {
      for (const k of ["anyOf", "oneOf", "allOf", "prefixItems"]) {
        if (Array.isArray(n[k]) && n[k].length > 0) {
          n[k] =
            r.chance(0.5) && n[k].length > 1
              ? n[k].filter((_: Json, i: number) => i !== r.int(n[k].length))
              : [...n[k], clone(r.pick(POOL))];
          return n;
        }
      }
      return mutateNode(node, r);
    }
    default:
      return clone(r.pick(POOL));
  }
}

/** A document: `x` placed in both a request and a response body, with components for `$ref`s. */
export function scenarioDoc(x: Json, components: Json = {}): Json {
  const body = (base: string): Json => ({
    type: "object",
    required: [base],
    properties: { [base]: S, ...(x === undefined ? {} : { x }) },
  });
  return {
    openapi: "3.1.0",
    info: { title: "soundness", version: "1" },
    paths: {
      "/fx/soundness/run": {
        post: {
          requestBody: { content: { "application/json": { schema: body("prompt") } } },
          responses: {
            "200": { description: "ok", content: { "application/json": { schema: body("video") } } },
          },
        },
      },
    },
    components: { schemas: components },
  };
}

/** One side of a pair: the body's `x` and the definitions it may reference. */
export interface Side {
  x: Json;
  components: Json;
}

/** Every schema node of a side: in `x` and in each definition. */
const sideNodes = (side: Side): Array<Array<string | number>> => [
  ...nodes(side.x, ["x"]),
  ...Object.keys(side.components).flatMap((name) => nodes(side.components[name], ["components", name])),
];

/** A pair: a base, and the base with one or two mutations (perhaps inside a `$ref`'s target). */
export function mutatePair(base: Side, r: Rng): [Side, Side] {
  const before = clone(base);
  // move a node behind a `$ref` on both sides (no change by itself), so later mutations reach it through one
  if (r.chance(0.35)) {
    const path = r.pick(nodes(before.x, ["x"]));
    const name = `G${r.int(1000)}`;
    before.components[name] = getAt(before, path);
    setAt(before, path, { $ref: `#/components/schemas/${name}` });
  }
  let after = clone(before);
  for (let i = 0, n = r.chance(0.3) ? 2 : 1; i < n; i++) {
    const path = r.pick(sideNodes(after));
    after = setAt(after, path, mutateNode(getAt(after, path), r));
  }
  return [before, after];
}

/** Values a schema accepts, near its bounds and just past them: biased to be valid, not only valid. */
export function instance(schema: Json, defs: Json, r: Rng, depth = 0): Json {
  if (schema === true || schema === undefined) return r.pick(["a", 1, null, {}, []]);
  if (schema === false) return "no";
  if (!isSchemaObject(schema) || depth > 6) return r.pick(["a", 1, null]);
  if (typeof schema.$ref === "string" && r.chance(0.9)) {
    const name = schema.$ref.split("/").at(-1)!;
    const target = defs[name];
    if (target !== undefined) {
      const { $ref: _, ...siblings } = schema;
      return instance(r.chance(0.5) ? target : { allOf: [target, siblings] }, defs, r, depth + 1);
    }
  }
  if (r.chance(0.03)) return r.pick(["a", 0, -1, 2.5, true, null, {}, [], "", "abcdef"]);
  if ("const" in schema && r.chance(0.8)) return clone(schema.const);
  if (Array.isArray(schema.enum) && r.chance(0.85)) return clone(r.pick(schema.enum));
  if (Array.isArray(schema.examples) && r.chance(0.3)) return clone(r.pick(schema.examples));
  for (const k of ["anyOf", "oneOf"])
    if (Array.isArray(schema[k]) && schema[k].length > 0 && r.chance(0.7)) {
      const branch = r.pick(schema[k] as Json[]);
      const { [k]: _, ...rest } = schema;
      return instance(isSchemaObject(branch) ? { ...rest, ...branch } : branch, defs, r, depth + 1);
    }
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0 && r.chance(0.6)) {
    const { allOf, ...rest } = schema;
    let merged: Json = rest;
    for (const m of allOf as Json[])
      if (isSchemaObject(m) && r.chance(0.8)) {
        const mm: Json = m;
        merged = {
          ...merged,
          ...mm,
          ...(merged.properties && mm.properties ? { properties: { ...merged.properties, ...mm.properties } } : {}),
          ...(merged.required && mm.required ? { required: [...merged.required, ...mm.required] } : {}),
        };
      }
    return instance(merged, defs, r, depth + 1);
  }
  if (schema.if !== undefined && r.chance(0.5)) {
    const branch = r.chance(0.5) ? schema.then : schema.else;
    if (isSchemaObject(branch)) return instance({ ...schema, if: undefined, ...branch }, defs, r, depth + 1);
  }
  const types: string[] =
    typeof schema.type === "string"
      ? [schema.type]
      : Array.isArray(schema.type) && schema.type.length > 0
        ? schema.type
        : ["string", "integer", "number", "boolean", "object", "array", "null"];
  const type = r.pick(types);
  const near = (v: number | undefined, fallback: number): number =>
    v === undefined ? fallback : v + r.pick([-1, 0, 0, 1]);
  switch (type) {
    case "null":
      return null;
    case "boolean":
      return r.chance(0.5);
    case "integer":
    case "number": {
      const bounds = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"].filter(
        (k) => typeof schema[k] === "number",
      );
      let v =
        bounds.length > 0 && r.chance(0.6)
          ? near(schema[r.pick(bounds)] as number, 0)
          : r.pick([0, 1, 2, 3, 4, 5, 6, 10, -1, 7]);
      if (typeof schema.multipleOf === "number" && r.chance(0.6)) v = schema.multipleOf * r.int(5);
      if (type === "number" && r.chance(0.2)) v += 0.5;
      return v;
    }
    case "string": {
      const pool = [
        "a",
        "ab",
        "abc",
        "abcd",
        "abcde",
        "b",
        "ba",
        "x",
        "",
        "A1",
        "2024-01-31",
        "a@b.co",
        "aaaaaaa",
        "1",
      ];
      if (typeof schema.minLength === "number" && r.chance(0.3))
        return "a".repeat(Math.max(0, near(schema.minLength, 0)));
      if (typeof schema.maxLength === "number" && r.chance(0.3))
        return "a".repeat(Math.max(0, near(schema.maxLength, 0)));
      return r.pick(pool);
    }
    case "array": {
      const prefix: Json[] = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
      const min = typeof schema.minItems === "number" ? schema.minItems : 0;
      const len = Math.min(6, Math.max(0, r.chance(0.5) ? near(min, prefix.length) : r.int(4)));
      const out: Json[] = [];
      for (let i = 0; i < len; i++) {
        const s = i < prefix.length ? prefix[i] : schema.items !== undefined ? schema.items : schema.contains;
        out.push(instance(s, defs, r, depth + 1));
      }
      if (schema.contains !== undefined && r.chance(0.5)) out.push(instance(schema.contains, defs, r, depth + 1));
      if (r.chance(0.1) && out.length > 0) out.push(clone(out[0]));
      return out;
    }
    default: {
      const out: Json = {};
      const props: Json = isSchemaObject(schema.properties) ? schema.properties : {};
      const required: string[] = Array.isArray(schema.required) ? schema.required : [];
      for (const name of new Set([...Object.keys(props), ...required])) {
        if (required.includes(name) ? r.chance(0.97) : r.chance(0.5))
          out[name] = instance(props[name], defs, r, depth + 1);
      }
      if (isSchemaObject(schema.patternProperties) && r.chance(0.5)) {
        const p = r.pick(Object.keys(schema.patternProperties));
        if (p !== undefined)
          out[p.replace(/[^a-z]/g, "") + "1"] = instance(schema.patternProperties[p], defs, r, depth + 1);
      }
      if (isSchemaObject(schema.dependentSchemas) && r.chance(0.5)) {
        const k = r.pick(Object.keys(schema.dependentSchemas));
        if (k !== undefined)
          Object.assign(
            out,
            { [k]: out[k] ?? "a" },
            instance({ type: "object", ...(schema.dependentSchemas[k] as Json) }, defs, r, depth + 1),
          );
      }
      if (isSchemaObject(schema.dependentRequired))
        for (const [k, list] of Object.entries(schema.dependentRequired))
          if (k in out && Array.isArray(list)) for (const n of list) out[n] ??= instance(props[n], defs, r, depth + 1);
      // a property the schema does not describe only where it says what one may be: a client sends
      // (and expects) only what is documented, by the convention drift follows (docs/drift.md)
      const extra = schema.additionalProperties;
      if ((extra === true || (isSchemaObject(extra) && Object.keys(extra).length > 0)) && r.chance(0.3))
        out[r.pick(["extra", "a", "b", "kind"])] = instance(extra, defs, r, depth + 1);
      return out;
    }
  }
}

const RANK = (s: Change["severity"]): number => SEVERITY_ORDER.indexOf(s);
/** What a careful reviewer may not be told is safe: unclassified or above. */
const flagged = (changes: readonly Change[]): boolean => changes.some((c) => RANK(c.severity) <= RANK("unclassified"));

/**
 * `contains` as Ajv 8.20 can check it: inside a loop (`items`, `patternProperties`, …) Ajv keeps
 * the count of one element's matches into the next (`{a1: [5], a: []}` passes
 * `patternProperties: {"^a": {contains: {type: integer}}}`), so the oracle writes `contains: C`
 * as the equivalent `not: {items: {not: C}}` (some item matches C). Counts other than one
 * (`minContains`, `maxContains`) have no such form: such a pair is skipped (`undefined`).
 */
function withoutContains(schema: Json): Json | undefined {
  if (Array.isArray(schema)) {
    const out = schema.map(withoutContains);
    return out.includes(undefined) ? undefined : out;
  }
  if (!isSchemaObject(schema)) return schema;
  const out: Json = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === "const" || k === "enum" || k === "default" || k === "examples") out[k] = v;
    else if (k === "minContains" || k === "maxContains") {
      if (!(k === "minContains" && v === 1)) return undefined;
    } else if (k === "contains") {
      const c = withoutContains(v);
      if (c === undefined) return undefined;
      out.allOf = [...(out.allOf ?? []), { not: { items: { not: c } } }];
    } else if (k === "properties" || k === "patternProperties" || k === "dependentSchemas" || k === "$defs") {
      if (!isSchemaObject(v)) out[k] = v;
      else {
        const entries = Object.entries(v).map(([n, x]) => [n, withoutContains(x)]);
        if (entries.some(([, x]) => x === undefined)) return undefined;
        out[k] = Object.fromEntries(entries);
      }
    } else {
      const c = withoutContains(v);
      if (c === undefined) return undefined;
      if (k === "allOf" && Array.isArray(out.allOf)) out.allOf = [...c, ...out.allOf];
      else out[k] = c;
    }
  }
  return out;
}

/** Response bodies never hold a write-only property (OpenAPI 3.1, 4.8.24): the oracle reads such a property as absent. */
function withoutWriteOnly(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(withoutWriteOnly);
  if (!isSchemaObject(schema)) return schema;
  const out: Json = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === "properties" && isSchemaObject(v)) {
      out.properties = Object.fromEntries(
        Object.entries(v).map(([name, s]) => [
          name,
          isSchemaObject(s) && s.writeOnly === true ? false : withoutWriteOnly(s),
        ]),
      );
    } else if (k === "const" || k === "enum" || k === "default" || k === "examples") out[k] = v;
    else out[k] = withoutWriteOnly(v);
  }
  return out;
}

export interface Counterexample {
  direction: "request" | "response";
  before: Side;
  after: Side;
  instance: Json;
  changes: Array<[string, string]>;
}

/** One Ajv for the run, each schema compiled once by its text (the service's settings: `createAjv`). */
let AJV = createAjv({ optimize: false });
const COMPILED = new Map<string, (v: unknown) => boolean>();
function compile(schema: Json): (v: unknown) => boolean {
  const key = JSON.stringify(schema);
  let v = COMPILED.get(key);
  if (v === undefined) {
    const oracle = withoutContains(schema);
    if (oracle === undefined) throw new Error("minContains/maxContains: not checked");
    if (COMPILED.size > 2000) {
      COMPILED.clear();
      AJV = createAjv({ optimize: false });
    }
    v = AJV.compile(oracle) as (v: unknown) => boolean;
    AJV.removeSchema(oracle);
    COMPILED.set(key, v);
  }
  return v;
}

const load = (doc: Json): ModelSchema | undefined => {
  try {
    return loadModelDocument(doc, { model: "fx/soundness", file: "soundness.json" }, { lenient: true });
  } catch {
    return undefined;
  }
};

/**
 * Checks one pair: drift's verdict per direction against Ajv on instances drawn from both sides.
 * Undefined when sound (or when the pair cannot be loaded or compiled: nothing to check).
 */
export function checkPair(before: Side, after: Side, r: Rng, draws = 24): Counterexample | "skipped" | undefined {
  const [mb, ma] = [load(scenarioDoc(before.x, before.components)), load(scenarioDoc(after.x, after.components))];
  if (mb === undefined || ma === undefined || mb.endpoints.length !== 1 || ma.endpoints.length !== 1) return "skipped";
  let changes: Change[];
  changes = diffModels(mb, ma).map((f) => classify(f));
  const [eb, ea] = [mb.endpoints[0]!, ma.endpoints[0]!];
  const endpointBreaks = changes.some((c) => c.direction === "endpoint" && c.severity === "breaking");
  for (const direction of ["request", "response"] as const) {
    const own = changes.filter((c) => c.direction === direction);
    if (endpointBreaks || flagged(own)) continue;
    let vOld, vNew;
    try {
      [vOld, vNew] =
        direction === "request"
          ? [compile(eb.input), compile(ea.input)]
          : [compile(withoutWriteOnly(eb.output)), compile(withoutWriteOnly(ea.output))];
    } catch {
      return "skipped";
    }
    // a request that crosses is one a client of the snapshot sends; a response, one the source sends
    const { x, components } = direction === "request" ? before : after;
    for (let i = 0; i < draws; i++) {
      const body: Json = { [direction === "request" ? "prompt" : "video"]: "p" };
      if (x !== undefined && i % 8 !== 7) body.x = instance(x, components, r);
      const [okOld, okNew] = [vOld(body), vNew(body)];
      const crosses = direction === "request" ? okOld && !okNew : okNew && !okOld;
      if (crosses) return { direction, before, after, instance: body, changes: own.map((c) => [c.id, c.severity]) };
    }
  }
  return undefined;
}

/** A base document: a synthetic `x`, or one of the snapshot's schemas placed as `x`. */
export function baseSide(r: Rng, snapshots: Json[]): Side {
  if (snapshots.length > 0 && r.chance(0.3)) {
    const snap = r.pick(snapshots);
    const name = r.pick(Object.keys(snap.components.schemas));
    return { x: { $ref: `#/components/schemas/${name}` }, components: clone(snap.components.schemas) };
  }
  let x = clone(r.pick(POOL));
  if (r.chance(0.4)) x = r.pick(WRAPS)(x, r);
  return { x, components: {} };
}

export interface FuzzResult {
  pairs: number;
  skipped: number;
  found: Counterexample[];
}

/** Runs pairs from `seed` until `ms` have passed or `maxPairs` ran; both directions of each mutation (tightened and loosened). */
export function fuzz(seed: number, ms: number, snapshots: Json[], maxPairs = Infinity): FuzzResult {
  const r = new Rng(seed);
  const out: FuzzResult = { pairs: 0, skipped: 0, found: [] };
  const end = Date.now() + ms;
  while (Date.now() < end && out.pairs < maxPairs) {
    const [b, a] = mutatePair(baseSide(r, snapshots), r);
    for (const [x, y] of [
      [b, a],
      [a, b],
    ] as Array<[Side, Side]>) {
      out.pairs++;
      const result = checkPair(x, y, r);
      if (result === "skipped") out.skipped++;
      else if (result !== undefined) out.found.push(result);
    }
  }
  return out;
}
