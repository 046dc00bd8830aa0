/**
 * Stage 3, rules: for each endpoint, the cross-field rules of the spec (as data) plus the rules
 * derived from its schema (unknown top-level fields are warnings). Pure functions.
 */
import type { ModelRef } from "../config/index.js";
import type { EndpointModel } from "../schema/index.js";
import { isSchemaObject, nullableInner, type JsonSchemaObject } from "../schema/index.js";
import type { RuleSpec } from "../../templates/support.js";
import { SPEC_RULES, UNKNOWN_FIELD_RULE } from "./table.js";

export type { RuleSpec } from "../../templates/support.js";
export { checkRules, runValidation, diagnose, diagnosticsFromAjv, type Diagnostic } from "../../templates/support.js";
export { SPEC_RULES, UNKNOWN_FIELD_RULE } from "./table.js";
export { quickCheckSource } from "./quick.js";
export { createAjv, needsOwnProperties } from "./ajv.js";

const SPEC_MODELS = ["modelA", "modelB", "modelC"];

/** Which spec model's rules apply to a configured model: its `rules` setting, else its alias (any case). */
export function specModelOf(ref: Pick<ModelRef, "alias"> & { rules?: string }): string | undefined {
  const name = (ref.rules ?? ref.alias)?.toLowerCase();
  return SPEC_MODELS.find((m) => m.toLowerCase() === name);
}

/** The schema of a top-level input field as declared (annotations such as `default` sit here). */
function declared(input: JsonSchemaObject, pointer: string): JsonSchemaObject | undefined {
  const properties = isSchemaObject(input.properties) ? input.properties : {};
  const schema = properties[pointer.slice(1)];
  return isSchemaObject(schema) ? schema : undefined;
}

/** The same field's non-null form, where its bounds sit. */
function fieldSchema(input: JsonSchemaObject, pointer: string): JsonSchemaObject | undefined {
  const schema = declared(input, pointer);
  return schema === undefined ? undefined : (nullableInner(schema) ?? schema);
}

/**
 * Rule parameters the published schema states better than the spec's prose: when the vendor
 * changes a default or a bound, the rule follows the schema it is generated from (and drift
 * compares the two sides with their own values). Per rule kind, as data.
 */
const FROM_SCHEMA: Partial<Record<RuleSpec["kind"], (rule: never, input: JsonSchemaObject) => RuleSpec>> = {
  itemFieldWithinDuration: (rule: Extract<RuleSpec, { kind: "itemFieldWithinDuration" }>, input) => {
    const stated = declared(input, rule.duration)?.default;
    return typeof stated === "number" ? { ...rule, defaultDuration: stated } : rule;
  },
  integerInSetOrRange: (rule: Extract<RuleSpec, { kind: "integerInSetOrRange" }>, input) => {
    const max = fieldSchema(input, rule.field)?.maximum;
    return typeof max === "number" ? { ...rule, max } : rule;
  },
};

/** The rules of one endpoint: the spec's, then the unknown-field warning when the schema lists fields. */
export function rulesFor(endpoint: EndpointModel, ref: Pick<ModelRef, "alias"> & { rules?: string }): RuleSpec[] {
  const spec = specModelOf(ref);
  const rules: RuleSpec[] = (spec === undefined ? [] : (SPEC_RULES[`${spec}/${endpoint.endpoint}`] ?? [])).map(
    (rule) => FROM_SCHEMA[rule.kind]?.(rule as never, endpoint.input) ?? rule,
  );
  const { properties, additionalProperties, patternProperties } = endpoint.input;
  if (isSchemaObject(properties) && additionalProperties === undefined && patternProperties === undefined) {
    rules.push({ id: UNKNOWN_FIELD_RULE, kind: "unknownFields", known: Object.keys(properties) });
  }
  return rules;
}
