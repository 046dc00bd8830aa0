/**
 * The classification of schema changes, as one table of data: one row per change kind, with
 * its oasdiff-style id, the direction it applies to, its severity, the sentence a person reads
 * and how to build a concrete example payload. `diff.ts` finds changes and names their kind;
 * everything a report says about a kind comes from here (issue 5, "Classification").
 *
 * Placeholders in `id` and `text`: {field} (the payload location), {keyword} (a schema
 * keyword in oasdiff's kebab form: max, min-length, …), {change} (increased, decreased, set,
 * unset), {value}, {from}, {to}.
 */
import type { Direction, Severity } from "./types.js";

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
 */
export type ExampleStrategy =
  "value" | "old-bound" | "past-new-bound" | "omit" | "null" | "before-sample" | "type-sample" | "branch-sample";

export interface ChangeKind {
  /** unique key of the row, `<direction>/<what>` */
  kind: string;
  /** oasdiff-style id template */
  id: string;
  direction: Direction;
  severity: Severity;
  /** one sentence template */
  text: string;
  example?: ExampleStrategy;
}

export const CHANGE_KINDS = [
  // -- endpoints ---------------------------------------------------------------------------
  {
    kind: "endpoint/removed",
    id: "endpoint-removed",
    direction: "endpoint",
    severity: "breaking",
    text: "endpoint removed: requests to {value} will fail",
  },
  {
    kind: "endpoint/added",
    id: "endpoint-added",
    direction: "endpoint",
    severity: "safe",
    text: "new endpoint {value}",
  },

  // -- request: what the service accepts. Narrowing rejects payloads that passed before. ----
  {
    kind: "request/enum-value-removed",
    id: "request-property-enum-value-removed",
    direction: "request",
    severity: "breaking",
    text: "{field}: {value} is no longer accepted",
    example: "value",
  },
  {
    kind: "request/enum-value-added",
    id: "request-property-enum-value-added",
    direction: "request",
    severity: "safe",
    text: "{field}: {value} is now accepted",
  },
  {
    kind: "request/enum-set",
    id: "request-property-enum-set",
    direction: "request",
    severity: "breaking",
    text: "{field}: now restricted to {to}",
    example: "before-sample",
  },
  {
    kind: "request/enum-unset",
    id: "request-property-enum-unset",
    direction: "request",
    severity: "safe",
    text: "{field}: no longer restricted to {from}",
  },
  {
    kind: "request/upper-bound-lowered",
    id: "request-property-{keyword}-decreased",
    direction: "request",
    severity: "breaking",
    text: "{field}: {keyword} lowered from {from} to {to}",
    example: "old-bound",
  },
  {
    kind: "request/lower-bound-raised",
    id: "request-property-{keyword}-increased",
    direction: "request",
    severity: "breaking",
    text: "{field}: {keyword} raised from {from} to {to}",
    example: "old-bound",
  },
  {
    kind: "request/bound-set",
    id: "request-property-{keyword}-set",
    direction: "request",
    severity: "breaking",
    text: "{field}: new {keyword} {to}",
    example: "past-new-bound",
  },
  {
    kind: "request/upper-bound-raised",
    id: "request-property-{keyword}-increased",
    direction: "request",
    severity: "safe",
    text: "{field}: {keyword} raised from {from} to {to}",
  },
  {
    kind: "request/lower-bound-lowered",
    id: "request-property-{keyword}-decreased",
    direction: "request",
    severity: "safe",
    text: "{field}: {keyword} lowered from {from} to {to}",
  },
  {
    kind: "request/bound-unset",
    id: "request-property-{keyword}-unset",
    direction: "request",
    severity: "safe",
    text: "{field}: {keyword} {from} no longer enforced",
  },
  {
    kind: "request/property-became-required",
    id: "request-property-became-required",
    direction: "request",
    severity: "breaking",
    text: "{field} is now required",
    example: "omit",
  },
  {
    kind: "request/new-required-property",
    id: "new-required-request-property",
    direction: "request",
    severity: "breaking",
    text: "new required field {field}",
    example: "omit",
  },
  {
    kind: "request/property-became-optional",
    id: "request-property-became-optional",
    direction: "request",
    severity: "safe",
    text: "{field} is now optional",
  },
  {
    kind: "request/new-optional-property",
    id: "new-optional-request-property",
    direction: "request",
    severity: "safe",
    text: "new optional field {field}",
  },
  {
    kind: "request/property-removed",
    id: "request-property-removed",
    direction: "request",
    severity: "breaking",
    text: "{field} was removed: payloads that send it may be rejected or ignored",
    example: "before-sample",
  },
  {
    kind: "request/type-narrowed",
    id: "request-property-type-narrowed",
    direction: "request",
    severity: "breaking",
    text: "{field}: type narrowed from {from} to {to}",
    example: "type-sample",
  },
  {
    kind: "request/type-changed",
    id: "request-property-type-changed",
    direction: "request",
    severity: "breaking",
    text: "{field}: type changed from {from} to {to}",
    example: "type-sample",
  },
  {
    kind: "request/type-widened",
    id: "request-property-type-widened",
    direction: "request",
    severity: "safe",
    text: "{field}: type widened from {from} to {to}",
  },
  {
    kind: "request/became-not-nullable",
    id: "request-property-became-not-nullable",
    direction: "request",
    severity: "breaking",
    text: "{field}: null is no longer accepted",
    example: "null",
  },
  {
    kind: "request/became-nullable",
    id: "request-property-became-nullable",
    direction: "request",
    severity: "safe",
    text: "{field}: null is now accepted",
  },
  {
    kind: "request/any-of-removed",
    id: "request-property-any-of-removed",
    direction: "request",
    severity: "breaking",
    text: "{field}: the alternative {value} was removed",
    example: "branch-sample",
  },
  {
    kind: "request/any-of-added",
    id: "request-property-any-of-added",
    direction: "request",
    severity: "safe",
    text: "{field}: new alternative {value}",
  },
  // spec 1 and 2.3: defaults decide the output and what is billed (output_video_dur, units)
  {
    kind: "request/default-added",
    id: "request-property-default-value-added",
    direction: "request",
    severity: "behavior",
    text: "{field}: default {to} added: payloads that omit it now get {to}",
  },
  {
    kind: "request/default-changed",
    id: "request-property-default-value-changed",
    direction: "request",
    severity: "behavior",
    text: "{field}: default changed from {from} to {to}: payloads that omit it now get {to}, which can change the output and what is billed",
  },
  {
    kind: "request/default-removed",
    id: "request-property-default-value-removed",
    direction: "request",
    severity: "behavior",
    text: "{field}: default {from} removed: payloads that omit it no longer get {from}",
  },
  {
    kind: "request/docs-changed",
    id: "request-property-{keyword}-changed",
    direction: "request",
    severity: "docs",
    text: "{field}: {keyword} changed",
  },
  {
    kind: "request/keyword-changed",
    id: "request-property-{keyword}-changed",
    direction: "request",
    severity: "unclassified",
    text: "{field}: {keyword} changed from {from} to {to}",
  },
  {
    kind: "request/too-deep",
    id: "request-schema-too-deep-to-compare",
    direction: "request",
    severity: "unclassified",
    text: "{field}: nested more than {value} levels deep and written differently; not compared below here, check by hand",
  },

  // -- response: what clients receive. Widening sends values a client did not expect. -------
  {
    kind: "response/required-property-removed",
    id: "response-required-property-removed",
    direction: "response",
    severity: "breaking",
    text: "{field} is no longer returned",
    example: "omit",
  },
  {
    kind: "response/optional-property-removed",
    id: "response-optional-property-removed",
    direction: "response",
    severity: "behavior",
    text: "{field} (optional) is no longer returned",
  },
  {
    kind: "response/property-became-optional",
    id: "response-property-became-optional",
    direction: "response",
    severity: "breaking",
    text: "{field} may now be missing",
    example: "omit",
  },
  {
    kind: "response/property-became-required",
    id: "response-property-became-required",
    direction: "response",
    severity: "safe",
    text: "{field} is now always returned",
  },
  {
    kind: "response/required-property-added",
    id: "response-required-property-added",
    direction: "response",
    severity: "safe",
    text: "new field {field}",
  },
  {
    kind: "response/optional-property-added",
    id: "response-optional-property-added",
    direction: "response",
    severity: "safe",
    text: "new optional field {field}",
  },
  {
    kind: "response/became-nullable",
    id: "response-property-became-nullable",
    direction: "response",
    severity: "breaking",
    text: "{field} may now be null",
    example: "null",
  },
  {
    kind: "response/became-not-nullable",
    id: "response-property-became-not-nullable",
    direction: "response",
    severity: "safe",
    text: "{field} is no longer null",
  },
  {
    kind: "response/type-changed",
    id: "response-property-type-changed",
    direction: "response",
    severity: "breaking",
    text: "{field}: type changed from {from} to {to}",
    example: "type-sample",
  },
  {
    kind: "response/type-narrowed",
    id: "response-property-type-narrowed",
    direction: "response",
    severity: "safe",
    text: "{field}: type narrowed from {from} to {to}",
  },
  {
    kind: "response/enum-value-added",
    id: "response-property-enum-value-added",
    direction: "response",
    severity: "breaking",
    text: "{field}: may now be {value}; code that switches on it needs a case",
    example: "value",
  },
  {
    kind: "response/enum-value-removed",
    id: "response-property-enum-value-removed",
    direction: "response",
    severity: "safe",
    text: "{field}: {value} is no longer returned",
  },
  {
    kind: "response/enum-unset",
    id: "response-property-enum-unset",
    direction: "response",
    severity: "breaking",
    text: "{field}: no longer restricted to {from}",
  },
  {
    kind: "response/enum-set",
    id: "response-property-enum-set",
    direction: "response",
    severity: "safe",
    text: "{field}: now restricted to {to}",
  },
  {
    kind: "response/bound-narrowed",
    id: "response-property-{keyword}-{change}",
    direction: "response",
    severity: "safe",
    text: "{field}: {keyword} {change} from {from} to {to}",
  },
  {
    kind: "response/bound-widened",
    id: "response-property-{keyword}-{change}",
    direction: "response",
    severity: "behavior",
    text: "{field}: {keyword} {change} from {from} to {to}: values outside the old bound may now be returned",
  },
  {
    kind: "response/any-of-added",
    id: "response-property-any-of-added",
    direction: "response",
    severity: "breaking",
    text: "{field}: may now take the new form {value}",
    example: "branch-sample",
  },
  {
    kind: "response/any-of-removed",
    id: "response-property-any-of-removed",
    direction: "response",
    severity: "safe",
    text: "{field}: the form {value} is no longer returned",
  },
  {
    kind: "response/docs-changed",
    id: "response-property-{keyword}-changed",
    direction: "response",
    severity: "docs",
    text: "{field}: {keyword} changed",
  },
  {
    kind: "response/keyword-changed",
    id: "response-property-{keyword}-changed",
    direction: "response",
    severity: "unclassified",
    text: "{field}: {keyword} changed from {from} to {to}",
  },
  {
    kind: "response/too-deep",
    id: "response-schema-too-deep-to-compare",
    direction: "response",
    severity: "unclassified",
    text: "{field}: nested more than {value} levels deep and written differently; not compared below here, check by hand",
  },
] as const satisfies readonly ChangeKind[];

