/**
 * Bounds (`minimum`, `maxLength`, `maxItems`, …) and `multipleOf`: a bound set or moved to
 * accept less narrows, unset or moved to accept more widens; a step whose values are all
 * values of the old step narrows.
 */
import { BOUNDS } from "../../table/index.js";
import type { Alternative } from "../../view.js";
import { at, kindOf, type FindingParams, type Walk } from "../finding.js";

export function compareBounds(snapshot: Alternative, source: Alternative, field: string[], walk: Walk): void {
  for (const bound of BOUNDS) {
    const number = (alt: Alternative): number | undefined => {
      const v = alt.schema[bound.keyword];
      // minLength, minItems and minProperties 0 bound nothing
      return typeof v === "number" &&
        !(
          v === 0 &&
          (bound.keyword === "minLength" || bound.keyword === "minItems" || bound.keyword === "minProperties")
        )
        ? v
        : undefined;
    };
    const vb = number(snapshot);
    const va = number(source);
    if (vb === va) continue;
    const change = vb === undefined ? "set" : va === undefined ? "unset" : va > vb ? "increased" : "decreased";
    const narrows = change === "set" || (bound.upper ? change === "decreased" : change === "increased");
    const params: FindingParams = {
      keyword: bound.keyword,
      change,
      from: vb,
      to: va,
      sample: { schema: snapshot.schema, side: "before" },
    };
    const pb = at(snapshot, bound.keyword);
    const pa = at(source, bound.keyword);
    if (walk.direction === "response") {
      walk.emit(narrows ? "response/bound-narrowed" : "response/bound-widened", field, pb, pa, params);
      continue;
    }
    const what =
      change === "set"
        ? "bound-set"
        : change === "unset"
          ? "bound-unset"
          : bound.upper
            ? narrows
              ? "upper-bound-lowered"
              : "upper-bound-raised"
            : narrows
              ? "lower-bound-raised"
              : "lower-bound-lowered";
    walk.emit(`request/${what}`, field, pb, pa, params);
  }
}

/** `format`, `pattern`, `uniqueItems`: set narrows, unset widens, rewritten is undecidable (unclassified). */

/** Whether `x` is a whole multiple of `y` (within floating-point error). */
function isMultiple(x: number, y: number): boolean {
  const q = x / y;
  return y !== 0 && Math.abs(q - Math.round(q)) < 1e-9;
}

/** `multipleOf`: a step whose values are all values of the old step narrows; the reverse widens; any other change both. */
export function compareMultipleOf(snapshot: Alternative, source: Alternative, field: string[], walk: Walk): void {
  const step = (alt: Alternative): number | undefined =>
    typeof alt.schema.multipleOf === "number" && alt.schema.multipleOf > 0 ? alt.schema.multipleOf : undefined;
  const vb = step(snapshot);
  const va = step(source);
  if (vb === va) return;
  const what =
    va !== undefined && (vb === undefined || isMultiple(va, vb))
      ? "multiple-of-narrowed"
      : vb !== undefined && (va === undefined || isMultiple(vb, va))
        ? "multiple-of-widened"
        : "multiple-of-changed";
  walk.emit(kindOf(walk.direction, what), field, at(snapshot, "multipleOf"), at(source, "multipleOf"), {
    keyword: "multipleOf",
    from: vb,
    to: va,
    sample: { schema: snapshot.schema, side: "before" },
  });
}
