/**
 * Runs an endpoint's rules over a payload: the dispatch from a rule's kind to its check (from
 * kinds.ts's list), and the whole check of an endpoint (schema errors first, then the rules,
 * errors before warnings). Its runtime region goes into the generated support module after the
 * rule kinds' regions, preceded by the same dispatch written out by scripts/embed.mjs from the
 * list (`RuleSpec`, `Check`, `CHECKS`).
 */
import { diagnosticsFromAjv, type AjvError, type Diagnostic, invalidPointers } from "../diagnostics/index.js";
import type { RuleCheck } from "./define.js";
import { RULE_KINDS, type RuleSpec } from "./kinds.js";

export type { RuleSpec } from "./kinds.js";

type Check<K extends RuleSpec["kind"]> = RuleCheck<Extract<RuleSpec, { kind: K }>>;

/** kind → check, from the list. */
const CHECKS = Object.fromEntries(RULE_KINDS.map((k) => [k.kind, k.check])) as {
  [K in RuleSpec["kind"]]: Check<K>;
};

// #region runtime (copied into the generated support module: no imports in here)
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
