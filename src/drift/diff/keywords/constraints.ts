/** `format`, `pattern`, `uniqueItems`: constraints that, once set, reject values accepted without them. */
import { CONSTRAINTS } from "../../table/index.js";
import { canonical, type Alternative } from "../../view.js";
import { at, kindOf, type FindingParams, type Walk } from "../finding.js";

export function compareConstraints(snapshot: Alternative, source: Alternative, field: string[], walk: Walk): void {
  for (const keyword of CONSTRAINTS) {
    const value = (alt: Alternative): unknown =>
      keyword === "uniqueItems" && alt.schema[keyword] === false ? undefined : alt.schema[keyword];
    const vb = value(snapshot);
    const va = value(source);
    if (canonical(vb) === canonical(va)) continue;
    const params: FindingParams = { keyword, from: vb, to: va, sample: { schema: snapshot.schema, side: "before" } };
    const what = vb === undefined ? "constraint-set" : va === undefined ? "constraint-unset" : "keyword-changed";
    walk.emit(kindOf(walk.direction, what), field, at(snapshot, keyword), at(source, keyword), params);
  }
}
