/**
 * The shape of a row of the change table: the kind it names, its oasdiff-style id, direction,
 * severity, sentence and example strategy. The rows live in `endpoint.ts`, `request.ts` and
 * `response.ts`; `catalogue.ts` joins them.
 *
 * Placeholders in `id` and `text`: {field} (the payload location), {keyword} (a schema
 * keyword in oasdiff's kebab form: max, min-length, …), {change} (increased, decreased, set,
 * unset), {value}, {from}, {to}.
 */
import type { Direction, ChangeSeverity } from "../types.js";

/**
 * How `example.ts` builds a payload that crosses the change: for a request, accepted by the
 * snapshot and rejected by the source; for a response, allowed by the source and rejected by
 * a client built from the snapshot.
 * - `value`: the changed value itself (an enum value removed or added)
 * - `old-bound`: a value exactly at the old bound (old maximum, old minLength, …)
 * - `past-new-bound`: a value just past a newly set bound
 * - `omit`: leave the field out
 * - `null`: send null
 * - `before-sample`: a value of the field's old schema
 * - `type-sample`: a value of a type accepted on one side only
 * - `branch-sample`: a value of an `anyOf` alternative present on one side only
 * - `crossing-value`: a few candidate values of the field's type (samples of both sides, near
 *   the bounds, off the step, unlike the format); the first one Ajv finds crossing is shown
 * - `extra-property`: the object with one property its schema does not list
 * - `keyword-witness`: values drawn from a 2020-12 keyword's new value (a property it names, an
 *   item of `contains`, numbers near its bounds), then the `crossing-value` candidates
 */
export type ExampleStrategy =
  | "value"
  | "old-bound"
  | "past-new-bound"
  | "omit"
  | "null"
  | "before-sample"
  | "type-sample"
  | "branch-sample"
  | "crossing-value"
  | "extra-property"
  | "keyword-witness";

/** One variant of a row: the keyword (and for response bounds, the change) filled into its id. */
export interface Variant {
  keyword: string;
  change?: "increased" | "decreased" | "set" | "unset";
}

export interface ChangeKind {
  /** unique key of the row, `<direction>/<what>` */
  kind: string;
  /** oasdiff-style id template: `{keyword}` and `{change}` come from the row's variants */
  id: string;
  direction: Direction;
  severity: ChangeSeverity;
  /** one sentence template */
  text: string;
  example?: ExampleStrategy;
  /**
   * The keywords (and changes) `{keyword}` / `{change}` in `id` can take; each gives one entry
   * of the catalogue. A row whose id has no placeholder has none.
   */
  variants?: readonly Variant[];
}
