/**
 * A shortcut for one half of an example's check, "the rejecting side's schema rejects this
 * payload" (docs/drift.md, "Speed"): decided from the subschemas at the change's payload
 * location alone, each compiled apart and shared by every endpoint where it reads the same,
 * instead of compiling each endpoint's whole schema. `true` means the whole schema rejects the
 * payload; `false` means "not known here", and the caller compiles the whole schema.
 *
 * Why `true` is right: the subschemas reached from the root through `properties`, `items`
 * (without `prefixItems`), `allOf` and local `$ref`s apply to every value at that location (JSON
 * Schema 2020-12, sections 10.2 and 10.3), and each must accept it for the whole schema to accept
 * the payload. So one of them rejecting a value there (or a `required` there missing the omitted
 * property) rejects the payload. Every other keyword is left out, which can only leave a
 * rejection unknown, never invent one.
 */
import type { ValidateFunction } from "ajv";
import { defineOwn, forEachSchema, isSchemaObject, type JsonSchema, type JsonSchemaObject } from "../schema/index.js";
import type { Leaf } from "./sample.js";
import { UNLISTED } from "./diff/index.js";
import { resolveRefAt, type SchemaRoot } from "./view.js";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const hasOwn = (v: object, key: string): boolean => Object.prototype.hasOwnProperty.call(v, key);

/** `node` and what applies wherever it applies: the members of its `allOf` and its `$ref`'s target, recursively. */
function collect(node: unknown, root: SchemaRoot, out: JsonSchema[], seen: Set<unknown>): void {
  if (seen.has(node) || (typeof node !== "boolean" && !isSchemaObject(node))) return;
  seen.add(node);
  out.push(node);
  if (!isSchemaObject(node)) return;
  if (typeof node.$ref === "string") {
    const target = resolveRefAt(root, node.$ref);
    if (target !== undefined) collect(target.schema, root, out, seen);
  }
  if (Array.isArray(node.allOf)) for (const member of node.allOf) collect(member, root, out, seen);
}

/** The subschemas that apply to the values at `token` below values where `nodes` apply. */
function step(nodes: readonly JsonSchema[], token: string, root: SchemaRoot): JsonSchema[] {
  const out: JsonSchema[] = [];
  const seen = new Set<unknown>();
  for (const node of nodes) {
    if (!isSchemaObject(node)) continue;
    if (token === "*") {
      // `items` applies to every item only when no `prefixItems` takes the first ones
      if (node.prefixItems === undefined) collect(node.items, root, out, seen);
    } else if (isSchemaObject(node.properties) && hasOwn(node.properties, token)) {
      collect(node.properties[token], root, out, seen);
    }
  }
  return out;
}

/** The values at `token` below `values`, as the keywords above see them: own properties of objects, items of arrays. */
function valuesAt(values: readonly unknown[], token: string): unknown[] {
  if (token === "*") return values.flatMap((v) => (Array.isArray(v) ? v : []));
  return values.filter((v) => isObject(v) && hasOwn(v, token)).map((v) => (v as Record<string, unknown>)[token]);
}

/**
 * `{unlisted}`: the `additionalProperties` schemas of the objects here. One applies to every
 * property its object neither lists nor matches by a pattern, so an object with
 * `patternProperties` is left out (which can only leave a rejection unknown).
 */
function stepUnlisted(nodes: readonly JsonSchema[], root: SchemaRoot): JsonSchema[] {
  const out: JsonSchema[] = [];
  const seen = new Set<unknown>();
  for (const node of nodes)
    if (isSchemaObject(node) && node.patternProperties === undefined && node.additionalProperties !== undefined)
      collect(node.additionalProperties, root, out, seen);
  return out;
}

/** The values of the properties of `values` that no object schema in `nodes` lists (so each one's `additionalProperties` applies). */
function unlistedValues(values: readonly unknown[], nodes: readonly JsonSchema[]): unknown[] {
  const listed = new Set<string>();
  for (const node of nodes)
    if (isSchemaObject(node) && isSchemaObject(node.properties))
      for (const k of Object.keys(node.properties)) listed.add(k);
  return values.flatMap((v) =>
    isObject(v)
      ? Object.keys(v)
          .filter((k) => !listed.has(k) && k !== "__proto__")
          .map((k) => v[k])
      : [],
  );
}

