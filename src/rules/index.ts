/**
 * Stage 3, rules: for each endpoint, the cross-field rules of the spec (as data) plus the rules
 * derived from its schema (unknown top-level fields are warnings). Pure functions.
 */
import type { ModelRef } from "../config/index.js";
import type { EndpointModel } from "../schema/index.js";
import { isSchemaObject } from "../schema/index.js";
import type { RuleSpec } from "../../templates/support.js";
import { SPEC_RULES, UNKNOWN_FIELD_RULE } from "./table.js";

export type { RuleSpec } from "../../templates/support.js";
export { checkRules, runValidation, diagnose, diagnosticsFromAjv, type Diagnostic } from "../../templates/support.js";
export { SPEC_RULES, UNKNOWN_FIELD_RULE } from "./table.js";
export { quickCheckSource } from "./quick.js";
export { createAjv, needsOwnProperties } from "./ajv.js";

const SPEC_MODELS = new Set(["modelA", "modelB", "modelC"]);

/** Which spec model's rules apply to a configured model: its `rules` setting, else its alias. */
export function specModelOf(ref: Pick<ModelRef, "alias"> & { rules?: string }): string | undefined {
  const name = ref.rules ?? ref.alias;
  return name !== undefined && SPEC_MODELS.has(name) ? name : undefined;
}

/** The rules of one endpoint: the spec's, then the unknown-field warning when the schema lists fields. */
export function rulesFor(endpoint: EndpointModel, ref: Pick<ModelRef, "alias"> & { rules?: string }): RuleSpec[] {
  const spec = specModelOf(ref);
  const rules: RuleSpec[] = spec === undefined ? [] : [...(SPEC_RULES[`${spec}/${endpoint.endpoint}`] ?? [])];
  const { properties, additionalProperties, patternProperties } = endpoint.input;
  if (isSchemaObject(properties) && additionalProperties === undefined && patternProperties === undefined) {
    rules.push({ id: UNKNOWN_FIELD_RULE, kind: "unknownFields", known: Object.keys(properties) });
  }
  return rules;
}
