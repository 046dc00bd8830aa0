/**
 * Local `$ref`s (JSON Schema 2020-12 section 8.2.3.1, OpenAPI 3.x reference objects), the one
 * resolver of the toolkit: the loader, drift's view, the mock's sample outputs, the rules' shape
 * matching and the editor schemas read a reference through here. Only references inside the
 * document (`#` and `#/…`); external ones are the loader's to refuse (src/schema/load.ts).
 */
import { getAt, parsePointer } from "../json/index.js";
import type { JsonSchemaObject } from "./types.js";
import { isSchemaObject } from "./walk.js";

/** The tokens of a local reference: `#` is `[]`, `#/$defs/a~1b` is `["$defs", "a/b"]`; undefined for any other. */
export function refTokens(ref: string): string[] | undefined {
  return ref === "#" || ref.startsWith("#/") ? parsePointer(ref.slice(1)) : undefined;
}

/** What a local reference points at inside `root` (own members only), or undefined. */
export function resolveRef(root: unknown, ref: string): unknown {
  const tokens = refTokens(ref);
  return tokens === undefined ? undefined : getAt(root, tokens);
}

/**
 * `schema` itself, or, when it is a `$ref`, the schema object the reference points at inside
 * `root` (one hop); undefined when it is no object or points at no object.
 */
export function followRef(root: unknown, schema: unknown): JsonSchemaObject | undefined {
  if (!isSchemaObject(schema)) return undefined;
  if (typeof schema.$ref !== "string") return schema;
  const target = resolveRef(root, schema.$ref);
  return isSchemaObject(target) ? target : undefined;
}

/**
 * Follows a chain of `$ref`s from `value` inside `root`, at most `maxHops` of them (a cycle
 * ends there): what the last one points at, which may itself be a `$ref` when the chain is longer.
 */
export function followRefs(root: unknown, value: unknown, maxHops: number): unknown {
  let current = value;
  for (let hops = 0; hops < maxHops && isSchemaObject(current) && typeof current.$ref === "string"; hops++)
    current = resolveRef(root, current.$ref);
  return current;
}