/** Keywords that make a subschema mean something else once taken out of its document. */
const ANCHORED = ["$id", "$anchor", "$dynamicAnchor", "$dynamicRef", "$recursiveRef", "$recursiveAnchor"];

/** `standalone`'s memory: loaded schemas are never changed, and a subschema belongs to one root. */
const STANDALONE = new WeakMap<JsonSchemaObject, { root: JsonSchemaObject; alone: JsonSchemaObject | null }>();

/**
 * `node` as a schema of its own: with the definitions of the root it reaches (`#/$defs/<name>…`),
 * or undefined when it refers to anything else (the root itself, an anchor, another document).
 */
function standalone(node: JsonSchemaObject, root: SchemaRoot): JsonSchemaObject | undefined {
  const known = STANDALONE.get(node);
  if (known !== undefined && known.root === root.schema) return known.alone ?? undefined;
  const alone = makeStandalone(node, root);
  STANDALONE.set(node, { root: root.schema, alone: alone ?? null });
  return alone;
}

function makeStandalone(node: JsonSchemaObject, root: SchemaRoot): JsonSchemaObject | undefined {
  if (hasOwn(node, "$defs") || hasOwn(node, "definitions") || hasOwn(node, "$schema")) return undefined;
  const defs = isSchemaObject(root.schema.$defs) ? root.schema.$defs : {};
  const reached = new Set<string>();
  const queue: unknown[] = [node];
  let alone = true;
  while (queue.length > 0 && alone) {
    forEachSchema(queue.pop(), (n) => {
      if (ANCHORED.some((k) => hasOwn(n, k))) alone = false;
      const ref = n.$ref;
      if (ref === undefined) return;
      const name = typeof ref === "string" && ref.startsWith("#/$defs/") ? ref.slice(8).split("/")[0]! : undefined;
      // a name with `~` escapes is left to the whole schema
      if (name === undefined || name.includes("~") || !hasOwn(defs, name)) alone = false;
      else if (!reached.has(name)) {
        reached.add(name);
        queue.push(defs[name]);
      }
    });
  }
  if (!alone) return undefined;
  if (reached.size === 0) return node;
  const own: JsonSchemaObject = {};
  for (const name of [...reached].sort()) defineOwn(own, name, defs[name]);
  return { ...node, $defs: own };
}

/**
 * Whether the schema of `root` surely rejects `payload`, which holds `leaf` at `field` (`*` for
 * an array item, `{unlisted}` for the properties an object does not list); `validatorOf` compiles a subschema taken out on its own (null when it cannot).
 */
export function surelyRejects(
  root: SchemaRoot,
  payload: unknown,
  field: readonly string[],
  leaf: Leaf,
  validatorOf: (node: JsonSchemaObject) => ValidateFunction | null,
): boolean {
  // Ajv's `properties` skips a property named __proto__: only the whole schema can tell
  if (field.includes("__proto__")) return false;
  const omitted = "omit" in leaf ? field.at(-1) : undefined;
  if ("omit" in leaf && (omitted === undefined || omitted === "*")) return false;
  const path = omitted === undefined ? field : field.slice(0, -1);
  let nodes: JsonSchema[] = [];
  collect(root.schema, root, nodes, new Set());
  let values: unknown[] = [payload];
  for (const token of path) {
    if (token === UNLISTED) {
      // before stepping: the names the objects here list, which `additionalProperties` skips
      values = unlistedValues(values, nodes);
      nodes = stepUnlisted(nodes, root);
      if (nodes.length === 0 || values.length === 0) return false;
      continue;
    }
    nodes = step(nodes, token, root);
    values = valuesAt(values, token);
    if (nodes.length === 0 || values.length === 0) return false;
  }
  if (omitted !== undefined)
    return (
      values.some((v) => isObject(v) && !hasOwn(v, omitted)) &&
      nodes.some((n) => isSchemaObject(n) && Array.isArray(n.required) && n.required.includes(omitted))
    );
  for (const node of nodes) {
    if (node === false) return true;
    if (!isSchemaObject(node)) continue;
    const alone = standalone(node, root);
    if (alone === undefined) continue;
    const validate = validatorOf(alone);
    if (validate !== null && values.some((v) => !validate(v))) return true;
  }
  return false;
}
