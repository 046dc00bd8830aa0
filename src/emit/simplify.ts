/**
 * Rewrites a schema into one that accepts exactly the same values but validates faster.
 *
 * The rewrite: in an `anyOf`, a branch with the same single `type` as a bare `{type: T}` branch
 * can never change the outcome, so it is dropped. This is the spec's "URI or any string"
 * (`anyOf: [{type: string, format: uri, …}, {type: string}]`, spec 2.2, 4.4): any string is
 * valid, and the costly uri check disappears. Schemas that use `unevaluated*` or dynamic
 * references are left untouched, because there a dropped branch's annotations could matter;
 * so are schemas with a `$ref` whose JSON Pointer goes through an `anyOf` (dropping a branch
 * would make it dangle or, worse, point at the next branch).
 * The JSON Schema Test Suite (test/emit/json-schema-test-suite.test.ts) guards the meaning.
 */
import { ANNOTATIONS, forEachSchema, isSchemaObject, transformSchema, type JsonSchemaObject } from "../schema/index.js";

const ANNOTATION_SENSITIVE = new Set(["unevaluatedProperties", "unevaluatedItems", "$dynamicRef", "$recursiveRef"]);
const IDENTIFYING = new Set(["$id", "$anchor", "$dynamicAnchor", "$recursiveAnchor"]);

/** `{type: T}` with nothing but annotations beside it. */
function bareType(schema: unknown): string | undefined {
  if (!isSchemaObject(schema) || typeof schema.type !== "string") return undefined;
  return Object.keys(schema).every((k) => k === "type" || ANNOTATIONS.has(k)) ? schema.type : undefined;
}

/**
 * Whether any object anywhere in the value (not only under the keywords the walker knows, so
 * also subschemas under unknown keywords that a `$ref` may reach) has one of `keys`. Erring on
 * "yes" (e.g. a key inside an `enum` value) only skips the optimization.
 */
function mentionsAnywhere(value: unknown, keys: ReadonlySet<string>): boolean {
  if (Array.isArray(value)) return value.some((v) => mentionsAnywhere(v, keys));
  if (!isSchemaObject(value)) return false;
  return Object.keys(value).some((k) => keys.has(k)) || Object.values(value).some((v) => mentionsAnywhere(v, keys));
}

const REFERENCES = new Set(["$ref", "$dynamicRef", "$recursiveRef"]);

/** Whether some reference's JSON Pointer fragment steps through an `anyOf` (e.g. `#/$defs/a/anyOf/1`). */
function pointsIntoAnyOf(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(pointsIntoAnyOf);
  if (!isSchemaObject(value)) return false;
  for (const [k, v] of Object.entries(value)) {
    if (REFERENCES.has(k) && typeof v === "string") {
      const hash = v.indexOf("#");
      let fragment = hash < 0 ? "" : v.slice(hash + 1);
      try {
        fragment = decodeURIComponent(fragment);
      } catch {
        return true;
      }
      if (fragment.split("/").includes("anyOf")) return true;
    } else if (pointsIntoAnyOf(v)) return true;
  }
  return false;
}

function defines(schema: unknown, keys: ReadonlySet<string>): boolean {
  let found = false;
  forEachSchema(schema, (node) => {
    if (!found && Object.keys(node).some((k) => keys.has(k))) found = true;
  });
  return found;
}

export function simplifySchema(schema: JsonSchemaObject): JsonSchemaObject {
  if (mentionsAnywhere(schema, ANNOTATION_SENSITIVE) || pointsIntoAnyOf(schema)) return schema;
  const result = transformSchema(schema, (node) => {
    if (!Array.isArray(node.anyOf)) return node;
    const branches = node.anyOf as unknown[];
    const bare = new Set(branches.map(bareType).filter((t): t is string => t !== undefined));
    if (bare.size === 0) return node;
    const kept = branches.filter((b, i) => {
      if (!isSchemaObject(b) || typeof b.type !== "string" || !bare.has(b.type)) return true;
      if (bareType(b) !== undefined) return branches.findIndex((o) => bareType(o) === b.type) === i;
      return defines(b, IDENTIFYING);
    });
    if (kept.length === branches.length) return node;
    const { anyOf: _dropped, ...rest } = node;
    const only = kept.length === 1 ? kept[0] : undefined;
    if (isSchemaObject(only) && bareType(only) !== undefined && !("type" in rest)) {
      return { ...rest, type: only.type };
    }
    return { ...rest, anyOf: kept };
  });
  return result as JsonSchemaObject;
}
