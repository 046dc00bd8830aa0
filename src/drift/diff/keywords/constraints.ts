/**
 * `format`, `pattern`, `uniqueItems`: constraints that, once set, reject values accepted without
 * them; set narrows, unset widens, rewritten is undecidable (unclassified). A pattern every
 * string matches and `uniqueItems: false` constrain nothing.
 */
import { CONSTRAINTS } from "../../table/index.js";
import { canonical, matchesEverything, type Alternative } from "../../view.js";
import { at, kindOf, type FindingParams, type Walk } from "../finding.js";

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
    // a response format or pattern rewritten may allow what the old one rejected (issue 39)
    const kind =
      what === "keyword-changed" && walk.direction === "response" && keyword !== "uniqueItems"
        ? "response/constraint-changed"
        : kindOf(walk.direction, what);
    walk.emit(kind, field, at(snapshot, keyword), at(source, keyword), params);
  }
}
