/**
 * Every rule kind, one line each: the list the rest of vsk reads (the dispatch in check.ts, the
 * quick forms in quick.ts, rule selection in select.ts, the editor schema's descriptions) and
 * the order that matters: an endpoint's rules are checked in this order (the spec's rules of
 * each kind, then the derived unknown-field warning), and scripts/embed.mjs copies the kinds'
 * runtime regions into the generated support module in this order, after src/diagnostics/ and
 * before check.ts's. A new kind: its file (one `RuleKind` record), one line here, one test file
 * test/rules/<kind>.test.ts.
 */
import type { RuleKindName } from "../diagnostics/index.js";
import type { RuleBase, RuleKind } from "./define.js";
import { integerInSetOrRange } from "./integer-in-set-or-range.js";
import { itemFieldWithinDuration } from "./item-field-within-duration.js";
import { promptLengthRecommendation } from "./prompt-length-recommendation.js";
import { requiresFlag } from "./requires-flag.js";
import { uniqueItemField } from "./unique-item-field.js";
import { unknownFields } from "./unknown-fields.js";

export const RULE_KINDS = [
  uniqueItemField,
  itemFieldWithinDuration,
  requiresFlag,
  integerInSetOrRange,
  promptLengthRecommendation,
  unknownFields,
] as const;

/** A rule as data: its kind names its record; the rest are its parameters. */
export type RuleSpec = (typeof RULE_KINDS)[number] extends infer K ? (K extends RuleKind<infer R> ? R : never) : never;

/** The diagnostics' names of the kinds (`RuleKindName`, a diagnostic's `expected.kind`) are this list's. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
true satisfies Same<RuleSpec["kind"], RuleKindName>;

const BY_KIND = new Map<string, RuleKind<RuleBase>>(
  RULE_KINDS.map((k) => [k.kind, k as unknown as RuleKind<RuleBase>]),
);

/** The record of a rule's kind (every `RuleSpec` has one). */
export function kindOf<R extends RuleSpec>(rule: R): RuleKind<R> {
  const kind = BY_KIND.get(rule.kind);
  if (kind === undefined) throw new Error(`rule ${rule.id}: unknown rule kind ${JSON.stringify(rule.kind)}`);
  return kind as unknown as RuleKind<R>;
}
