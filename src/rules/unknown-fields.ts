/**
 * Rule kind `unknownFields`: a warning for each top-level field the endpoint does not list.
 * Spec 4.1: "Unlisted fields are not described", so the service may ignore or reject them.
 *
 * Shape match (`unknown-field`): an input schema that lists its `properties` and says nothing
 * of other fields (no `additionalProperties`, no `patternProperties`). It is derived from the
 * schema alone, for every endpoint, and is not one of the spec's cross-field rules.
 */
import { closest, diagnostic, escapeToken, fieldLabel, type Diagnostic } from "../../templates/support.js";
import { isSchemaObject, type JsonSchemaObject } from "../schema/index.js";
import type { QuickForm } from "./define.js";

// #region runtime (copied into the generated support module: no imports in here)
/** The top-level fields an endpoint lists; any other field is a warning (spec 4.1). */
export interface UnknownFieldsRule {
  id: string;
  kind: "unknownFields";
  known: string[];
}

/** spec 4.1: "Unlisted fields are not described": a warning, with the nearest known field */
export function checkUnknownFields(rule: UnknownFieldsRule, input: Record<string, unknown>): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const key of Object.keys(input)) {
    if (rule.known.includes(key)) continue;
    const hint = closest(key, rule.known);
    const pointer = "/" + escapeToken(key);
    out.push(
      diagnostic(
        "warning",
        pointer,
        rule.id,
        `${fieldLabel(pointer)}: is not a field of this endpoint${hint !== undefined ? `; did you mean "${hint}"?` : ""} (known: ${rule.known.join(", ")})`,
      ),
    );
  }
  return out;
}
// #endregion runtime

/** The id of the warning for a field the endpoint does not list (spec 4.1). */
export const UNKNOWN_FIELD_RULE = "unknown-field";

export const quickUnknownFields: QuickForm<UnknownFieldsRule> = (rule) => {
  if (rule.known.length === 0) return "for (const k in input) return false;";
  return `for (const k in input) { switch (k) { ${rule.known.map((k) => `case ${JSON.stringify(k)}:`).join(" ")} break; default: return false; } }`;
};

/** The warning for an endpoint whose schema lists its fields and allows no others by pattern. */
export function matchUnknownFields(input: JsonSchemaObject): UnknownFieldsRule | undefined {
  const { properties, additionalProperties, patternProperties } = input;
  if (!isSchemaObject(properties) || additionalProperties !== undefined || patternProperties !== undefined)
    return undefined;
  return { id: UNKNOWN_FIELD_RULE, kind: "unknownFields", known: Object.keys(properties) };
}
