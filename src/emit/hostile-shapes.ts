/**
 * Schema patterns and shapes `generate` refuses or rewrites. The super-linear pattern guard
 * lives in the schema stage (`src/schema/unsafe-patterns.ts`), shared with drift; it is re-exported here.
 */
import { formatPointer } from "../json/index.js";
import { defineOwn, isSchemaObject, transformSchema, forEachSchema } from "../schema/index.js";
import type { JsonSchemaObject } from "../schema/index.js";

export { findUnsafePattern, superLinearReason, type UnsafePattern } from "../schema/index.js";

/**
 * Ajv skips a property named `__proto__` in `properties` (its `allSchemaProperties`), so the
 * field would never be validated: it goes to `patternProperties` as `^__proto__$` instead,
 * which applies the same subschema to the same own key (and keeps it a known property).
 */
export function protoAsPatternProperty(schema: JsonSchemaObject): JsonSchemaObject {
  return transformSchema(schema, (node) => {
    const props = node.properties;
    if (!isSchemaObject(props) || !Object.prototype.hasOwnProperty.call(props, "__proto__")) return node;
    const pattern = isSchemaObject(node.patternProperties) ? node.patternProperties : {};
    if (Object.prototype.hasOwnProperty.call(pattern, "^__proto__$")) return node;
    const rest: JsonSchemaObject = {};
    for (const [k, v] of Object.entries(props)) if (k !== "__proto__") defineOwn(rest, k, v);
    const moved: JsonSchemaObject = {};
    for (const [k, v] of Object.entries(pattern)) defineOwn(moved, k, v);
    moved["^__proto__$"] = props["__proto__"];
    return { ...node, properties: rest, patternProperties: moved };
  }) as JsonSchemaObject;
}

/** Deeper schemas overflow the stack of prettier and of the consumer's `tsc` on the validator. */
export const MAX_SCHEMA_DEPTH = 64;

/** The JSON Pointer of the first subschema nested deeper than `MAX_SCHEMA_DEPTH` levels, if any. */
export function tooDeep(schema: JsonSchemaObject): string | undefined {
  let found: string | undefined;
  forEachSchema(schema, (_node, path) => {
    if (found !== undefined) return;
    // two reference tokens per level (`/properties/name`, `/anyOf/0`; `/items` counts one)
    if (path.length > 2 * MAX_SCHEMA_DEPTH) found = formatPointer(path);
  });
  return found;
}
