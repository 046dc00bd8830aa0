/**
 * The generator's side of a rule, shared by every rule kind: a rule definition (one rule of the
 * service spec, with its shape match) and the helpers of the quick form. A rule kind's file
 * (`unique-item-field.ts`, …) holds, side by side: its check and message (the runtime region,
 * which the package build copies into the generated support module), its quick form, and the
 * definitions of the spec's rules of that kind.
 */
import type { JsonSchemaObject } from "../schema/index.js";
import { PROTOTYPE_MEMBERS } from "../schema/index.js";
import type { Misfit } from "./shape.js";

/** The spec's three models (spec 1, 4), as `models[].rules` names them. */
export type SpecModel = "modelA" | "modelB" | "modelC";

/** One rule of the service spec. */
export interface RuleDefinition<R> {
  /** the rule id in diagnostics, `generate`'s output and `endpoints.json` */
  id: string;
  /** the spec model and endpoint the spec states the rule for (what a `models[].rules` override names) */
  specModel: SpecModel;
  endpoint: string;
  /** the rule with the parameters the spec states */
  spec: R;
  /**
   * The shape match: the rule for an endpoint whose input schema has the shape the rule needs,
   * with the parameters that schema states (a default, a bound), or why it does not fit.
   */
  match(input: JsonSchemaObject): R | Misfit;
}

/** The quick face of a rule kind: JavaScript source, or undefined for "always run the full check". */
export type QuickForm<R> = (rule: R) => string | undefined;

/** `/a` → `a`; undefined for pointers the quick path does not handle (deeper, escaped, inherited names). */
export function topLevel(pointer: string): string | undefined {
  const token = pointer.slice(1);
  return pointer.startsWith("/") && !token.includes("/") && !token.includes("~") && !PROTOTYPE_MEMBERS.has(token)
    ? token
    : undefined;
}

/** A property access with the name embedded as data: `["frame_index"]`. */
export const key = (name: string): string => `[${JSON.stringify(name)}]`;
