/**
 * Stage 3, rules: the service spec's cross-field rules, which a published JSON Schema cannot
 * state. One file per rule kind holds its check and message (the runtime region, copied into
 * the generated support module), its quick form for the emitted validator, and the spec's rules
 * of that kind with their shape match; select.ts decides from an endpoint's schema which rules
 * it gets. Pure functions.
 */
export type { RuleSpec, CompiledSchema } from "./check.js";
export { checkRules, runValidation, diagnose } from "./check.js";
export type { Diagnostic } from "../diagnostics/index.js";
export type { RuleDefinition, SpecModel } from "./define.js";
export type { Misfit } from "./shape.js";
export {
  RULE_DEFINITIONS,
  SPEC_RULES,
  specModelOf,
  selectRules,
  rulesFor,
  crossFieldRuleIds,
  overrideProblem,
  type RulesSetting,
  type RuleMisfit,
  type RuleSelection,
} from "./select.js";
export { UNKNOWN_FIELD_RULE } from "./unknown-fields.js";
export { quickCheckSource } from "./quick.js";
export { recheckOnText } from "./unique-item-field.js";
export { createAjv, needsOwnProperties, SUPPORT_FUNCTIONS } from "./ajv.js";
