/**
 * Rule kind `unknownFields`: a warning for each field the endpoint does not list, at the top
 * level and inside every object the schema describes (a keyframe's `strength`). Spec 4.1:
 * "Unlisted fields are not described", so the service may ignore or reject them.
 *
 * Shape match (`unknown-field`): an input schema that lists its `properties` and says nothing
 * of other fields (no `additionalProperties`, no `patternProperties`). Below it, every object
 * schema of the same kind reached through `properties`, `items` and local `$ref`s (nullable or
 * not) is checked too; an object that states `additionalProperties` or `patternProperties` is
 * left to the schema (Ajv reports what it forbids) and not entered. It is derived from the schema
 * alone, for every endpoint, and is not one of the spec's cross-field rules.
 */
import {
  closest,
  diagnostic,
  escapeToken,
  fieldLabel,
  receivedOf,
  shownValue,
  redacted,
  redactPointerOnce,
  type Diagnostic,
  type InvalidPointers,
} from "../diagnostics/index.js";
import { isSchemaObject, type JsonSchemaObject } from "../schema/index.js";
import type { RuleKind } from "./define.js";
import { valueSchema } from "./shape.js";

// #region runtime (copied into the generated support module: no imports in here)
/** Where described objects sit in a field's value: the value itself, and/or an array's items. */
export interface KnownValue {
  /** index into the rule's `objects`: the value, when an object, has those fields */
  object?: number;
  /** the items, when the value is an array */
  items?: KnownValue;
}

/** An object whose fields the schema lists and that says nothing of other fields (spec 4.1). */
export interface KnownObject {
  known: string[];
  /** `inner[i]`: the described objects inside the value of `known[i]`, or null */
  inner?: Array<KnownValue | null>;
}

/** The fields an endpoint lists, at the top level (`known`) and in its described objects. */
export interface UnknownFieldsRule extends KnownObject {
  id: string;
  kind: "unknownFields";
  /** the described objects below the top level, by index (a recursive schema stays finite) */
  objects?: KnownObject[];
}

/** spec 4.1: `where` is "this endpoint" or the enclosing field's label */
export const unknownFieldsMessage = (where: string, hint: string | undefined, known: readonly string[]): string =>
  `is not a field of ${where}${hint !== undefined ? `; did you mean "${hint}"?` : ""} (known: ${known.join(", ")})`;

/** spec 4.1: "Unlisted fields are not described": a warning, with the nearest known field */
export function checkUnknownFields(
  rule: UnknownFieldsRule,
  input: Record<string, unknown>,
  _invalid: InvalidPointers,
  max: number,
  words: boolean,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  // most payloads have no unknown field: find that out without building a pointer
  if (hasUnknownIn(rule, rule, input)) unknownIn(rule, rule, input, "", { out, max, words, unworded: undefined });
  return out;
}

/**
 * The findings of one check: the first `max` worded (the nearest known field, the message), the
 * rest counted as one shared diagnostic that is never shown (`diagnose` keeps `max` at most; 200k
 * unknown keys took 4.9 s of edit distances and messages).
 */
interface Found {
  out: Diagnostic[];
  max: number;
  /** false: each finding counted, not worded (`FindingLimit.words`) */
  words: boolean;
  unworded: Diagnostic | undefined;
}

