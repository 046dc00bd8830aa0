/**
 * Rule kind `uniqueItemField`: one field of an array's items is unique across the items.
 * Spec 2.2: `frame_index` "must be unique across the keyframes of one request" (model A,
 * keyframes-to-video).
 *
 * Shape match (`frame-index-unique`): a top-level `keyframes` array (nullable allowed) whose
 * items are objects with an integer `frame_index`. Any endpoint with that shape gets the rule,
 * whatever the model's id or alias; one without it does not.
 */
import {
  diagnostic,
  escapeToken,
  fieldLabel,
  itemsAt,
  receivedOf,
  redacted,
  redactPointerOnce,
  safePiece,
  valueAt,
  type Diagnostic,
  type Expected,
  type InvalidPointers,
} from "../diagnostics/index.js";
import type { JsonSchemaObject } from "../schema/index.js";
import { key, label, topLevel, type RuleKind } from "./define.js";
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

/** spec 2.2: the value and the other items that use it; `tail` is `uniqueItemFieldTail`'s */
export const uniqueItemFieldMessage = (value: unknown, others: string, tail: string): string =>
  `${String(value)} is also used by ${others}${tail}`;
export const uniqueItemFieldTail = (field: string, spec: string): string =>
  `; each ${field} must be unique (spec ${spec})`;

/** Per rule, what its messages repeat, worked out once per item index. */
interface UniqueItemFieldText {
  token: string;
  /** `/keyframes/1/frame_index` by item index, as the payload has it and as a message shows it */
  pointers: string[];
  shownPointers: string[];
  /** `keyframes[1].frame_index`, and `keyframes[1]`, by item index, with whether each is a `safePiece` */
  labels: string[];
  labelSafe: boolean[];
  items: string[];
  itemSafe: boolean[];
  tail: string;
  tailSafe: boolean;
  /** every diagnostic's `expected` (frozen: shared) */
  expected: Expected;
  /** by item index, the last message of a value two items share: the other item and the value it was for */
  pairs: Array<{ other: number; value: unknown; message: string } | undefined>;
}
const UNIQUE_TEXT = new WeakMap<UniqueItemFieldRule, UniqueItemFieldText>();
/** Indexes past this are worked out each time (a bounded cache). */
const UNIQUE_TEXT_INDEXES = 256;

function uniqueTextOf(rule: UniqueItemFieldRule): UniqueItemFieldText {
  let text = UNIQUE_TEXT.get(rule);
  if (text === undefined) {
    const tail = uniqueItemFieldTail(rule.field, rule.spec);
    text = {
      token: escapeToken(rule.field),
      pointers: [],
      shownPointers: [],
      labels: [],
      labelSafe: [],
      items: [],
      itemSafe: [],
      tail,
      tailSafe: safePiece(tail),
      expected: Object.freeze({ kind: rule.kind, array: rule.array, field: rule.field }),
      pairs: [],
    };
    UNIQUE_TEXT.set(rule, text);
  }
  return text;
}

/** Fills the cache entries of item `i` (past the bound: worked out, not kept) and returns the index to read. */
function itemText(rule: UniqueItemFieldRule, text: UniqueItemFieldText, i: number): number {
  const at = i < UNIQUE_TEXT_INDEXES ? i : UNIQUE_TEXT_INDEXES;
  if (at === i && text.pointers[i] !== undefined) return i;
  const pointer = `${rule.array}/${i}/${text.token}`;
  const label = fieldLabel(pointer);
  const item = fieldLabel(`${rule.array}/${i}`);
  text.pointers[at] = pointer;
  text.shownPointers[at] = redactPointerOnce(pointer);
  text.labels[at] = label;
  text.labelSafe[at] = safePiece(label);
  text.items[at] = item;
  text.itemSafe[at] = safePiece(item);
  return at;
}

/** Arrays up to this many items are grouped by comparing values pairwise (no Map, no lists). */
const UNIQUE_PAIRWISE = 32;

/** spec 2.2: frame_index "must be unique across the keyframes of one request" */
export function checkUniqueItemField(
  rule: UniqueItemFieldRule,
  input: Record<string, unknown>,
  invalid: InvalidPointers,
  _max = Infinity,
  words = true,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const items = itemsAt(input, rule.array);
  if (items.length < 2) return out;
  const text = uniqueTextOf(rule);
  if (items.length <= UNIQUE_PAIRWISE) {
    // the values compared as a Map's keys would be (SameValueZero: NaN is NaN), each group in the
    // order of its first item: the order the Map below gives
    const values: unknown[] = [];
    let repeated = false;
    for (let i = 0; i < items.length; i++) {
      const v = uniqueValueOf(rule, text, items[i], i, invalid);
      values.push(v);
      if (v === undefined || repeated) continue;
      for (let j = 0; j < i && !repeated; j++) repeated = sameKey(values[j], v);
    }
    if (!repeated) return out;
    const grouped: boolean[] = [];
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (v === undefined || grouped[i]) continue;
      const indexes = [i];
      for (let j = i + 1; j < values.length; j++)
        if (!grouped[j] && sameKey(values[j], v)) {
          indexes.push(j);
          grouped[j] = true;
        }
      if (indexes.length > 1) duplicatesOf(rule, text, v, indexes, out, words);
    }
    return out;
  }
  const byValue = new Map<unknown, number[]>();
  let repeated = false;
  for (let i = 0; i < items.length; i++) {
    const v = uniqueValueOf(rule, text, items[i], i, invalid);
    if (v === undefined) continue;
    const list = byValue.get(v);
    if (list) {
      list.push(i);
      repeated = true;
    } else byValue.set(v, [i]);
  }
  if (!repeated) return out;
  byValue.forEach((indexes, value) => {
    if (indexes.length > 1) duplicatesOf(rule, text, value, indexes, out, words);
  });
  return out;
}

