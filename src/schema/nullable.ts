import type { JsonSchemaObject } from "./types.js";
import { defineOwn } from "./walk.js";

/** Keywords that only annotate (they never change what a schema accepts). */
export const ANNOTATIONS: ReadonlySet<string> = new Set([
  "title",
  "description",
  "default",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
  "$comment",
]);

/**
 * Keywords that constrain only values of their own type, so that `{type: [T, "null"], k}` and
 * `anyOf: [{type: T, k}, {type: "null"}]` accept exactly the same values. Keywords holding
 * subschemas are left out on purpose: moving them would break a `$ref` that points into them.
 */
const TYPE_SPECIFIC = new Set([
  "type",
  "format",
  "minLength",
  "maxLength",
  "pattern",
  "contentEncoding",
  "contentMediaType",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minContains",
  "maxContains",
  "required",
  "minProperties",
  "maxProperties",
  "dependentRequired",
]);

/** Keywords whose values are subschemas: moving them would break a `$ref` into them. */
const HOLDS_SUBSCHEMAS = new Set([
  "properties",
  "patternProperties",
  "additionalProperties",
  "propertyNames",
  "dependentSchemas",
  "items",
  "prefixItems",
  "contains",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
  "$defs",
  "definitions",
]);

export const NULL_SCHEMA: JsonSchemaObject = Object.freeze({ type: "null" }) as JsonSchemaObject;

function isNullSchema(s: unknown): boolean {
  return typeof s === "object" && s !== null && (s as JsonSchemaObject).type === "null" && Object.keys(s).length === 1;
}

/** `anyOf: [X, {type: "null"}]`: the one form of nullability every stage reads (spec 4.4 "nullable"). */
function wrapNullable(rest: JsonSchemaObject): JsonSchemaObject {
  const outer: JsonSchemaObject = {};
  const inner: JsonSchemaObject = {};
  for (const [k, v] of Object.entries(rest)) defineOwn(ANNOTATIONS.has(k) ? outer : inner, k, v);
  outer.anyOf = [inner, { type: "null" }];
  return outer;
}

/**
 * Rewrites the ways nullability is written into `anyOf: [X, {type: "null"}]`:
 * OpenAPI 3.0's `nullable: true`, and `type: [T, "null"]` where the rewrite keeps the meaning
 * (only type-specific keywords beside it). Anything else is left as it is.
 */
export function normalizeNullable(
  node: JsonSchemaObject,
  dialect: "openapi-3.0" | "openapi-3.1",
  /** a `$ref` points inside this node: its subschemas must stay where they are */
  referencedInside = false,
): JsonSchemaObject {
  if (dialect === "openapi-3.0" && "nullable" in node) {
    const { nullable, ...rest } = node;
    if (nullable !== true) return rest;
    if (Array.isArray(rest.anyOf) && rest.anyOf.some(isNullSchema)) return rest;
    // A $ref points into it: its subschemas stay where they are, and null joins the type instead.
    if (referencedInside && Object.keys(rest).some((k) => HOLDS_SUBSCHEMAS.has(k)) && typeof rest.type === "string") {
      const withNull: JsonSchemaObject = { ...rest, type: [rest.type, "null"] };
      if (Array.isArray(rest.enum) && !rest.enum.includes(null)) withNull.enum = [...rest.enum, null];
      return withNull;
    }
    return wrapNullable(rest);
  }
  const type = node.type;
  if (Array.isArray(type) && type.includes("null") && type.length > 1) {
    const others = type.filter((t) => t !== "null");
    const keys = Object.keys(node).filter((k) => !ANNOTATIONS.has(k));
    if (!keys.every((k) => TYPE_SPECIFIC.has(k))) return node;
    const rest: JsonSchemaObject = { ...node, type: others.length === 1 ? others[0] : others };
    return wrapNullable(rest);
  }
  return node;
}

/** True when the schema is the canonical nullable form; returns the non-null branch. */
export function nullableInner(schema: unknown): JsonSchemaObject | undefined {
  if (typeof schema !== "object" || schema === null) return undefined;
  const anyOf = (schema as JsonSchemaObject).anyOf;
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return undefined;
  const [a, b] = anyOf as unknown[];
  if (isNullSchema(b)) return a as JsonSchemaObject;
  if (isNullSchema(a)) return b as JsonSchemaObject;
  return undefined;
}