export type ChangeKindName = (typeof CHANGE_KINDS)[number]["kind"];

const BY_KIND = new Map<string, ChangeKind>(CHANGE_KINDS.map((row) => [row.kind, row]));

export function changeKind(kind: ChangeKindName): ChangeKind {
  return BY_KIND.get(kind)!;
}

/** Annotation keywords: a change to one of them is `docs` (issue 5: "titles and descriptions are docs"). */
export const DOCS_KEYWORDS: ReadonlySet<string> = new Set(["title", "description", "examples", "$comment"]);

/** Bounds, as oasdiff names them, and whether a larger value accepts more (upper) or less (lower). */
export const BOUNDS = [
  { keyword: "maximum", name: "max", upper: true },
  { keyword: "minimum", name: "min", upper: false },
  { keyword: "maxLength", name: "max-length", upper: true },
  { keyword: "minLength", name: "min-length", upper: false },
  { keyword: "maxItems", name: "max-items", upper: true },
  { keyword: "minItems", name: "min-items", upper: false },
] as const;

/** A keyword in the kebab form ids use: `maxLength` → `max-length`, `$comment` → `comment`. */
export function keywordName(keyword: string): string {
  const bound = BOUNDS.find((b) => b.keyword === keyword);
  if (bound) return bound.name;
  return keyword.replace(/^\$/, "").replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}
