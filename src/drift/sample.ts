/**
 * Minimal payloads drawn from a schema: required fields only, each with the simplest value its
 * schema allows (the first enum value, the minimum, a short string). `forcing` puts a chosen
 * value at one payload location (or leaves that field out), building the objects and arrays
 * around it. The result is a candidate: `example.ts` checks it with Ajv before showing it.
 */
import { defineOwn, isSchemaObject, type JsonSchemaObject } from "../schema/index.js";
import { NAME_TOKEN, UNLISTED, type Trigger } from "./diff/index.js";
import {
  acceptsType,
  ifChecks,
  jsonType,
  listed,
  typesOf,
  viewSchema,
  type Alternative,
  type SchemaRoot,
} from "./view.js";

/** The name an example gives a property its object does not list. */
export const UNLISTED_NAME = "unlisted_property";

/** What goes at the forced location: a value, or nothing (the field left out). */
export type Leaf = { value: unknown } | { omit: true };

const MAX_DEPTH = 24;
const FILLER = "…";
/** The longest string and the longest array an example holds: a schema's bounds can be any number (2147483647, 1e8). */
export const MAX_EXAMPLE_SIZE = 10_000;
/** What one example may cost in all (values plus string characters): shared definitions make sampling exponential. */
const EXAMPLE_BUDGET = 2 * MAX_EXAMPLE_SIZE;

/** Thrown when an example would be larger than the caps: then there is no example. */
export class ExampleTooLarge extends Error {
  override name = "ExampleTooLarge";
}

/** What is left to spend on one example; every value and every string character costs one. */
export class SampleBudget {
  constructor(private left = EXAMPLE_BUDGET) {}
  spend(cost: number): void {
    if (!(cost >= 0 && cost <= MAX_EXAMPLE_SIZE) || (this.left -= cost) < 0)
      throw new ExampleTooLarge(`an example would be larger than ${MAX_EXAMPLE_SIZE} items or characters`);
  }
}

function firstAlternative(schema: unknown, root: SchemaRoot): { alt: Alternative | undefined; nullable: boolean } {
  const view = viewSchema(schema, "", root);
  return { alt: view.alternatives[0], nullable: view.nullable };
}

/** A string of exactly `length` characters; `ExampleTooLarge` past `MAX_EXAMPLE_SIZE`. */
export function stringOfLength(length: number, budget = new SampleBudget()): string {
  const n = Math.max(0, Math.floor(length));
  budget.spend(n);
  return "x".repeat(n);
}

/** `count` values made by `make(index)`; `ExampleTooLarge` past `MAX_EXAMPLE_SIZE`. */
export function arrayOfLength<T>(count: number, make: (index: number) => T, budget = new SampleBudget()): T[] {
  const n = Math.max(0, Math.floor(count));
  budget.spend(n);
  return Array.from({ length: n }, (_, i) => make(i));
}

function sampleString(s: JsonSchemaObject, budget: SampleBudget): string {
  const format = typeof s.format === "string" ? s.format : "";
  let text =
    format === "uri" || format === "url" || format === "uri-reference" || format === "iri"
      ? "https://example.com/input.png"
      : format === "date-time"
        ? "2026-01-01T00:00:00Z"
        : format === "date"
          ? "2026-01-01"
          : format === "email"
            ? "user@example.com"
            : format === "uuid"
              ? "00000000-0000-4000-8000-000000000000"
              : FILLER;
  if (typeof s.minLength === "number" && text.length < s.minLength)
    text = text + stringOfLength(s.minLength - text.length, budget);
  if (typeof s.maxLength === "number" && text.length > s.maxLength) text = text.slice(0, s.maxLength);
  return text;
}

/**
 * `variant` is the index of the array item being sampled: numbers step up by it (within their
 * bounds), so the items of a sampled array differ where they can (unique indexes, uniqueItems).
 */
function sampleNumber(s: JsonSchemaObject, integer: boolean, variant = 0): number {
  const step = integer ? 1 : 0.5;
  const low =
    typeof s.minimum === "number"
      ? s.minimum
      : typeof s.exclusiveMinimum === "number"
        ? s.exclusiveMinimum + step
        : undefined;
  const high =
    typeof s.maximum === "number"
      ? s.maximum
      : typeof s.exclusiveMaximum === "number"
        ? s.exclusiveMaximum - step
        : undefined;
  const base = low ?? (high !== undefined && high < 0 ? high : 0);
  const value = high === undefined || base + variant * step <= high ? base + variant * step : base;
  return integer ? Math.ceil(value) : value;
}

