/**
 * The fast face of an endpoint's rules: JavaScript source of a check that returns `false` as
 * soon as a rule might find something, and never allocates. The emitted validator runs it only
 * after the schema passed; when it says `false`, the full checks (check.ts) decide and explain.
 * So a quick form may be conservative, never lenient: test/rules/quick.test.ts holds it to that
 * against the full check on random payloads. Each kind's quick form is its record's `quick`;
 * parameters are embedded with JSON.stringify (data, never code).
 */
import { kindOf, type RuleSpec } from "./kinds.js";

/**
 * The body of `function quick(input)` for an endpoint's rules: `return true` when no rule can
 * find anything. A rule the quick path cannot handle makes it `return false` (full check).
 */
export function quickCheckSource(rules: readonly RuleSpec[]): string {
  const parts = ['if (input === null || typeof input !== "object" || Array.isArray(input)) return false;'];
  for (const rule of rules) {
    const kind = kindOf(rule);
    const code = kind.quick(rule);
    const part = code === undefined ? "return false;" : code;
    // a Standard Schema validate wants errors only (issue 38.3): a warning rule's quick form
    // (the unknown-field scan walks every key) is skipped then
    parts.push(kind.severity === "warning" ? `if (!errorsOnly) {\n${part}\n}` : part);
  }
  parts.push("return true;");
  return parts.join("\n");
}
