/**
 * Rewrites a schema into one that accepts exactly the same values but validates faster.
 *
 * The rewrite: in an `anyOf`, a branch with the same single `type` as a bare `{type: T}` branch
 * can never change the outcome, so it is dropped. This is the spec's "URI or any string"
 * (`anyOf: [{type: string, format: uri, …}, {type: string}]`, spec 2.2, 4.4): any string is
 * valid, and the costly uri check disappears. Schemas that use `unevaluated*` or dynamic
 * references are left untouched, because there a dropped branch's annotations could matter.
 * The JSON Schema Test Suite (test/emit/json-schema-test-suite.test.ts) guards the meaning.
 */
import { forEachSchema, isSchemaObject, transformSchema, type JsonSchemaObject } from "../schema/index.js";

const ANNOTATIONS = new Set(["title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly", "$comment"]);
const ANNOTATION_SENSITIVE = new Set(["unevaluatedProperties", "unevaluatedItems", "$dynamicRef", "$recursiveRef"]);
const IDENTIFYING = new Set(["$id", "$anchor", "$dynamicAnchor", "$recursiveAnchor"]);

/** `{type: T}` with nothing but annotations beside it. */
function bareType(schema: unknown): string | undefined {
  if (!isSchemaObject(schema) || typeof schema.type !== "string") return undefined;
  return Object.keys(schema).every((k) => k === "type" || ANNOTATIONS.has(k)) ? schema.type : undefined;
}

function defines(schema: unknown, keys: ReadonlySet<string>): boolean {
  let found = false;
  forEachSchema(schema, (node) => {
    if (!found && Object.keys(node).some((k) => keys.has(k))) found = true;
  });
  return found;
}

export function simplifySchema(schema: JsonSchemaObject): JsonSchemaObject {
  if (defines(schema, ANNOTATION_SENSITIVE)) return schema;
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
