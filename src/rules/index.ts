/**
 * Stage 3, rules: the service spec's cross-field rules, which a published JSON Schema cannot
 * state. One file per rule kind exports one record (`RuleKind`: its check and message, the
 * runtime region copied into the generated support module; its severity, quick form for the
 * emitted validator, editor description, and the spec's rules of that kind with their shape
 * match); kinds.ts lists them, and check.ts (dispatch), quick.ts and select.ts (which rules an
 * endpoint gets) read the list. Pure functions.
 */
export type { CompiledSchema } from "./check.js";
export { checkRules, runValidation, diagnose } from "./check.js";
export { RULE_KINDS, kindOf, type RuleSpec } from "./kinds.js";
export type { Diagnostic } from "../diagnostics/index.js";
export type { RuleDefinition, RuleDescription, RuleKind, SpecModel } from "./define.js";
export { declaredField, typesOf, valueSchema, type Misfit } from "./shape.js";
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
export { quickCheckSource, quickModuleSource } from "./quick.js";
export { recheckOnText } from "./unique-item-field.js";
export { createAjv, needsOwnProperties, SUPPORT_FUNCTIONS } from "./ajv-config.js";