/** The simplest value of `schema`, of `type` when given; undefined when there is none (`false`). */
export function sampleValue(
  schema: unknown,
  root: SchemaRoot,
  type?: string,
  depth = 0,
  budget = new SampleBudget(),
  variant = 0,
): unknown {
  if (depth > MAX_DEPTH) return null;
  budget.spend(1);
  const { alt, nullable } = firstAlternative(schema, root);
  if (type === "null") return null;
  if (alt === undefined) return nullable ? null : undefined;
  const s = alt.schema;
  const values = listed(s);
  if (values !== undefined)
    return values.find((v) => type === undefined || acceptsType([type], jsonType(v))) ?? values[0];
  const types = typesOf(s);
  const chosen =
    type ?? types?.[0] ?? (isSchemaObject(s.properties) ? "object" : s.items !== undefined ? "array" : "string");
  switch (chosen) {
    case "string":
      return sampleString(s, budget);
    case "integer":
    case "number":
      return sampleNumber(s, chosen === "integer", variant);
    case "boolean":
      return true;
    case "array": {
      const count = typeof s.minItems === "number" ? s.minItems : 0;
      return arrayOfLength(count, (i) => sampleValue(s.items ?? {}, root, undefined, depth + 1, budget, i), budget);
    }
    case "object":
      return sampleObject(s, root, [], undefined, depth, budget, variant);
    default:
      return null;
  }
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((n): n is string => typeof n === "string") : []);

/**
 * The properties an object of `s` holding `names` must also hold (issue 29.2), added to `names`
 * with the schema each value is sampled from (the dependent schema's own, else the object's):
 * the `dependentRequired` lists of the names held, the `required` of their `dependentSchemas`
 * schemas, and the `required` of a `then` whose `if` the object is taken to pass (it holds every
 * property the `if` requires or lists); each schema found applies to the object too (and may
 * nest), until nothing more is required.
 */
function addDependents(s: JsonSchemaObject, names: string[], omitted: string | undefined): Map<string, unknown> {
  const own = (o: unknown, name: string): o is JsonSchemaObject => isSchemaObject(o) && Object.hasOwn(o, name);
  const from = new Map<string, unknown>();
  const applying = new Set([s]);
  const add = (name: string, schema: unknown): void => {
    if (names.includes(name)) return;
    names.push(name);
    from.set(name, schema);
  };
  const apply = (schema: unknown): void => {
    if (!isSchemaObject(schema)) return;
    applying.add(schema);
    const props = isSchemaObject(schema.properties) ? schema.properties : {};
    for (const n of strings(schema.required)) add(n, props[n]);
  };
  const held = (n: string): boolean => n !== omitted && names.includes(n);
  for (let size = -1; size !== names.length + applying.size;) {
    size = names.length + applying.size;
    for (const a of [...applying]) {
      for (const name of names.filter((n) => n !== omitted)) {
        if (own(a.dependentRequired, name)) for (const n of strings(a.dependentRequired[name])) add(n, undefined);
        if (own(a.dependentSchemas, name)) apply(a.dependentSchemas[name]);
      }
      const checked = ifChecks(a.if);
      if (a.then !== undefined && checked.length > 0 && checked.every(held)) apply(a.then);
    }
  }
  return from;
}

/** A property name a pattern may match, read off it: `^x_` gives `x_` (the example's Ajv check tells whether it does). */
export const nameMatching = (pattern: string): string => pattern.replace(/^\^|[$.*+?()[\]{}|\\]/g, "");

/** The property a path token stands for in an object, the schema of its value, and whether the leaf is its name. */
interface Forced {
  name: string;
  schema: unknown;
  /** `{name}`: the leaf is the property's name (`propertyNames`), its value sampled */
  leafIsName: boolean;
}

/**
 * What a path token names in an object of `s`: a listed property; `{unlisted}`, one the object
 * does not list, named as the extra-property example names it (`additionalProperties`);
 * `{/p/}`, one named after `p` (`patternProperties`); `{name}`, a property whose name is the
 * leaf (`propertyNames`), when the leaf is a string and the path ends there.
 */
function forcedProperty(s: JsonSchemaObject, path: readonly string[], leaf: Leaf | undefined): Forced | undefined {
  const token = path[0];
  if (token === undefined) return undefined;
  const props = isSchemaObject(s.properties) ? s.properties : {};
  const other = s.additionalProperties ?? {};
  if (token === UNLISTED) return { name: UNLISTED_NAME, schema: other, leafIsName: false };
  const pattern = /^\{\/(.*)\/\}$/s.exec(token)?.[1];
  if (pattern !== undefined) {
    const patterns = isSchemaObject(s.patternProperties) ? s.patternProperties : {};
    return { name: nameMatching(pattern), schema: patterns[pattern] ?? {}, leafIsName: false };
  }
  if (token === NAME_TOKEN) {
    const name = path.length === 1 && leaf !== undefined && "value" in leaf ? leaf.value : undefined;
    return typeof name === "string" ? { name, schema: props[name] ?? other, leafIsName: true } : undefined;
  }
  return { name: token, schema: props[token] ?? {}, leafIsName: false };
}

/** The triggers below `token`, relative to the value there. */
const below = (present: readonly Trigger[], token: string): Trigger[] =>
  present.filter((t) => t.field[0] === token).map((t) => ({ ...t, field: t.field.slice(1) }));

