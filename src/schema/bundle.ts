/**
 * An endpoint's schema made self-contained: OpenAPI reference objects followed, component
 * references rewritten to `#/$defs/<name>` with the components reached copied into `$defs`, and
 * every local `$ref` of the result checked to resolve (no dangling reference, no cycle of references
 * that never reaches a schema).
 */
import { SchemaLoadError } from "./load-error.js";
import { normalizeNullable } from "./nullable.js";
import { formatPointer, getAt } from "../json/index.js";
import { refTokens, resolveRef } from "./ref.js";
import type { JsonSchema, JsonSchemaObject, ModelSchema, SchemaOrigin } from "./types.js";
import { upgrade30 } from "./upgrade-30.js";
import { isSchemaObject, transformSchema, defineOwn, forEachSchema } from "./walk.js";

const COMPONENT_PREFIX = "#/components/schemas/";

const DIALECT_2020 = "https://json-schema.org/draft/2020-12/schema";

/** Resolves an OpenAPI reference object (`{$ref}`) to what it points at inside the document. */
export function deref(
  doc: JsonSchemaObject,
  value: unknown,
  at: string[],
  origin: SchemaOrigin,
): { value: unknown; at: string[] } {
  let current = value;
  let where = at;
  for (let hops = 0; hops < 16 && isSchemaObject(current) && typeof current.$ref === "string"; hops++) {
    const ref = current.$ref;
    const tokens = ref.startsWith("#/") ? refTokens(ref) : undefined;
    if (tokens === undefined)
      throw new SchemaLoadError(
        origin,
        formatPointer([...where, "$ref"]),
        `external reference "${ref}" is not supported; inline it or point into this document`,
      );
    const target = getAt(doc, tokens);
    if (target === undefined)
      throw new SchemaLoadError(
        origin,
        formatPointer([...where, "$ref"]),
        `reference "${ref}" points at nothing in the document`,
      );
    current = target;
    where = tokens;
  }
  return { value: current, at: where };
}

/**
 * Makes a self-contained JSON Schema from `root` (found at `rootAt` in the document):
 * component references become `#/$defs/<name>`, and the components reached are copied into `$defs`.
 */
export function selfContained(
  doc: JsonSchemaObject,
  root: unknown,
  rootAt: string[],
  origin: SchemaOrigin,
  dialect: ModelSchema["dialect"],
  /** `refTargetPrefixes(doc)`, computed once per document */
  referenced: ReadonlySet<string>,
): JsonSchemaObject {
  const components = (getAt(doc, ["components", "schemas"]) ?? {}) as JsonSchemaObject;
  const reached = new Set<string>();
  const queue: Array<{ schema: unknown; at: string[] }> = [];

  const rewrite = (schema: unknown, at: string[]): JsonSchema =>
    transformSchema(schema as JsonSchema, (node, path) => {
      let out = dialect === "openapi-3.0" ? upgrade30(node) : node;
      // only OpenAPI 3.0's `nullable` asks whether a `$ref` points inside the node (one pointer per node costs)
      const inside =
        dialect === "openapi-3.0" && "nullable" in out && referenced.has(formatPointer([...at, ...path]) + "/");
      out = normalizeNullable(out, dialect, inside);
      const ref = out.$ref;
      if (typeof ref === "string") {
        const where = [...at, ...path, "$ref"];
        if (!ref.startsWith(COMPONENT_PREFIX)) {
          if (ref.startsWith("#/$defs/") || ref.startsWith("#/definitions/") || ref === "#") return out;
          throw new SchemaLoadError(
            origin,
            formatPointer(where),
            `reference "${ref}" is not supported: point at "${COMPONENT_PREFIX}<name>"`,
          );
        }
        const [name, ...rest] = refTokens(ref)!.slice(2) as [string, ...string[]];
        if (!Object.prototype.hasOwnProperty.call(components, name) || getAt(components[name], rest) === undefined) {
          throw new SchemaLoadError(
            origin,
            formatPointer(where),
            `reference "${ref}" points at nothing in the document (dangling $ref)`,
          );
        }
        if (!reached.has(name)) {
          reached.add(name);
          queue.push({ schema: components[name], at: ["components", "schemas", name] });
        }
        out = { ...out, $ref: "#" + formatPointer(["$defs", name, ...rest]) };
      }
      return out;
    });

  // A root that only references a component is that component: inline it (keeps its title).
  let top = root;
  let topAt = rootAt;
  if (
    isSchemaObject(root) &&
    typeof root.$ref === "string" &&
    root.$ref.startsWith(COMPONENT_PREFIX) &&
    Object.keys(root).every((k) => k === "$ref" || k === "description" || k === "title")
  ) {
    const resolved = deref(doc, root, rootAt, origin);
    top = resolved.value;
    topAt = resolved.at;
  }
  const rootSchema = rewrite(top, topAt);
  const defs: JsonSchemaObject = {};
  while (queue.length > 0) {
    const next = queue.shift()!;
    const name = next.at[2]!;
    defineOwn(defs, name, rewrite(next.schema, next.at));
  }
  const body: JsonSchemaObject = isSchemaObject(rootSchema) ? { ...rootSchema } : rootSchema ? {} : { not: {} };
  const sortedDefs: JsonSchemaObject = {};
  for (const name of Object.keys(defs).sort()) defineOwn(sortedDefs, name, defs[name]);
  const result: JsonSchemaObject = {
    $schema: DIALECT_2020,
    ...body,
    ...(reached.size > 0 ? { $defs: sortedDefs } : {}),
  };
  assertRefsResolve(result, origin, rootAt);
  return result;
}

