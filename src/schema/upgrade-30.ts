/**
 * OpenAPI 3.0 schemas read as JSON Schema 2020-12: the keywords whose meaning differs (the boolean
 * `exclusiveMinimum`/`exclusiveMaximum`, `example`); 3.0's `nullable` is src/schema/nullable.ts.
 */
import type { JsonSchemaObject } from "./types.js";

/** OpenAPI 3.0 keywords with a different meaning in JSON Schema 2020-12, rewritten to it. */
export function upgrade30(node: JsonSchemaObject): JsonSchemaObject {
  const out: JsonSchemaObject = { ...node };
  for (const [flag, bound] of [
    ["exclusiveMinimum", "minimum"],
    ["exclusiveMaximum", "maximum"],
  ] as const) {
    if (typeof out[flag] === "boolean") {
      if (out[flag] === true && typeof out[bound] === "number") {
        out[flag] = out[bound];
        delete out[bound];
      } else delete out[flag];
    }
  }
  if ("example" in out) {
    if (!("examples" in out)) out.examples = [out.example];
    delete out.example;
  }
  return out;
}
