/**
 * What a rule kind looks for in an endpoint's input schema: its top-level fields, their JSON
 * types, the items of an array. Every rule decides from these whether it applies ("shape
 * match"), so rules follow the endpoint's schema, never a model's id or alias. Pure functions
 * over a normalized `EndpointModel` input (nullability is `anyOf: [X, {type: "null"}]`, `$ref`s
 * point into the schema's own `$defs`).
 */
import { followRef, isSchemaObject, nullableInner, type JsonSchemaObject } from "../schema/index.js";

/** Why a rule does not fit an endpoint: the field it looked for, what it needs, what is there. */
export interface Misfit {
  misfit: true;
  /** `duration`, `keyframes[].frame_index` */
  field: string;
  /** "an integer with minimum -1" */
  needs: string;
  /** "no such field", "minimum 0", "type string" */
  found: string;
}

export function misfit(field: string, needs: string, found: string): Misfit {
  return { misfit: true, field, needs, found };
}

export function isMisfit(value: unknown): value is Misfit {
  return isSchemaObject(value) && value.misfit === true;
}

/** The schema of a top-level input field as declared (annotations such as `default` sit here). */
export function declaredField(input: JsonSchemaObject, name: string): JsonSchemaObject | undefined {
  const properties = isSchemaObject(input.properties) ? input.properties : {};
  if (!Object.prototype.hasOwnProperty.call(properties, name)) return undefined;
  const schema = properties[name];
  return isSchemaObject(schema) ? schema : undefined;
}

/** The non-null form of a field (where its type and bounds sit), with a `$ref` followed. */
export function valueSchema(root: JsonSchemaObject, schema: JsonSchemaObject): JsonSchemaObject | undefined {
  const direct = followRef(root, schema);
  if (direct === undefined) return undefined;
  const inner = nullableInner(direct);
  return inner === undefined ? direct : followRef(root, inner);
}

/**
 * The JSON types a schema admits at its top (`type`, or the union over `anyOf`/`oneOf`
 * branches, e.g. "URI or any string" is `string`); `integer` counts as admitted by `number`.
 * Empty when the schema does not say.
 */
export function typesOf(root: JsonSchemaObject, schema: JsonSchemaObject): Set<string> {
  const resolved = followRef(root, schema);
  const out = new Set<string>();
  if (resolved === undefined) return out;
  const type = resolved.type;
  if (typeof type === "string") out.add(type);
  else if (Array.isArray(type)) for (const t of type) if (typeof t === "string") out.add(t);
  for (const key of ["anyOf", "oneOf"] as const) {
    const branches = resolved[key];
    if (Array.isArray(branches))
      for (const branch of branches) if (isSchemaObject(branch)) for (const t of typesOf(root, branch)) out.add(t);
  }
  return out;
}

/** "type integer", "types integer, string", "no type": what a misfit found. */
export function describeTypes(types: ReadonlySet<string>): string {
  if (types.size === 0) return "no type";
  return `type${types.size === 1 ? "" : "s"} ${[...types].sort().join(", ")}`;
}

/** A top-level field whose non-null form has exactly the JSON type `type` (a nullable field fits). */
export function fieldOfType(
  input: JsonSchemaObject,
  name: string,
  type: "integer" | "boolean" | "array",
): { declared: JsonSchemaObject; value: JsonSchemaObject } | Misfit {
  const needs = type === "integer" ? "an integer" : type === "array" ? "an array" : "a boolean";
  const declared = declaredField(input, name);
  if (declared === undefined) return misfit(name, needs, "no such field");
  const value = valueSchema(input, declared);
  const types = value === undefined ? new Set<string>() : typesOf(input, value);
  types.delete("null");
  if (value === undefined || types.size !== 1 || !types.has(type)) return misfit(name, needs, describeTypes(types));
  return { declared, value };
}

/** A top-level field that holds text: every form it admits is a string (or null). */
export function stringField(input: JsonSchemaObject, name: string): JsonSchemaObject | Misfit {
  const declared = declaredField(input, name);
  if (declared === undefined) return misfit(name, "a string", "no such field");
  const types = typesOf(input, declared);
  types.delete("null");
  if (types.size !== 1 || !types.has("string")) return misfit(name, "a string", describeTypes(types));
  return declared;
}

/**
 * `array[].field` where `array` is a top-level array of objects whose items have an integer
 * `field` (e.g. model A's `keyframes[].frame_index`, spec 2.2).
 */
export function integerItemField(input: JsonSchemaObject, array: string, field: string): Misfit | undefined {
  const list = fieldOfType(input, array, "array");
  if (isMisfit(list)) return misfit(array, `an array of objects with an integer ${field}`, list.found);
  const items = isSchemaObject(list.value.items) ? valueSchema(input, list.value.items) : undefined;
  const item = items === undefined ? undefined : declaredField(items, field);
  const label = `${array}[].${field}`;
  if (item === undefined) return misfit(label, "an integer", "no such field");
  const types = typesOf(input, item);
  if (types.size !== 1 || !types.has("integer")) return misfit(label, "an integer", describeTypes(types));
  return undefined;
}
