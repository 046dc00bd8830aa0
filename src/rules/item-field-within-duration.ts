/**
 * Rule kind `itemFieldWithinDuration`: an integer field of an array's items is at most the
 * video's last frame, `duration × frames per second`. Spec 2.2: `frame_index` is "at most
 * duration * 24"; 4.3: `duration` defaults to 5; 8: 24 frames per second (model A,
 * keyframes-to-video).
 *
 * Shape match (`frame-index-within-duration`): a top-level `keyframes` array whose items are
 * objects with an integer `frame_index`, and a top-level `duration` that admits an integer
 * (nullable allowed). The default duration is the schema's `default` for `duration` when it
 * states a number, else the spec's 5.
 */
import {
  diagnostic,
  fieldLabel,
  itemsAt,
  receivedOf,
  redacted,
  redactPointerOnce,
  pointerTokens,
  valueAt,
  valueAtTokens,
  type Diagnostic,
  type InvalidPointers,
} from "../diagnostics/index.js";
import type { JsonSchemaObject } from "../schema/index.js";
import { key, label, topLevel, type RuleKind } from "./define.js";
import { declaredField, describeTypes, integerItemField, misfit, typesOf, valueSchema, type Misfit } from "./shape.js";

// #region runtime (copied into the generated support module: no imports in here)
/** An integer field of an array's items that is at most `duration × framesPerSecond` (spec 2.2, 8). */
export interface ItemFieldWithinDurationRule {
  id: string;
  kind: "itemFieldWithinDuration";
  /** JSON Pointer of the array */
  array: string;
  /** the items' field */
  field: string;
  /** JSON Pointer of the duration in seconds */
  duration: string;
  /** the duration when the payload leaves it out */
  defaultDuration: number;
  framesPerSecond: number;
  /** the spec section, quoted in the message */
  spec: string;
}

/** spec 2.2, 8 */
export const itemFieldWithinDurationMessage = (
  value: number,
  last: number,
  seconds: number,
  defaulted: boolean,
  framesPerSecond: number,
  spec: string,
): string =>
  `${value} is past the last frame (${last}) of ${defaulted ? `the default ${seconds} s` : `a ${seconds} s`} video (duration × ${framesPerSecond}, spec ${spec})`;

/** spec 2.2, 8: frame_index is at most duration * 24 (24 fps), duration defaulting to 5 */
export function checkItemFieldWithinDuration(
  rule: ItemFieldWithinDurationRule,
  input: Record<string, unknown>,
  invalid: InvalidPointers,
  _max: number,
  words: boolean,
): Diagnostic[] {
  if (invalid.has(rule.duration)) return [];
  const given = valueAt(input, rule.duration);
  const seconds = given === undefined ? rule.defaultDuration : given;
  if (typeof seconds !== "number" || !Number.isFinite(seconds)) return [];
  const last = seconds * rule.framesPerSecond;
  const out: Diagnostic[] = [];
  // the field's pointer split once, not made and looked up again for every item
  const field = pointerTokens("/" + rule.field);
  itemsAt(input, rule.array).forEach((item, i) => {
    const v = valueAtTokens(item, field);
    if (typeof v === "number" && v > last && !invalid.has(`${rule.array}/${i}/${rule.field}`)) {
      const pointer = `${rule.array}/${i}/${rule.field}`;
      if (!words) return void out.push(redacted("error", redactPointerOnce(pointer), rule.id, ""));
      out.push(
        diagnostic(
          "error",
          pointer,
          rule.id,
          `${fieldLabel(pointer)}: ${itemFieldWithinDurationMessage(v, last, seconds, given === undefined, rule.framesPerSecond, rule.spec)}`,
          { kind: rule.kind, limit: last, duration: seconds, framesPerSecond: rule.framesPerSecond },
          receivedOf(v),
        ),
      );
    }
  });
  return out;
}
// #endregion runtime

function quickItemFieldWithinDuration(rule: ItemFieldWithinDurationRule): string | undefined {
  const array = topLevel(rule.array);
  const field = topLevel("/" + rule.field);
  const duration = topLevel(rule.duration);
  if (array === undefined || field === undefined || duration === undefined) return undefined;
  return `{ const a = input${key(array)};
      if (Array.isArray(a)) { const d = input${key(duration)}; const s = d === undefined ? ${JSON.stringify(rule.defaultDuration)} : d;
        if (typeof s !== "number") return false; const last = s * ${JSON.stringify(rule.framesPerSecond)};
        for (let i = 0; i < a.length; i++) { const x = a[i]; if (x !== null && typeof x === "object" && typeof x${key(field)} === "number" && x${key(field)} > last) return false; } } }`;
}

const frameIndexWithinDuration: ItemFieldWithinDurationRule = {
  id: "frame-index-within-duration",
  kind: "itemFieldWithinDuration",
  array: "/keyframes",
  field: "frame_index",
  duration: "/duration",
  defaultDuration: 5,
  framesPerSecond: 24,
  spec: "2.2",
};

/** Model A keyframes-to-video's shape; the default duration as the schema states it. */
function matchFrameIndexWithinDuration(input: JsonSchemaObject): ItemFieldWithinDurationRule | Misfit {
  const items = integerItemField(input, "keyframes", "frame_index");
  if (items !== undefined) return items;
  const declared = declaredField(input, "duration");
  if (declared === undefined) return misfit("duration", "an integer (seconds)", "no such field");
  const value = valueSchema(input, declared);
  const types = value === undefined ? new Set<string>() : typesOf(input, value);
  if (!types.has("integer")) return misfit("duration", "an integer (seconds)", describeTypes(types));
  const stated = declared.default;
  return typeof stated === "number"
    ? { ...frameIndexWithinDuration, defaultDuration: stated }
    : frameIndexWithinDuration;
}

export const itemFieldWithinDuration: RuleKind<ItemFieldWithinDurationRule> = {
  kind: "itemFieldWithinDuration",
  file: "item-field-within-duration",
  severity: "error",
  definitions: [
    {
      id: frameIndexWithinDuration.id,
      specModel: "modelA",
      endpoint: "keyframes-to-video",
      spec: frameIndexWithinDuration,
      match: matchFrameIndexWithinDuration,
    },
  ],
  check: checkItemFieldWithinDuration,
  message: itemFieldWithinDurationMessage,
  quick: quickItemFieldWithinDuration,
  describe: (rule) => ({
    parts: [
      `each `,
      { code: `${label(rule.array)}[].${rule.field}` },
      ` must be at most `,
      { code: label(rule.duration) },
      ` × ${rule.framesPerSecond} (the last frame; `,
      { code: label(rule.duration) },
      ` defaults to ${rule.defaultDuration} s, so at most ${rule.defaultDuration * rule.framesPerSecond} when it is left out)`,
    ],
    fields: [rule.array, rule.duration],
    items: { array: rule.array, field: rule.field },
    spec: rule.spec,
  }),
};
