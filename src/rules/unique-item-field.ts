/**
 * Rule kind `uniqueItemField`: one field of an array's items is unique across the items.
 * Spec 2.2: `frame_index` "must be unique across the keyframes of one request" (model A,
 * keyframes-to-video).
 *
 * Shape match (`frame-index-unique`): a top-level `keyframes` array (nullable allowed) whose
 * items are objects with an integer `frame_index`. Any endpoint with that shape gets the rule,
 * whatever the model's id or alias; one without it does not.
 */
import { diagnostic, fieldLabel, itemsAt, valueAt, type Diagnostic } from "../../templates/support.js";
import type { JsonSchemaObject } from "../schema/index.js";
import { key, topLevel, type QuickForm, type RuleDefinition } from "./define.js";
import { integerItemField, type Misfit } from "./shape.js";

// #region runtime (copied into the generated support module: no imports in here)
/** A field of an array's items that must be unique across the items (spec 2.2). */
export interface UniqueItemFieldRule {
  id: string;
  kind: "uniqueItemField";
  /** JSON Pointer of the array */
  array: string;
  /** the items' field */
  field: string;
  /** the spec section, quoted in the message */
  spec: string;
}

/** spec 2.2: frame_index "must be unique across the keyframes of one request" */
export function checkUniqueItemField(
  rule: UniqueItemFieldRule,
  input: Record<string, unknown>,
  invalid: ReadonlySet<string>,
): Diagnostic[] {
  const byValue = new Map<unknown, number[]>();
  itemsAt(input, rule.array).forEach((item, i) => {
    const v = valueAt(item, "/" + rule.field);
    // a bigint: vsk lint's exact value of an integer beyond 2^53, read from the payload's text
    if ((typeof v !== "number" && typeof v !== "bigint") || invalid.has(`${rule.array}/${i}/${rule.field}`)) return;
    const list = byValue.get(v);
    if (list) list.push(i);
    else byValue.set(v, [i]);
  });
  const out: Diagnostic[] = [];
  for (const [value, indexes] of byValue) {
    if (indexes.length < 2) continue;
    for (const i of indexes) {
      const pointer = `${rule.array}/${i}/${rule.field}`;
      // name a few of the others: thousands of duplicates must not make the output quadratic
      const named = indexes.filter((j) => j !== i).slice(0, 3);
      const more = indexes.length - 1 - named.length;
      const others = [...named.map((j) => fieldLabel(`${rule.array}/${j}`)), ...(more > 0 ? [`${more} more`] : [])];
      out.push(
        diagnostic(
          "error",
          pointer,
          rule.id,
          `${fieldLabel(pointer)}: ${String(value)} is also used by ${others.join(", ")}; each ${rule.field} must be unique (spec ${rule.spec})`,
        ),
      );
    }
  }
  return out;
}
// #endregion runtime

/** More items than this and the quick form leaves it to the full check (which uses a Map). */
const PAIRWISE_LIMIT = 32;

export const quickUniqueItemField: QuickForm<UniqueItemFieldRule> = (rule) => {
  const array = topLevel(rule.array);
  const field = topLevel("/" + rule.field);
  if (array === undefined || field === undefined) return undefined;
  return `{ const a = input${key(array)};
      if (Array.isArray(a) && a.length > 1) {
        if (a.length > ${PAIRWISE_LIMIT}) return false;
        for (let i = 1; i < a.length; i++) { const x = a[i]; if (x === null || typeof x !== "object") continue; const v = x${key(field)};
          for (let j = 0; j < i; j++) { const y = a[j]; if (y !== null && typeof y === "object" && y${key(field)} === v && typeof v === "number") return false; } } } }`;
};

const frameIndexUnique: UniqueItemFieldRule = {
  id: "frame-index-unique",
  kind: "uniqueItemField",
  array: "/keyframes",
  field: "frame_index",
  spec: "2.2",
};

export const uniqueItemFieldRules: ReadonlyArray<RuleDefinition<UniqueItemFieldRule>> = [
  {
    id: frameIndexUnique.id,
    specModel: "modelA",
    endpoint: "keyframes-to-video",
    spec: frameIndexUnique,
    match: (input: JsonSchemaObject): UniqueItemFieldRule | Misfit =>
      integerItemField(input, "keyframes", "frame_index") ?? frameIndexUnique,
  },
];

/**
 * `vsk lint` only: `JSON.parse` rounds integers beyond 2^53 (9007199254740993 becomes
 * 9007199254740992), so the check on parsed values takes two different `frame_index` values
 * for one. When the check found duplicates, lint redoes it with every such integer read from
 * the payload's text (`rawNumberAt`, by JSON Pointer) as a BigInt: equal text, equal value.
 * The generated builders get JS numbers, already rounded, and cannot tell them apart.
 */
export function recheckOnText(
  diagnostics: Diagnostic[],
  input: unknown,
  rawNumberAt: (pointer: string) => string | undefined,
): Diagnostic[] {
  let out = diagnostics;
  for (const { id, spec } of uniqueItemFieldRules) {
    const at = out.findIndex((d) => d.rule === id);
    if (at === -1 || typeof input !== "object" || input === null) continue;
    const rule = { ...spec, id };
    let exact = false;
    const items = itemsAt(input as Record<string, unknown>, rule.array).map((item, i) => {
      const v = valueAt(item, "/" + rule.field);
      if (typeof v !== "number" || Number.isSafeInteger(v) || !Number.isInteger(v)) return item;
      const raw = rawNumberAt(`${rule.array}/${i}/${rule.field}`);
      if (raw === undefined || !/^-?\d+$/.test(raw)) return item;
      exact = true;
      return { ...(item as Record<string, unknown>), [rule.field]: BigInt(raw) };
    });
    if (!exact) continue;
    const invalid = new Set(out.filter((d) => d.severity === "error" && d.rule !== id).map((d) => d.pointer));
    const copy = { ...(input as Record<string, unknown>), [rule.array.slice(1)]: items };
    const fresh = checkUniqueItemField(rule, copy, invalid);
    const kept = out.filter((d) => d.rule !== id);
    out = [...kept.slice(0, at), ...fresh, ...kept.slice(at)];
  }
  return out;
}
