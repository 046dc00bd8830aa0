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
 * An endpoint's quick forms as module source: `quickRuleK(input)`, rule K's quick form (true when
 * it cannot find anything in the object `input`); `quickRules`, those functions by rule index
 * (`undefined` for a rule without one), which `diagnose` hands to `checkRules` so that a payload
 * with schema errors skips the full check of a rule that cannot find anything (issue 40: the
 * unknown-field walk was a tenth of checking an invalid payload); and `quick(input, errorsOnly)`,
 * true when no rule can find anything. A rule the quick path cannot handle makes `quick` false.
 */
export function quickModuleSource(rules: readonly RuleSpec[]): string {
  const functions: string[] = [];
  const names: string[] = [];
  const body = ['if (input === null || typeof input !== "object" || Array.isArray(input)) return false;'];
  rules.forEach((rule, k) => {
    const kind = kindOf(rule);
    const code = kind.quick(rule);
    let test = "return false;";
    if (code === undefined) names.push("undefined");
    else {
      functions.push(`function quickRule${k}(input) {\n${code}\nreturn true;\n}`);
      names.push(`quickRule${k}`);
      test = `if (!quickRule${k}(input)) return false;`;
    }
    // a Standard Schema validate wants errors only (issue 38.3): a warning rule's quick form
    // (the unknown-field scan walks every key) is skipped then
    body.push(kind.severity === "warning" ? `if (!errorsOnly) {\n${test}\n}` : test);
  });
  body.push("return true;");
  return [
    ...functions,
    `const quickRules = [${names.join(", ")}];`,
    `function quick(input, errorsOnly) {\n${body.join("\n")}\n}`,
  ].join("\n");
}

/**
 * The body of a `function (input, errorsOnly)` that returns what the emitted `quick` would, from
 * the same source (for tests: `new Function("input", "errorsOnly", quickCheckSource(rules))`).
 */
export function quickCheckSource(rules: readonly RuleSpec[]): string {
  return `${quickModuleSource(rules)}\nreturn quick(input, errorsOnly);`;
}