/**
 * Where local `$ref`s anywhere in the document point, as the set of every prefix ending at a
 * token boundary (`/components/`, `/components/schemas/`, … for `#/components/schemas/A/…`):
 * "does a `$ref` point inside the node at pointer P" is then one look-up of `P + "/"`. One walk
 * of the document, not one per endpoint and direction.
 */
export function refTargetPrefixes(doc: unknown): Set<string> {
  const prefixes = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (isSchemaObject(value)) {
      if (typeof value.$ref === "string" && value.$ref.startsWith("#/")) {
        const target = value.$ref.slice(1);
        for (let i = target.indexOf("/"); i >= 0; i = target.indexOf("/", i + 1)) prefixes.add(target.slice(0, i + 1));
      }
      Object.values(value).forEach(visit);
    }
  };
  visit(doc);
  return prefixes;
}

/** Every local `$ref` of a self-contained schema must point at something inside it. */
function assertRefsResolve(schema: JsonSchemaObject, origin: SchemaOrigin, rootAt: string[]): void {
  forEachSchema(schema, (node, path) => {
    const ref = node.$ref;
    if (typeof ref !== "string" || (ref !== "#" && !ref.startsWith("#/"))) return; // an anchor: Ajv resolves it or says so
    // where the reference stands in the published document
    const where = (): string =>
      formatPointer([
        ...(path[0] === "$defs" ? ["components", "schemas", ...path.slice(1)] : [...rootAt, ...path]),
        "$ref",
      ]);
    // a chain of references that never reaches a schema (A -> B -> A) describes nothing
    const seen = new Set<string>([ref]);
    let target = resolveRef(schema, ref);
    while (isSchemaObject(target) && typeof target.$ref === "string" && Object.keys(target).length === 1) {
      const next = target.$ref;
      if (seen.has(next))
        throw new SchemaLoadError(
          origin,
          where(),
          `reference "${ref}" leads to a cycle of references that never reaches a schema`,
        );
      seen.add(next);
      target = resolveRef(schema, next);
    }
    if (resolveRef(schema, ref) === undefined) {
      throw new SchemaLoadError(
        origin,
        where(),
        `reference "${ref}" does not resolve once the endpoint's schema is made self-contained (it points into a component that was rewritten or outside the components); point at "${COMPONENT_PREFIX}<name>" instead`,
      );
    }
  });
}
