import type { JsonSchema, JsonSchemaObject } from "./types.js";

/** Keywords whose value is one subschema (draft 2020-12, plus OpenAPI 3.0's array `items`). */
const SINGLE = [
  "additionalProperties",
  "items",
  "contains",
  "propertyNames",
  "not",
  "if",
  "then",
  "else",
  "unevaluatedItems",
  "unevaluatedProperties",
  "contentSchema",
  "additionalItems",
] as const;
/** Keywords whose value is a list of subschemas. */
const LIST = ["allOf", "anyOf", "oneOf", "prefixItems"] as const;
/** Keywords whose value maps names to subschemas. */
const MAP = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"] as const;

export function isSchemaObject(value: unknown): value is JsonSchemaObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Rebuilds a schema bottom-up: `visit` receives each schema object after its subschemas were
 * rebuilt, with the path of reference tokens from the root. Values that are not schemas
 * (`enum`, `const`, `default`, `examples`) are copied as they are.
 */
export function transformSchema(
  schema: JsonSchema,
  visit: (node: JsonSchemaObject, path: readonly string[]) => JsonSchemaObject,
  path: readonly string[] = [],
): JsonSchema {
  if (!isSchemaObject(schema)) return schema;
  const out: JsonSchemaObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if ((SINGLE as readonly string[]).includes(key)) {
      if (Array.isArray(value))
        out[key] = value.map((s, i) => transformSchema(s as JsonSchema, visit, [...path, key, String(i)]));
      else out[key] = transformSchema(value as JsonSchema, visit, [...path, key]);
    } else if ((LIST as readonly string[]).includes(key) && Array.isArray(value)) {
      out[key] = value.map((s, i) => transformSchema(s as JsonSchema, visit, [...path, key, String(i)]));
    } else if ((MAP as readonly string[]).includes(key) && isSchemaObject(value)) {
      const map: JsonSchemaObject = {};
      for (const [name, sub] of Object.entries(value)) {
        defineOwn(map, name, transformSchema(sub as JsonSchema, visit, [...path, key, name]));
      }
      out[key] = map;
    } else {
      defineOwn(out, key, value);
    }
  }
  return visit(out, path);
}

/** Calls `visit` on every schema object in the tree, parents first. */
export function forEachSchema(
  schema: unknown,
  visit: (node: JsonSchemaObject, path: readonly string[]) => void,
  path: readonly string[] = [],
): void {
  if (!isSchemaObject(schema)) return;
  visit(schema, path);
  for (const [key, value] of Object.entries(schema)) {
    if ((SINGLE as readonly string[]).includes(key)) {
      if (Array.isArray(value)) value.forEach((s, i) => forEachSchema(s, visit, [...path, key, String(i)]));
      else forEachSchema(value, visit, [...path, key]);
    } else if ((LIST as readonly string[]).includes(key) && Array.isArray(value)) {
      value.forEach((s, i) => forEachSchema(s, visit, [...path, key, String(i)]));
    } else if ((MAP as readonly string[]).includes(key) && isSchemaObject(value)) {
      for (const [name, sub] of Object.entries(value)) forEachSchema(sub, visit, [...path, key, name]);
    }
  }
}

/** Sets a key even when it is `__proto__`, without touching the prototype. */
export function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  // Assignment makes an own data property for every key but `__proto__` (a setter), and is much faster.
  if (key === "__proto__")
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** Object.prototype's members: every JSON object "has" them, so they need own-property checks. */
export const PROTOTYPE_MEMBERS: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

/**
 * `node` with each of its subschemas replaced by `true`: what a meta-schema checks of this node
 * alone (it checks each subschema the same way), so a tree can be checked node by node and a node
 * met again (a shared definition) is checked once.
 */
export function shallowSchema(node: JsonSchemaObject): JsonSchemaObject {
  const out: JsonSchemaObject = {};
  for (const [key, value] of Object.entries(node)) {
    if ((SINGLE as readonly string[]).includes(key))
      defineOwn(out, key, Array.isArray(value) ? value.map(() => true) : isSubschema(value) ? true : value);
    else if ((LIST as readonly string[]).includes(key) && Array.isArray(value))
      defineOwn(
        out,
        key,
        value.map((v) => (isSubschema(v) ? true : v)),
      );
    else if ((MAP as readonly string[]).includes(key) && isSchemaObject(value)) {
      const map: JsonSchemaObject = {};
      for (const [name, sub] of Object.entries(value)) defineOwn(map, name, isSubschema(sub) ? true : sub);
      defineOwn(out, key, map);
    } else defineOwn(out, key, value);
  }
  return out;
}

/** A value a meta-schema accepts as a subschema: an object or a boolean (what `true` stands for). */
const isSubschema = (value: unknown): boolean => isSchemaObject(value) || typeof value === "boolean";
