/**
 * Rule kind `integerInSetOrRange`: an integer is one of a few special values or within a
 * range. Spec 4.5: model C's `duration` has "minimum -1, maximum 15; -1 means automatic; any
 * other value must be at least 4" (model C, text-to-video).
 *
 * Shape match (`duration-auto-or-range`): a top-level integer `duration` whose schema states
 * `minimum: -1` (the mark of "-1 means automatic": model A's and B's durations start at 5 and
 * 2, and a duration with no minimum or another one does not get this rule) and a numeric
 * `maximum`, which becomes the rule's upper bound. The 4 s floor is the spec's.
 */
import {
  diagnostic,
  fieldLabel,
  receivedOf,
  redacted,
  redactPointerOnce,
  valueAt,
  type Diagnostic,
  type InvalidPointers,
} from "../diagnostics/index.js";
import type { JsonSchemaObject } from "../schema/index.js";
import { key, label, topLevel, type RuleKind } from "./define.js";
import { fieldOfType, isMisfit, misfit, type Misfit } from "./shape.js";

// #region runtime (copied into the generated support module: no imports in here)
/** An integer that is one of `values` or within `min`..`max` (spec 4.5). */
export interface IntegerInSetOrRangeRule {
  id: string;
  kind: "integerInSetOrRange";
  /** JSON Pointer of the field */
  field: string;
  values: number[];
  /** what the special values mean, for the message ("automatic") */
  valueMeaning: string;
  min: number;
  max: number;
  /** the spec section, quoted in the message */
  spec: string;
}

/** spec 4.5 */
export const integerInSetOrRangeMessage = (
  value: number,
  values: readonly number[],
  valueMeaning: string,
  min: number,
  max: number,
  spec: string,
): string =>
  `${value} is not allowed; expected ${values.join(" or ")} (${valueMeaning}) or ${min} to ${max} (spec ${spec})`;

/** spec 4.5: duration is -1 (automatic) or 4 to 15 */
export function checkIntegerInSetOrRange(
  rule: IntegerInSetOrRangeRule,
  input: Record<string, unknown>,
  invalid: InvalidPointers,
  _max: number,
  words: boolean,
): Diagnostic[] {
  if (invalid.has(rule.field)) return [];
  const v = valueAt(input, rule.field);
  if (typeof v !== "number" || rule.values.includes(v) || (v >= rule.min && v <= rule.max)) return [];
  if (!words) return [redacted("error", redactPointerOnce(rule.field), rule.id, "")];
  return [
    diagnostic(
      "error",
      rule.field,
      rule.id,
      `${fieldLabel(rule.field)}: ${integerInSetOrRangeMessage(v, rule.values, rule.valueMeaning, rule.min, rule.max, rule.spec)}`,
      { kind: rule.kind, values: rule.values.slice(), min: rule.min, max: rule.max },
      receivedOf(v),
    ),
  ];
}
// #endregion runtime

function quickIntegerInSetOrRange(rule: IntegerInSetOrRangeRule): string | undefined {
  const field = topLevel(rule.field);
  if (field === undefined) return undefined;
  const allowed = [
    ...rule.values.map((v) => `v === ${JSON.stringify(v)}`),
    `(v >= ${JSON.stringify(rule.min)} && v <= ${JSON.stringify(rule.max)})`,
  ].join(" || ");
  return `{ const v = input${key(field)}; if (typeof v === "number" && !(${allowed})) return false; }`;
}

const durationAutoOrRange: IntegerInSetOrRangeRule = {
  id: "duration-auto-or-range",
  kind: "integerInSetOrRange",
  field: "/duration",
  values: [-1],
  valueMeaning: "automatic",
  min: 4,
  max: 15,
  spec: "4.5",
};

const NEEDS = "an integer with minimum -1 (-1 means automatic) and a maximum";

/** Model C's duration: an integer, minimum -1, and the maximum the schema states. */
function matchDurationAutoOrRange(input: JsonSchemaObject): IntegerInSetOrRangeRule | Misfit {
  const duration = fieldOfType(input, "duration", "integer");
  if (isMisfit(duration)) return misfit("duration", NEEDS, duration.found);
  const { minimum, maximum } = duration.value;
  if (minimum !== -1)
    return misfit("duration", NEEDS, minimum === undefined ? "no minimum" : `minimum ${String(minimum)}`);
  if (typeof maximum !== "number") return misfit("duration", NEEDS, "no maximum");
  return { ...durationAutoOrRange, max: maximum };
}

export const integerInSetOrRange: RuleKind<IntegerInSetOrRangeRule> = {
  kind: "integerInSetOrRange",
  file: "integer-in-set-or-range",
  severity: "error",
  definitions: [
    {
      id: durationAutoOrRange.id,
      specModel: "modelC",
      endpoint: "text-to-video",
      spec: durationAutoOrRange,
      match: matchDurationAutoOrRange,
    },
  ],
  check: checkIntegerInSetOrRange,
  message: integerInSetOrRangeMessage,
  quick: quickIntegerInSetOrRange,
  describe: (rule) => ({
    parts: [
      { code: label(rule.field) },
      " must be ",
      ...rule.values.flatMap((v, i) => [i === 0 ? "" : " or ", { code: JSON.stringify(v) }]),
      ` (${rule.valueMeaning}) or an integer from ${rule.min} to ${rule.max}`,
    ],
    fields: [rule.field],
    spec: rule.spec,
  }),
};
