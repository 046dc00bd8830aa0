/**
 * Runs an endpoint's rules over a payload: the dispatch from a rule's kind to its check (from
 * kinds.ts's list), and the whole check of an endpoint (schema errors first, then the rules,
 * errors before warnings). Its runtime region goes into the generated support module after the
 * rule kinds' regions, preceded by the same dispatch written out by scripts/embed.mjs from the
 * list (`RuleSpec`, `Check`, `CHECKS`).
 */
import {
  diagnosticsFromAjv,
  type AjvError,
  type Diagnostic,
  type FindingLimit,
  invalidPointers,
  moreFindings,
} from "../diagnostics/index.js";
import type { RuleCheck } from "./define.js";
import { RULE_KINDS, type RuleSpec } from "./kinds.js";

export type { RuleSpec } from "./kinds.js";

type Check<K extends RuleSpec["kind"]> = RuleCheck<Extract<RuleSpec, { kind: K }>>;

/** kind → check, from the list. */
const CHECKS = Object.fromEntries(RULE_KINDS.map((k) => [k.kind, k.check])) as {
  [K in RuleSpec["kind"]]: Check<K>;
};

/** The rule kinds whose every finding is a warning (from the list): skipped when only errors are wanted. */
const WARNING_KINDS: ReadonlySet<string> = new Set(
  RULE_KINDS.filter((k) => k.severity === "warning").map((k) => k.kind),
);

// #region runtime (copied into the generated support module: no imports in here)
/**
 * Runs the cross-field rules; rules about a field that already failed its schema are skipped,
 * and with `errorsOnly` the kinds that only warn (`WARNING_KINDS`). `quickRules[k]`, the emitted
 * quick form of rule k (src/rules/quick.ts), skips its full check when it says the rule cannot
 * find anything (a quick form is never more lenient than its check, whatever the schema errors).
 */
export function checkRules(
  rules: readonly RuleSpec[],
  input: unknown,
  schemaErrors: readonly Diagnostic[],
  errorsOnly = false,
  /** the pointers of schema errors past a finding limit (`diagnose`) */
  moreInvalid?: readonly string[],
  /** findings worded per rule at most (`diagnose`'s limit: no more can be shown); the rest are counted */
  max = Infinity,
  /** false: findings counted, not worded (`FindingLimit.words`) */
  words = true,
  quickRules?: ReadonlyArray<QuickRule | undefined>,
): Diagnostic[] {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return [];
  const invalid = invalidPointers(schemaErrors, moreInvalid);
  const out: Diagnostic[] = [];
  for (let k = 0; k < rules.length; k++) {
    const rule = rules[k]!;
    if (errorsOnly && WARNING_KINDS.has(rule.kind)) continue;
    if (quickRules?.[k]?.(input as Record<string, unknown>) === true) continue;
    const found = (CHECKS[rule.kind] as Check<RuleSpec["kind"]>)(
      rule as never,
      input as Record<string, unknown>,
      invalid,
      max,
      words,
    );
    for (let i = 0; i < found.length; i++) out.push(found[i]!);
  }
  return out;
}

/** An emitted rule's quick form: true when the rule cannot find anything in `input` (src/rules/quick.ts). */
export type QuickRule = (input: Record<string, unknown>) => boolean;

/** A compiled Ajv standalone validator. */
export interface CompiledSchema {
  (data: unknown): boolean;
  errors?: AjvError[] | null;
}

/** The whole check of one endpoint: schema (precompiled), then the rules; errors before warnings. */
export function runValidation(schema: CompiledSchema, rules: readonly RuleSpec[], input: unknown): Diagnostic[] {
  return diagnose(schema(input) ? null : schema.errors, rules, input);
}

/**
 * Every diagnostic of a payload, given Ajv's errors for it (`null` when the schema passed); with
 * a `limit`, the first `limit.max` and one `more-findings` counting the rest exactly (issue 38.3:
 * the schema errors past it are counted, never worded, so the work stays linear and small).
 */
export function diagnose(
  ajvErrors: readonly AjvError[] | null | undefined,
  rules: readonly RuleSpec[],
  input: unknown,
  limit?: FindingLimit,
  /** the emitted validator's quick forms, by rule index (see checkRules) */
  quickRules?: ReadonlyArray<QuickRule | undefined>,
): Diagnostic[] {
  const max = limit?.max ?? Infinity;
  const words = limit?.words !== false;
  const omitted: string[] = [];
  const schemaErrors = diagnosticsFromAjv(ajvErrors, input, max, omitted, words);
  // a rule's findings past `max` are never shown (a finding's place in `out` is at least its place
  // among its rule's): a rule words `max` at most and counts the rest (issue 38.2: 200k unknown keys)
  const ruleFindings = checkRules(
    rules,
    input,
    schemaErrors,
    limit?.errorsOnly === true,
    omitted,
    max,
    words,
    quickRules,
  );
  // schemaErrors is this call's own array (diagnosticsFromAjv's): the rules' findings join it
  const out = schemaErrors;
  if (ruleFindings.length > 0) {
    // errors first, then warnings, each in order (schema errors are all errors)
    let warnings = false;
    for (let i = 0; i < ruleFindings.length; i++)
      if (ruleFindings[i]!.severity === "error") out.push(ruleFindings[i]!);
      else warnings = true;
    if (warnings)
      for (let i = 0; i < ruleFindings.length; i++)
        if (ruleFindings[i]!.severity === "warning") out.push(ruleFindings[i]!);
  }
  if (omitted.length === 0 && out.length <= max) return out;
  let moreErrors = omitted.length;
  for (let i = max; i < out.length; i++) if (out[i]!.severity === "error") moreErrors++;
  const kept = out.length > max ? out.slice(0, max) : out.slice();
  kept.push(moreFindings(max, omitted.length + Math.max(0, out.length - max), moreErrors));
  return kept;
}
// #endregion runtime
