/**
 * The shape of a rule kind, shared by every kind: its record (`RuleKind`), a rule definition
 * (one rule of the service spec, with its shape match) and the helpers of the quick form. A rule
 * kind's file (`unique-item-field.ts`, …) exports ONE record: its check and message (the runtime
 * region, which the package build copies into the generated support module), its severity, its
 * quick form, its editor description and the definitions of the spec's rules of that kind.
 * kinds.ts lists the records; everything else reads the list.
 */
import type { Diagnostic, InvalidPointers } from "../diagnostics/index.js";
import type { JsonSchemaObject } from "../schema/index.js";
import { parsePointer } from "../json/index.js";
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

/** What every rule carries: its id (in diagnostics) and its kind (which names its record). */
export interface RuleBase {
  id: string;
  kind: string;
}

/**
 * A kind's check: the rule, the payload (an object), the pointers that already failed their
 * schema, and how many of its findings are worded at most (a `FindingLimit`'s `max`: the rest are
 * counted, never shown, so a check may stand for each of them with one shared, unworded diagnostic).
 */
export type RuleCheck<R> = (
  rule: R,
  input: Record<string, unknown>,
  invalid: InvalidPointers,
  max: number,
  /** false: the findings counted, not worded (`FindingLimit.words`): `message` "", no `expected` or `received` */
  words: boolean,
) => Diagnostic[];

/**
 * A rule as the editor schema says it (spec 7.2 wording, written out in `description`): literal
 * text and code (field names, values), and the JSON Pointers of the fields it is noted on.
 */
export interface RuleDescription {
  parts: Array<string | { code: string }>;
  /** the fields the note goes on (top-level pointers of the input) */
  fields: string[];
  /** and the items' field of an array, when the rule concerns one */
  items?: { array: string; field: string };
  /**
   * the spec section: the note is a bullet of the root's cross-field rules and of its fields,
   * ending "(<severity>, spec <spec>; rule <id>)". Without it the note is a line of the root.
   */
  spec?: string;
  /** vsk warns about every field the input does not list: the editor schema closes the input */
  closesInput?: true;
}

/** One rule kind, all of it: what kinds.ts lists and the generator, dispatch and editor schema read. */
export interface RuleKind<R extends RuleBase> {
  kind: R["kind"];
  /**
   * its file in src/rules/ (without `.ts`), whose runtime region scripts/embed.mjs copies into the
   * generated support module, in the list's order; the region declares `interface <Kind>Rule`
   * and the function `check`
   */
  file: string;
  /** the severity of every diagnostic its check reports (spec 7.1) */
  severity: "error" | "warning";
  /** the spec's rules of this kind, each with its shape match (what `models[].rules` overrides name) */
  definitions: ReadonlyArray<RuleDefinition<R>>;
  /** a rule worked out from any endpoint's schema alone, for every endpoint, after the spec's rules */
  derive?: (input: JsonSchemaObject) => R | undefined;
  check: RuleCheck<R>;
  /** the sentence after the field's label (runtime region) */
  message: (...args: never[]) => string;
  quick: QuickForm<R>;
  describe: (rule: R) => RuleDescription;
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

/** `/keyframes` → `keyframes`, `/a/b` → `a.b`: a rule's pointer as its editor description names it. */
export const label = (pointer: string): string => parsePointer(pointer).join(".");

/** A property access with the name embedded as data: `["frame_index"]`. */
export const key = (name: string): string => `[${JSON.stringify(name)}]`;