function hasUnknownIn(rule: UnknownFieldsRule, object: KnownObject, value: object): boolean {
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    const index = object.known.indexOf(key);
    if (index === -1) return true;
    const inner = object.inner?.[index];
    if (inner && hasUnknownInValue(rule, inner, (value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

function hasUnknownInValue(rule: UnknownFieldsRule, where: KnownValue, value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) {
    if (where.items)
      for (let i = 0; i < value.length; i++) if (hasUnknownInValue(rule, where.items, value[i])) return true;
    return false;
  }
  const object = where.object === undefined ? undefined : rule.objects?.[where.object];
  return object !== undefined && hasUnknownIn(rule, object, value);
}

function unknownIn(rule: UnknownFieldsRule, object: KnownObject, value: object, pointer: string, found: Found): void {
  const { out } = found;
  for (const key of Object.keys(value)) {
    const index = object.known.indexOf(key);
    const inner = index === -1 ? undefined : object.inner?.[index];
    if (index !== -1 && !inner) continue;
    if (index === -1 && out.length >= found.max) {
      out.push((found.unworded ??= redacted("warning", "", rule.id, "")));
      continue;
    }
    const at = pointer + "/" + escapeToken(key);
    if (index === -1 && !found.words) {
      out.push(redacted("warning", redactPointerOnce(at), rule.id, ""));
      continue;
    }
    if (index === -1) {
      const hint = closest(key, object.known);
      const where = pointer === "" ? "this endpoint" : fieldLabel(pointer);
      out.push(
        diagnostic(
          "warning",
          at,
          rule.id,
          `${fieldLabel(at)}: ${unknownFieldsMessage(where, hint, object.known)}`,
          hint === undefined
            ? { kind: rule.kind, known: object.known.slice() }
            : { kind: rule.kind, known: object.known.slice(), suggestion: hint },
          receivedOf(shownValue(at, (value as Record<string, unknown>)[key])),
        ),
      );
      continue;
    }
    unknownInValue(rule, inner!, (value as Record<string, unknown>)[key], at, found);
  }
}

function unknownInValue(rule: UnknownFieldsRule, where: KnownValue, value: unknown, pointer: string, found: Found) {
  if (typeof value !== "object" || value === null) return;
  if (Array.isArray(value)) {
    if (where.items)
      for (let i = 0; i < value.length; i++) unknownInValue(rule, where.items, value[i], `${pointer}/${i}`, found);
    return;
  }
  const object = where.object === undefined ? undefined : rule.objects?.[where.object];
  if (object) unknownIn(rule, object, value, pointer, found);
}
// #endregion runtime

/** The id of the warning for a field the endpoint does not list (spec 4.1). */
export const UNKNOWN_FIELD_RULE = "unknown-field";

/** Objects expanded inline in a quick form at most; a larger (or DAG-shaped) schema takes the full check. */
const QUICK_BUDGET = 200;

function quickUnknownFields(rule: UnknownFieldsRule): string | undefined {
  const budget = { left: QUICK_BUDGET };
  const code = objectCode(rule, rule, "input", 0, [], budget);
  return budget.left < 0 ? undefined : code;
}

/** `return false` when `v` (an object) has a field `object` does not list, at any depth. */
function objectCode(
  rule: UnknownFieldsRule,
  object: KnownObject,
  v: string,
  depth: number,
  path: number[],
  budget: { left: number },
): string {
  if (--budget.left < 0) return "";
  const k = `k${depth}`;
  if (object.known.length === 0) return `for (const ${k} in ${v}) return false;`;
  const plain: string[] = [];
  const entered: string[] = [];
  object.known.forEach((name, i) => {
    const inner = object.inner?.[i];
    if (inner)
      entered.push(
        `case ${JSON.stringify(name)}: { ${valueCode(rule, inner, `${v}[${k}]`, depth + 1, path, budget)} break; }`,
      );
    else plain.push(`case ${JSON.stringify(name)}:`);
  });
  const cases = [...(plain.length > 0 ? [`${plain.join(" ")} break;`] : []), ...entered].join(" ");
  return `for (const ${k} in ${v}) { switch (${k}) { ${cases} default: return false; } }`;
}

function valueCode(
  rule: UnknownFieldsRule,
  where: KnownValue,
  expr: string,
  depth: number,
  path: number[],
  budget: { left: number },
): string {
  const x = `v${depth}`;
  const i = `i${depth}`;
  const items = where.items
    ? `for (let ${i} = 0; ${i} < ${x}.length; ${i}++) { ${valueCode(rule, where.items, `${x}[${i}]`, depth + 1, path, budget)} }`
    : "";
  const object = where.object === undefined ? undefined : rule.objects?.[where.object];
  // an object inside itself (a recursive schema): "maybe", and the full check decides
  const fields =
    object === undefined
      ? ""
      : path.includes(where.object!)
        ? "return false;"
        : objectCode(rule, object, x, depth + 1, [...path, where.object!], budget);
  const test =
    items === ""
      ? `${x} !== null && typeof ${x} === "object" && !Array.isArray(${x})`
      : fields === ""
        ? `Array.isArray(${x})`
        : undefined;
  return test !== undefined
    ? `const ${x} = ${expr}; if (${test}) { ${items}${fields} }`
    : `const ${x} = ${expr}; if (Array.isArray(${x})) { ${items} } else if (${x} !== null && typeof ${x} === "object") { ${fields} }`;
}

/** Lists its fields and says nothing of others: unlisted fields get the warning. */
function describesFields(schema: JsonSchemaObject): boolean {
  return (
    isSchemaObject(schema.properties) &&
    schema.additionalProperties === undefined &&
    schema.patternProperties === undefined
  );
}

/** The warning for an endpoint whose schema lists its fields and allows no others by pattern. */
function matchUnknownFields(input: JsonSchemaObject): UnknownFieldsRule | undefined {
  if (!describesFields(input)) return undefined;
  const objects: KnownObject[] = [];
  const indexes = new Map<JsonSchemaObject, number>();

  const known = (schema: JsonSchemaObject): KnownObject => {
    const properties = schema.properties as Record<string, unknown>;
    const names = Object.keys(properties);
    const inner = names.map((name) => {
      const property = properties[name];
      return isSchemaObject(property) ? valueOf(property) : null;
    });
    return inner.some((v) => v !== null) ? { known: names, inner } : { known: names };
  };
  const indexOf = (schema: JsonSchemaObject): number => {
    const seen = indexes.get(schema);
    if (seen !== undefined) return seen;
    const index = objects.length;
    indexes.set(schema, index);
    objects.push({ known: [] }); // a placeholder while its own fields are worked out (recursion)
    objects[index] = known(schema);
    return index;
  };
  const valueOf = (declared: JsonSchemaObject): KnownValue | null => {
    const schema = valueSchema(input, declared);
    if (schema === undefined) return null;
    const value: KnownValue = {};
    if (describesFields(schema) && schema !== input) value.object = indexOf(schema);
    if (isSchemaObject(schema.items)) {
      const items = valueOf(schema.items);
      if (items !== null) value.items = items;
    }
    return value.object === undefined && value.items === undefined ? null : value;
  };

  const top = known(input);
  return { id: UNKNOWN_FIELD_RULE, kind: "unknownFields", ...top, ...(objects.length > 0 ? { objects } : {}) };
}

export const unknownFields: RuleKind<UnknownFieldsRule> = {
  kind: "unknownFields",
  file: "unknown-fields",
  severity: "warning",
  // not one of the spec's cross-field rules: derived from every endpoint's schema, never overridden
  definitions: [],
  derive: matchUnknownFields,
  check: checkUnknownFields,
  message: unknownFieldsMessage,
  quick: quickUnknownFields,
  describe: (rule) => ({
    parts: [
      "Fields not listed here are not described by the service, which may ignore or reject them (warning, spec 4.1; rule ",
      rule.id,
      "): the editor flags them, and so does ",
      { code: "vsk lint" },
      ".",
    ],
    fields: [],
    closesInput: true,
  }),
};
