/**
 * `format`, `pattern`, `uniqueItems`: constraints that, once set, reject values accepted without
 * them; set narrows, unset widens, rewritten is undecidable (unclassified). A pattern every
 * string matches and `uniqueItems: false` constrain nothing.
 */
import { CONSTRAINTS } from "../../table/index.js";
import { canonical, type Alternative } from "../../view.js";
import { at, kindOf, type FindingParams, type Walk } from "../finding.js";

/**
 * Patterns every string matches (issue 29.3): empty, or `.*` anchored at most at one end, which
 * matches at least the empty string wherever it may start. Not `^.*$`: `.` stops at a line break,
 * so it rejects "a\nb" and is a real pattern.
 */
const MATCH_ALL_PATTERNS: ReadonlySet<string> = new Set([
  "",
  ".*",
  "^.*",
  ".*$",
  "[\\s\\S]*",
  "^[\\s\\S]*",
  "[\\s\\S]*$",
  "^[\\s\\S]*$",
]);

/** What can make an empty match depend on where it is: at the end (`$`), or next to text (`\b`, lookarounds). */
const AT_END = /\$|\\[bB]|\(\?<?[=!]/;
/** What can make an empty match depend on the start (`^`), or on text next to it (`\b`, lookarounds). */
const AT_START = /\^|\\[bB]|\(\?<?[=!]/;

/**
 * Whether `pattern` matches every string: one of the forms above, or a pattern that matches the
 * empty string without anything tying that match to the end (so it matches at the start of every
 * string: `^`, `\S*`, `(?:)`) or to the start (so it matches at the end: `$`). Run on the empty
 * string only (it cannot backtrack there), compiled as Ajv compiles it (`u` flag).
 */
function matchesEverything(pattern: string): boolean {
  if (MATCH_ALL_PATTERNS.has(pattern)) return true;
  if (AT_END.test(pattern) && AT_START.test(pattern)) return false;
  try {
    return new RegExp(pattern, "u").test("");
  } catch {
    return false;
  }
}

/** Per constraint, the values that constrain nothing: compared as if the keyword were absent. */
const CONSTRAINS_NOTHING: Record<(typeof CONSTRAINTS)[number], (value: unknown) => boolean> = {
  format: () => false,
  pattern: (value) => typeof value === "string" && matchesEverything(value),
  uniqueItems: (value) => value === false,
};

export function compareConstraints(snapshot: Alternative, source: Alternative, field: string[], walk: Walk): void {
  for (const keyword of CONSTRAINTS) {
    const value = (alt: Alternative): unknown =>
      CONSTRAINS_NOTHING[keyword](alt.schema[keyword]) ? undefined : alt.schema[keyword];
    const vb = value(snapshot);
    const va = value(source);
    if (canonical(vb) === canonical(va)) continue;
    const params: FindingParams = { keyword, from: vb, to: va, sample: { schema: snapshot.schema, side: "before" } };
    const what = vb === undefined ? "constraint-set" : va === undefined ? "constraint-unset" : "keyword-changed";
    walk.emit(kindOf(walk.direction, what), field, at(snapshot, keyword), at(source, keyword), params);
  }
}
