/**
 * Minimal payloads drawn from a schema: required fields only, each with the simplest value its
 * schema allows (the first enum value, the minimum, a short string). `forcing` puts a chosen
 * value at one payload location (or leaves that field out), building the objects and arrays
 * around it. The result is a candidate: `example.ts` checks it with Ajv before showing it.
 */
import { defineOwn, isSchemaObject, type JsonSchemaObject } from "../schema/index.js";
import { acceptsType, jsonType, typesOf, viewSchema, type Alternative, type SchemaRoot } from "./view.js";

/** What goes at the forced location: a value, or nothing (the field left out). */
export type Leaf = { value: unknown } | { omit: true };

const MAX_DEPTH = 24;
const FILLER = "…";

function firstAlternative(schema: unknown, root: SchemaRoot): { alt: Alternative | undefined; nullable: boolean } {
  const view = viewSchema(schema, "", root);
  return { alt: view.alternatives[0], nullable: view.nullable };
}

/** A string of exactly `length` characters. */
export function stringOfLength(length: number): string {
  return "x".repeat(Math.max(0, length));
}

function sampleString(s: JsonSchemaObject): string {
  const format = typeof s.format === "string" ? s.format : "";
  let text =
    format === "uri" || format === "url" || format === "uri-reference" || format === "iri"
      ? "https://example.com/input.png"
      : format === "date-time"
        ? "2026-01-01T00:00:00Z"
        : format === "date"
          ? "2026-01-01"
          : format === "email"
            ? "user@example.com"
            : format === "uuid"
              ? "00000000-0000-4000-8000-000000000000"
              : FILLER;
  if (typeof s.minLength === "number" && text.length < s.minLength)
    text = text + stringOfLength(s.minLength - text.length);
  if (typeof s.maxLength === "number" && text.length > s.maxLength) text = text.slice(0, s.maxLength);
  return text;
}

function sampleNumber(s: JsonSchemaObject, integer: boolean): number {
  const step = integer ? 1 : 0.5;
  const low =
    typeof s.minimum === "number"
      ? s.minimum
      : typeof s.exclusiveMinimum === "number"
        ? s.exclusiveMinimum + step
        : undefined;
  const high =
    typeof s.maximum === "number"
      ? s.maximum
      : typeof s.exclusiveMaximum === "number"
        ? s.exclusiveMaximum - step
        : undefined;
  const value = low ?? (high !== undefined && high < 0 ? high : 0);
  return integer ? Math.ceil(value) : value;
}

/** The simplest value of `schema`, of `type` when given; undefined when there is none (`false`). */
export function sampleValue(schema: unknown, root: SchemaRoot, type?: string, depth = 0): unknown {
  if (depth > MAX_DEPTH) return null;
  const { alt, nullable } = firstAlternative(schema, root);
  if (type === "null") return null;
  if (alt === undefined) return nullable ? null : undefined;
  const s = alt.schema;
  const values = Array.isArray(s.enum) ? s.enum : "const" in s ? [s.const] : undefined;
  if (values !== undefined)
    return values.find((v) => type === undefined || acceptsType([type], jsonType(v))) ?? values[0];
  const types = typesOf(s);
  const chosen =
    type ?? types?.[0] ?? (isSchemaObject(s.properties) ? "object" : s.items !== undefined ? "array" : "string");
  switch (chosen) {
    case "string":
      return sampleString(s);
    case "integer":
    case "number":
      return sampleNumber(s, chosen === "integer");
    case "boolean":
      return true;
    case "array": {
      const count = typeof s.minItems === "number" ? s.minItems : 0;
      return Array.from({ length: count }, () => sampleValue(s.items ?? {}, root, undefined, depth + 1));
    }
    case "object":
      return sampleObject(s, root, [], undefined, depth);
    default:
      return null;
  }
}

function sampleObject(
  s: JsonSchemaObject,
  root: SchemaRoot,
  path: readonly string[],
  leaf: Leaf | undefined,
  depth: number,
): Record<string, unknown> {
  const props = isSchemaObject(s.properties) ? s.properties : {};
  const required = Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === "string") : [];
  const forced = path[0];
  const out: Record<string, unknown> = {};
  const names = [...new Set([...Object.keys(props), ...required])].filter((n) => required.includes(n) || n === forced);
  if (forced !== undefined && !names.includes(forced)) names.push(forced);
  for (const name of names) {
    if (name === forced) {
      if (path.length === 1 && leaf !== undefined && "omit" in leaf) continue;
      defineOwn(out, name, forcedValue(props[name] ?? {}, root, path.slice(1), leaf!, depth + 1));
    } else {
      defineOwn(out, name, sampleValue(props[name] ?? {}, root, undefined, depth + 1));
    }
  }
  return out;
}

/**
 * A minimal value of `schema` with `leaf` at `path` (payload tokens, `*` for an array item).
 * The alternative chosen at each level is the first one that can hold the path.
 */
export function forcedValue(
  schema: unknown,
  root: SchemaRoot,
  path: readonly string[],
  leaf: Leaf,
  depth = 0,
): unknown {
  if (path.length === 0) return "value" in leaf ? leaf.value : undefined;
  if (depth > MAX_DEPTH) return null;
  const view = viewSchema(schema, "", root);
  const next = path[0]!;
  const fits = (a: Alternative): boolean =>
    next === "*"
      ? a.schema.items !== undefined || acceptsType(typesOf(a.schema), "array")
      : (isSchemaObject(a.schema.properties) && next in a.schema.properties) ||
        acceptsType(typesOf(a.schema), "object");
  const alt = view.alternatives.find(fits);
  if (alt === undefined) return sampleValue(schema, root, undefined, depth);
  if (next === "*") {
    const items = alt.schema.items ?? {};
    const first = path.length === 1 && "omit" in leaf ? [] : [forcedValue(items, root, path.slice(1), leaf, depth + 1)];
    const count = typeof alt.schema.minItems === "number" ? alt.schema.minItems : 0;
    while (first.length < count) first.push(sampleValue(items, root, undefined, depth + 1));
    return first;
  }
  return sampleObject(alt.schema, root, path, leaf, depth);
}
