/**
 * Emits the `Input` and `Output` types of one endpoint with json-schema-to-typescript.
 * Before compiling, the schema is prepared so that the output reads well: titles only on the
 * named types (no one-alias-per-title flood), `$defs` named after the endpoint, integer fields
 * and defaults stated in the doc comments, and closed objects (`additionalProperties: false`
 * option: the service describes no other fields, spec 4.1).
 */
import { compile } from "json-schema-to-typescript";
import { isSchemaObject, PROTOTYPE_MEMBERS, transformSchema, type JsonSchemaObject } from "../schema/index.js";

/**
 * json-schema-to-typescript calls `schema.hasOwnProperty(…)` on every object of the schema, so a
 * property named `hasOwnProperty` (or another Object.prototype member) crashes it: such names
 * go in as `PLACEHOLDER + name` and come out restored (`__proto__` is handled as it is).
 */
const PLACEHOLDER = "vsk__prototypeMember__";
const PLACEHOLDERS = new RegExp(`\\b${PLACEHOLDER}(\\w+)\\b`, "g");
const placeholder = (name: string): string =>
  PROTOTYPE_MEMBERS.has(name) && name !== "__proto__" ? PLACEHOLDER + name : name;

function withPlaceholders(node: JsonSchemaObject): JsonSchemaObject {
  const props = node.properties;
  if (!isSchemaObject(props) || !Object.keys(props).some((k) => placeholder(k) !== k)) return node;
  const renamed: JsonSchemaObject = {};
  for (const [k, v] of Object.entries(props))
    Object.defineProperty(renamed, placeholder(k), { value: v, enumerable: true, writable: true, configurable: true });
  const required = Array.isArray(node.required)
    ? { required: node.required.map((r) => (typeof r === "string" ? placeholder(r) : r)) }
    : {};
  return { ...node, properties: renamed, ...required };
}

function describeConstraints(node: JsonSchemaObject): string[] {
  const lines: string[] = [];
  if (node.type === "integer") {
    const { minimum: min, maximum: max } = node;
    const range =
      typeof min === "number" && typeof max === "number"
        ? ` from ${min} to ${max}`
        : typeof min === "number"
          ? `, at least ${min}`
          : typeof max === "number"
            ? `, at most ${max}`
            : "";
    lines.push(`Integer${range}.`);
  } else if (typeof node.minimum === "number" || typeof node.maximum === "number") {
    lines.push(`Number from ${String(node.minimum ?? "-∞")} to ${String(node.maximum ?? "∞")}.`);
  }
  if (typeof node.maxLength === "number" || typeof node.minLength === "number")
    lines.push(`Length ${String(node.minLength ?? 0)} to ${String(node.maxLength ?? "∞")} characters.`);
  if (typeof node.maxItems === "number") lines.push(`At most ${node.maxItems} items.`);
  if (typeof node.format === "string") lines.push(`Format: ${node.format}.`);
  return lines;
}

/** The forms an `anyOf` admits, nested `anyOf`s flattened (nullable "URI or any string"). */
function branchesOf(node: JsonSchemaObject): JsonSchemaObject[] {
  if (!Array.isArray(node.anyOf)) return [];
  return (node.anyOf as unknown[])
    .filter(isSchemaObject)
    .flatMap((b) => (Array.isArray(b.anyOf) ? branchesOf(b) : [b]));
}

/** `{type: "string"}` and nothing that narrows it. */
function isPlain(node: JsonSchemaObject): boolean {
  const narrowing = Object.keys(node).filter((k) => !["type", "title", "description"].includes(k));
  return typeof node.type === "string" && node.type !== "null" && narrowing.length === 0;
}

/** Doc comment text of a property: the description, its integer-ness and bounds, its default. */
function documented(node: JsonSchemaObject): JsonSchemaObject {
  const inner = branchesOf(node);
  const parts: string[] = [];
  if (typeof node.description === "string") parts.push(node.description);
  // a form beside a plain `{type: T}` ("URI or any string", spec 2.2) binds nothing: say so
  const plain = new Set(inner.filter(isPlain).map((s) => s.type));
  const constraints = [
    ...describeConstraints(node),
    ...inner.flatMap((s) => {
      const said = describeConstraints(s);
      if (said.length === 0 || !plain.has(s.type)) return said;
      const other = `Any other ${String(s.type)} is accepted too${s.type === "string" ? ', "" included' : ""}.`;
      return [`Expected: ${said.join(" ")} ${other}`];
    }),
  ];
  if (inner.some((s) => s.type === "null")) constraints.push("May be null.");
  if (constraints.length > 0) parts.push(constraints.join(" "));
  if ("default" in node) parts.push(`@default ${JSON.stringify(node.default)}`);
  if (parts.length === 0) return node;
  return { ...node, description: parts.join("\n\n") };
}

/** Prepares a self-contained endpoint schema for json-schema-to-typescript. */
export function prepareForTypes(schema: JsonSchemaObject, rootName: string, defPrefix: string): JsonSchemaObject {
  const renamed = new Map<string, string>();
  const defs = isSchemaObject(schema.$defs) ? schema.$defs : {};
  for (const name of Object.keys(defs)) renamed.set(name, defPrefix + name.replace(/[^A-Za-z0-9]+/g, ""));
  const prepared = transformSchema(schema, (node, path) => {
    const isRoot = path.length === 0;
    const isDef = path.length === 2 && path[0] === "$defs";
    const { title: _title, ...rest } = node;
    let out: JsonSchemaObject = rest;
    // `{$ref, description}` would become a copy of the referenced type: keep only the reference.
    if (typeof rest.$ref === "string" && !isRoot) out = { $ref: rest.$ref };
    else if (isRoot) out = { ...rest, title: rootName };
    else if (isDef) out = { ...rest, title: renamed.get(path[1]!) ?? path[1] };
    else if (path.at(-2) === "properties") out = documented(rest);
    return withPlaceholders(out);
  }) as JsonSchemaObject;
  return prepared;
}

/** The TypeScript declarations of one schema (unformatted; the caller runs prettier once). */
export async function emitTypes(schema: JsonSchemaObject, rootName: string, defPrefix: string): Promise<string> {
  const prepared = prepareForTypes(schema, rootName, defPrefix);
  const code = await compile(prepared as never, rootName, {
    bannerComment: "",
    format: false,
    additionalProperties: false,
    declareExternallyReferenced: true,
    unreachableDefinitions: false,
    strictIndexSignatures: true,
    enableConstEnums: false,
    ignoreMinAndMaxItems: true,
    $refOptions: { resolve: { external: false } } as never,
  });
  return code.replace(PLACEHOLDERS, "$1");
}
