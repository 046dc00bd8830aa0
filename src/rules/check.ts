/**
 * Runs an endpoint's rules over a payload: the dispatch from a rule's kind to its check, and
 * the whole check of an endpoint (schema errors first, then the rules, errors before warnings).
 * Its runtime region goes into the generated support module after the rule kinds' regions
 * (scripts/embed.mjs takes the kinds from this file's imports, in this order).
 */
import {
  diagnosticsFromAjv,
  type AjvError,
  type Diagnostic,
  type InvalidPointers,
  invalidPointers,
} from "../diagnostics/index.js";
import { checkUniqueItemField, type UniqueItemFieldRule } from "./unique-item-field.js";
import { checkItemFieldWithinDuration, type ItemFieldWithinDurationRule } from "./item-field-within-duration.js";
import { checkRequiresFlag, type RequiresFlagRule } from "./requires-flag.js";
import { checkIntegerInSetOrRange, type IntegerInSetOrRangeRule } from "./integer-in-set-or-range.js";
import {
  checkPromptLengthRecommendation,
  type PromptLengthRecommendationRule,
} from "./prompt-length-recommendation.js";
import { checkUnknownFields, type UnknownFieldsRule } from "./unknown-fields.js";

// #region runtime (copied into the generated support module: no imports in here)
/** A cross-field rule as data: its kind names its check; the rest are its parameters. */
export type RuleSpec =
  | UniqueItemFieldRule
  | ItemFieldWithinDurationRule
  | RequiresFlagRule
  | IntegerInSetOrRangeRule
  | PromptLengthRecommendationRule
  | UnknownFieldsRule;

type Check<K extends RuleSpec["kind"]> = (
  rule: Extract<RuleSpec, { kind: K }>,
  input: Record<string, unknown>,
  invalid: InvalidPointers,
) => Diagnostic[];

const CHECKS: { [K in RuleSpec["kind"]]: Check<K> } = {
  uniqueItemField: checkUniqueItemField,
  itemFieldWithinDuration: checkItemFieldWithinDuration,
  requiresFlag: checkRequiresFlag,
  integerInSetOrRange: checkIntegerInSetOrRange,
  promptLengthRecommendation: checkPromptLengthRecommendation,
  unknownFields: checkUnknownFields,
};

/** Runs the cross-field rules; rules about a field that already failed its schema are skipped. */
export function checkRules(
  rules: readonly RuleSpec[],
  input: unknown,
  schemaErrors: readonly Diagnostic[],
): Diagnostic[] {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return [];
  const invalid = invalidPointers(schemaErrors);
  const out: Diagnostic[] = [];
  for (const rule of rules) {
    const found = (CHECKS[rule.kind] as Check<RuleSpec["kind"]>)(
      rule as never,
      input as Record<string, unknown>,
      invalid,
    );
    for (let i = 0; i < found.length; i++) out.push(found[i]!);
  }
  return out;
}

/** A compiled Ajv standalone validator. */
export interface CompiledSchema {
  (data: unknown): boolean;
  errors?: AjvError[] | null;
}

/** The whole check of one endpoint: schema (precompiled), then the rules; errors before warnings. */
export function runValidation(schema: CompiledSchema, rules: readonly RuleSpec[], input: unknown): Diagnostic[] {
  return diagnose(schema(input) ? null : schema.errors, rules, input);
}

/** Every diagnostic of a payload, given Ajv's errors for it (`null` when the schema passed). */
export function diagnose(
  ajvErrors: readonly AjvError[] | null | undefined,
  rules: readonly RuleSpec[],
  input: unknown,
): Diagnostic[] {
  const schemaErrors = diagnosticsFromAjv(ajvErrors, input);
  const ruleFindings = checkRules(rules, input, schemaErrors);
  if (ruleFindings.length === 0) return schemaErrors;
  // errors first, then warnings, each in order (schema errors are all errors)
  const out = schemaErrors.slice();
  for (const d of ruleFindings) if (d.severity === "error") out.push(d);
  for (const d of ruleFindings) if (d.severity === "warning") out.push(d);
  return out;
}
// #endregion runtime
