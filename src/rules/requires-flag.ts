/**
 * Rule kind `requiresFlag`: a field, when set (not null, not ""), requires a boolean flag to be `true`.
 * Spec 4.4: `file_url` and `web_url` each "requires enable_thinking=true" (model B,
 * reference-to-video).
 *
 * Shape match (`file-url-requires-thinking`, `web-url-requires-thinking`): a top-level
 * `file_url` (resp. `web_url`) that holds a string (every form it admits is a string, or null)
 * and a top-level boolean `enable_thinking`. Each of the two rules matches on its own.
 */
import {
  describeValue,
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
import { fieldOfType, isMisfit, misfit, stringField, type Misfit } from "./shape.js";

// #region runtime (copied into the generated support module: no imports in here)
/** A field that, when set (present, not null, not ""), requires a flag to be `true` (spec 4.4). */
export interface RequiresFlagRule {
  id: string;
  kind: "requiresFlag";
  /** JSON Pointer of the field */
  field: string;
  /** JSON Pointer of the boolean flag */
  flag: string;
  /** the spec section, quoted in the message */
  spec: string;
}

/** spec 4.4: `flagLabel` names the flag, `flag` is its value (undefined: not set) */
export const requiresFlagMessage = (flagLabel: string, flag: unknown, spec: string): string =>
  `requires ${flagLabel}: true, but ${flag === undefined ? `${flagLabel} is not set (default false)` : `${flagLabel} is ${describeValue(flag)}`} (spec ${spec})`;

/** spec 4.4: file_url and web_url require enable_thinking=true */
export function checkRequiresFlag(
  rule: RequiresFlagRule,
  input: Record<string, unknown>,
  _invalid: InvalidPointers,
  _max: number,
  words: boolean,
): Diagnostic[] {
  const value = valueAt(input, rule.field);
  // set = a value that names something: an empty string names no document or page (spec 4.4:
  // "Document URL to base the video on", a URI of length 1 to 2083 "or any string")
  if (value === undefined || value === null || value === "") return [];
  const flag = valueAt(input, rule.flag);
  if (flag === true) return [];
  if (!words) return [redacted("error", redactPointerOnce(rule.field), rule.id, "")];
  return [
    diagnostic(
      "error",
      rule.field,
      rule.id,
      `${fieldLabel(rule.field)}: ${requiresFlagMessage(fieldLabel(rule.flag), flag, rule.spec)}`,
      { kind: rule.kind, flag: rule.flag, value: true },
      receivedOf(value),
    ),
  ];
}
// #endregion runtime

function quickRequiresFlag(rule: RequiresFlagRule): string | undefined {
  const field = topLevel(rule.field);
  const flag = topLevel(rule.flag);
  if (field === undefined || flag === undefined) return undefined;
  return `{ const v = input${key(field)}; if (v !== undefined && v !== null && v !== "" && input${key(flag)} !== true) return false; }`;
}

/** `<field>` holds a string and `<flag>` is a boolean. */
function matchRequiresFlag(rule: RequiresFlagRule, input: JsonSchemaObject): RequiresFlagRule | Misfit {
  const field = rule.field.slice(1);
  const text = stringField(input, field);
  if (isMisfit(text)) return misfit(field, "a string (a URL)", text.found);
  const flag = fieldOfType(input, rule.flag.slice(1), "boolean");
  return isMisfit(flag) ? flag : rule;
}

const definitions: RequiresFlagRule[] = [
  { id: "file-url-requires-thinking", kind: "requiresFlag", field: "/file_url", flag: "/enable_thinking", spec: "4.4" },
  { id: "web-url-requires-thinking", kind: "requiresFlag", field: "/web_url", flag: "/enable_thinking", spec: "4.4" },
];

export const requiresFlag: RuleKind<RequiresFlagRule> = {
  kind: "requiresFlag",
  file: "requires-flag",
  severity: "error",
  definitions: definitions.map((rule) => ({
    id: rule.id,
    specModel: "modelB",
    endpoint: "reference-to-video",
    spec: rule,
    match: (input: JsonSchemaObject) => matchRequiresFlag(rule, input),
  })),
  check: checkRequiresFlag,
  message: requiresFlagMessage,
  quick: quickRequiresFlag,
  describe: (rule) => ({
    parts: [
      { code: label(rule.field) },
      " requires ",
      { code: `${label(rule.flag)}: true` },
      ' when it is set (not null, not "")',
    ],
    fields: [rule.field, rule.flag],
    spec: rule.spec,
  }),
};