/** SameValueZero, a Map key's equality (a number and a bigint differ). */
function sameKey(a: unknown, b: unknown): boolean {
  return a === b || (a !== a && b !== b);
}

/** Item `i`'s field when the rule checks it (a number or a bigint, its field not already invalid), else undefined. */
function uniqueValueOf(
  rule: UniqueItemFieldRule,
  text: UniqueItemFieldText,
  item: unknown,
  i: number,
  invalid: InvalidPointers,
): unknown {
  if (
    typeof item !== "object" ||
    item === null ||
    Array.isArray(item) ||
    !Object.prototype.hasOwnProperty.call(item, rule.field)
  )
    return undefined;
  const v = (item as Record<string, unknown>)[rule.field];
  // a bigint: vsk lint's exact value of an integer beyond 2^53, read from the payload's text
  if (typeof v !== "number" && typeof v !== "bigint") return undefined;
  if (invalid.size > 0 && invalid.has(text.pointers[itemText(rule, text, i)]!)) return undefined;
  return v;
}

/** The findings of one value used by several items (`indexes`, ascending), one per item. */
function duplicatesOf(
  rule: UniqueItemFieldRule,
  text: UniqueItemFieldText,
  value: unknown,
  indexes: readonly number[],
  out: Diagnostic[],
  /** false: counted, not worded (`FindingLimit.words`) */
  words: boolean,
): void {
  for (const i of indexes) {
    if (!words) {
      out.push(redacted("error", text.shownPointers[itemText(rule, text, i)]!, rule.id, ""));
      continue;
    }
    if (indexes.length === 2 && i < UNIQUE_TEXT_INDEXES) {
      // the usual repeat, two items: its message is remembered per item (a log repeats its mistakes)
      const other = indexes[0] === i ? indexes[1]! : indexes[0]!;
      const j = itemText(rule, text, other);
      const at = itemText(rule, text, i);
      let pair = text.pairs[i];
      if (pair === undefined || pair.other !== other || pair.value !== value) {
        const message = `${text.labels[at]!}: ${uniqueItemFieldMessage(value, text.items[j]!, text.tail)}`;
        text.pairs[i] = pair = { other, value, message };
      }
      const received = receivedOf(value);
      out.push(
        text.tailSafe && text.itemSafe[j]! && text.labelSafe[at]!
          ? redacted("error", text.shownPointers[at]!, rule.id, pair.message, text.expected, received)
          : diagnostic("error", text.pointers[at]!, rule.id, pair.message, text.expected, received),
      );
      continue;
    }
    // name a few of the others: thousands of duplicates must not make the output quadratic
    let others = "";
    let safe = text.tailSafe;
    let named = 0;
    for (let k = 0; k < indexes.length && named < 3; k++) {
      if (indexes[k] === i) continue;
      const j = itemText(rule, text, indexes[k]!);
      others += (named === 0 ? "" : ", ") + text.items[j]!;
      safe &&= text.itemSafe[j]!;
      named++;
    }
    const more = indexes.length - 1 - named;
    if (more > 0) others += `, ${more} more`;
    const at = itemText(rule, text, i);
    const message = `${text.labels[at]!}: ${uniqueItemFieldMessage(value, others, text.tail)}`;
    const received = receivedOf(value);
    // the pieces were checked once each (a number holds nothing to redact): see safePiece
    out.push(
      safe && text.labelSafe[at]!
        ? redacted("error", text.shownPointers[at]!, rule.id, message, text.expected, received)
        : diagnostic("error", text.pointers[at]!, rule.id, message, text.expected, received),
    );
  }
}
// #endregion runtime

/** More items than this and the quick form leaves it to the full check (which uses a Map). */
const PAIRWISE_LIMIT = 32;

function quickUniqueItemField(rule: UniqueItemFieldRule): string | undefined {
  const array = topLevel(rule.array);
  const field = topLevel("/" + rule.field);
  if (array === undefined || field === undefined) return undefined;
  return `{ const a = input${key(array)};
      if (Array.isArray(a) && a.length > 1) {
        if (a.length > ${PAIRWISE_LIMIT}) return false;
        for (let i = 1; i < a.length; i++) { const x = a[i]; if (x === null || typeof x !== "object") continue; const v = x${key(field)};
          for (let j = 0; j < i; j++) { const y = a[j]; if (y !== null && typeof y === "object" && y${key(field)} === v && typeof v === "number") return false; } } } }`;
}

const frameIndexUnique: UniqueItemFieldRule = {
  id: "frame-index-unique",
  kind: "uniqueItemField",
  array: "/keyframes",
  field: "frame_index",
  spec: "2.2",
};

export const uniqueItemField: RuleKind<UniqueItemFieldRule> = {
  kind: "uniqueItemField",
  file: "unique-item-field",
  severity: "error",
  definitions: [
    {
      id: frameIndexUnique.id,
      specModel: "modelA",
      endpoint: "keyframes-to-video",
      spec: frameIndexUnique,
      match: (input: JsonSchemaObject): UniqueItemFieldRule | Misfit =>
        integerItemField(input, "keyframes", "frame_index") ?? frameIndexUnique,
    },
  ],
  check: checkUniqueItemField,
  message: uniqueItemFieldMessage,
  quick: quickUniqueItemField,
  describe: (rule) => ({
    parts: [{ code: rule.field }, " must be unique across the items of ", { code: label(rule.array) }],
    fields: [rule.array],
    items: { array: rule.array, field: rule.field },
    spec: rule.spec,
  }),
};

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
  for (const { id, spec } of uniqueItemField.definitions) {
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
