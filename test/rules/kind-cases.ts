// The table every rule kind's test runs: `[name, { given, want }]`, where `given` is a payload and
// `want` the diagnostics the rule reports on it as [severity, rule, pointer, message]. Each case
// also holds the kind's record to its word: the record's severity on every diagnostic, and the
// quick form never lenient (it says "maybe" whenever the full check finds something).
import { expect, it } from "vitest";
import { checkRules, kindOf, quickCheckSource, type RuleKind, type RuleSpec } from "../../src/rules/index.js";

export type KindCase = [string, { given: unknown; want: unknown[][] }];

export function runKindCases<R extends RuleSpec>(kind: RuleKind<R>, rule: R, cases: readonly KindCase[]): void {
  const quick = new Function("input", "errorsOnly", quickCheckSource([rule])) as (input: unknown) => boolean;
  it.each(cases)("%s", (_, { given, want }) => {
    const found = checkRules([rule], given, []);
    expect(found.map((d) => [d.severity, d.rule, d.pointer, d.message])).toEqual(want);
    for (const d of found) expect(d.severity).toBe(kind.severity);
    if (want.length > 0) expect(quick(given)).toBe(false);
  });
  it("is the record its rules' kind names", () => {
    expect(kindOf(rule)).toBe(kind);
  });
}