function sampleObject(
  s: JsonSchemaObject,
  root: SchemaRoot,
  path: readonly string[],
  leaf: Leaf | undefined,
  depth: number,
  budget: SampleBudget,
  variant = 0,
  present: readonly Trigger[] = [],
): Record<string, unknown> {
  const props = isSchemaObject(s.properties) ? s.properties : {};
  const required = strings(s.required);
  const target = forcedProperty(s, path, leaf);
  const forced = target?.name;
  const here = present.filter((t) => t.field.length === 0);
  const held = here.map((t) => t.name);
  // a trigger's own schema of its value (an `if`'s `kind: {const: "image"}`), before the object's
  const heldFrom = new Map(here.filter((t) => t.schema !== undefined).map((t) => [t.name, t.schema]));
  const omitted = path.length === 1 && leaf !== undefined && "omit" in leaf ? forced : undefined;
  const out: Record<string, unknown> = {};
  const names = [...new Set([...Object.keys(props), ...required])].filter(
    (n) => required.includes(n) || n === forced || held.includes(n),
  );
  for (const n of [forced, ...held]) if (n !== undefined && !names.includes(n)) names.push(n);
  // what the names held require in turn (`dependentRequired`, `dependentSchemas`), sampled from their schemas
  const from = addDependents(s, names, omitted);
  const other = isSchemaObject(s.additionalProperties) ? s.additionalProperties : {};
  for (const name of names) {
    if (name === omitted) continue;
    if (name === forced && target !== undefined) {
      const value = target.leafIsName
        ? sampleValue(target.schema, root, undefined, depth + 1, budget, variant)
        : forcedValue(target.schema, root, path.slice(1), leaf!, depth + 1, budget, below(present, path[0]!));
      defineOwn(out, name, value);
    } else {
      const schema = heldFrom.get(name) ?? from.get(name) ?? props[name] ?? other;
      defineOwn(out, name, sampleValue(schema, root, undefined, depth + 1, budget, variant));
    }
  }
  return out;
}

/**
 * A minimal value of `schema` with `leaf` at `path` (payload tokens, `*` for an array item past
 * any `prefixItems`, a number for one of the `prefixItems` positions), and the properties
 * `present` names in the objects along the path (fields relative to this value).
 * The alternative chosen at each level is the first one that can hold the path.
 * `ExampleTooLarge` when the value would be larger than the caps.
 */
export function forcedValue(
  schema: unknown,
  root: SchemaRoot,
  path: readonly string[],
  leaf: Leaf,
  depth = 0,
  budget = new SampleBudget(),
  present: readonly Trigger[] = [],
): unknown {
  if (path.length === 0) return "value" in leaf ? leaf.value : undefined;
  if (depth > MAX_DEPTH) return null;
  budget.spend(1);
  const view = viewSchema(schema, "", root);
  const next = path[0]!;
  // a number is a position of an array (issue 39: positions are compared with or without a tuple)
  const position = (a: Alternative): boolean =>
    /^\d+$/.test(next) &&
    (Array.isArray(a.schema.prefixItems) ||
      a.schema.items !== undefined ||
      (typesOf(a.schema) ?? []).includes("array"));
  const fits = (a: Alternative): boolean =>
    next === "*" || position(a)
      ? a.schema.items !== undefined || Array.isArray(a.schema.prefixItems) || acceptsType(typesOf(a.schema), "array")
      : (isSchemaObject(a.schema.properties) && next in a.schema.properties) ||
        acceptsType(typesOf(a.schema), "object");
  const alt = view.alternatives.find(fits);
  if (alt === undefined) return sampleValue(schema, root, undefined, depth, budget);
  if (next === "*" || position(alt)) {
    // `*` is an item past the tuple's positions (`prefixItems`), a number one of those positions
    const prefix: unknown[] = Array.isArray(alt.schema.prefixItems) ? alt.schema.prefixItems : [];
    const index = next === "*" ? prefix.length : Math.min(Number(next), prefix.length);
    const items = alt.schema.items ?? alt.schema.unevaluatedItems ?? {};
    const schemaAt = (i: number): unknown => (i < prefix.length ? prefix[i] : items);
    const head = arrayOfLength(index, (i) => sampleValue(schemaAt(i), root, undefined, depth + 1, budget, i), budget);
    const first =
      path.length === 1 && "omit" in leaf
        ? []
        : [forcedValue(schemaAt(index), root, path.slice(1), leaf, depth + 1, budget, below(present, next))];
    const count = typeof alt.schema.minItems === "number" ? alt.schema.minItems : 0;
    const done = head.length + first.length;
    const rest = arrayOfLength(
      count - done,
      (i) => sampleValue(schemaAt(done + i), root, undefined, depth + 1, budget, done + i),
      budget,
    );
    return [...head, ...first, ...rest];
  }
  return sampleObject(alt.schema, root, path, leaf, depth, budget, 0, present);
}
