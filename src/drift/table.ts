/**
 * The classification of schema changes, as one table of data: one row per change kind, with
 * its oasdiff-style id, the direction it applies to, its severity, the sentence a person reads
 * and how to build a concrete example payload. `diff.ts` finds changes and names their kind;
 * everything a report says about a kind comes from here. `CHANGE_CATALOGUE` is the same table
 * one entry per concrete change id, as `docs/drift-changes.md` lists it.
 *
 * Placeholders in `id` and `text`: {field} (the payload location), {keyword} (a schema
 * keyword in oasdiff's kebab form: max, min-length, …), {change} (increased, decreased, set,
 * unset), {value}, {from}, {to}.
 */
import type { Direction, ChangeSeverity } from "./types.js";

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
  | "extra-property";

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

/** Bounds, as oasdiff names them, and whether a larger value accepts more (upper) or less (lower). */
export const BOUNDS = [
  { keyword: "maximum", name: "max", upper: true },
  { keyword: "minimum", name: "min", upper: false },
  { keyword: "exclusiveMaximum", name: "exclusive-max", upper: true },
  { keyword: "exclusiveMinimum", name: "exclusive-min", upper: false },
  { keyword: "maxLength", name: "max-length", upper: true },
  { keyword: "minLength", name: "min-length", upper: false },
  { keyword: "maxItems", name: "max-items", upper: true },
  { keyword: "minItems", name: "min-items", upper: false },
  { keyword: "maxProperties", name: "max-properties", upper: true },
  { keyword: "minProperties", name: "min-properties", upper: false },
] as const;

/**
 * Keywords that, once set, reject values the schema accepted without them (a format, a
 * pattern, a step, unique items), compared as set, unset or changed.
 */
export const CONSTRAINTS = ["format", "pattern", "uniqueItems"] as const;

/** Annotation keywords: a change to one of them is `docs` (titles and descriptions are docs). */
export const DOCS_KEYWORDS: ReadonlySet<string> = new Set(["title", "description", "examples", "$comment"]);

/**
 * Keywords whose change is reported but not classified (`*-{keyword}-changed`, unclassified):
 * a format or pattern rewritten (which one accepts more is undecidable in general), an
 * annotation with a meaning for clients, and every JSON Schema 2020-12 keyword the differ does
 * not read itself. Any other keyword (an `x-` extension, a typo) is `*-unknown-keyword-changed`.
 */
export const UNCLASSIFIED_KEYWORDS = [
  "format",
  "pattern",
  "deprecated",
  "readOnly",
  "writeOnly",
  "items",
  "prefixItems",
  "contains",
  "minContains",
  "maxContains",
  "additionalProperties",
  "patternProperties",
  "propertyNames",
  "dependentRequired",
  "dependentSchemas",
  "unevaluatedProperties",
  "unevaluatedItems",
  "allOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
  "contentEncoding",
  "contentMediaType",
  "contentSchema",
  "$ref",
  "$dynamicRef",
] as const;

const kw = (keywords: readonly string[]): Variant[] => keywords.map((keyword) => ({ keyword }));
const boundsWhere = (upper: boolean): string[] => BOUNDS.filter((b) => b.upper === upper).map((b) => b.keyword);
const ALL_BOUNDS = BOUNDS.map((b) => b.keyword);
/** Response bounds: which (keyword, change) narrow what is sent and which widen it. */
const responseBounds = (narrow: boolean): Variant[] =>
  BOUNDS.flatMap((b) => {
    const changes = narrow
      ? ([b.upper ? "decreased" : "increased", "set"] as const)
      : ([b.upper ? "increased" : "decreased", "unset"] as const);
    return changes.map((change) => ({ keyword: b.keyword, change }));
  });

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
  {
    kind: "endpoint/method-changed",
    id: "endpoint-method-changed",
    direction: "endpoint",
    severity: "breaking",
    text: "{value}: method changed from {from} to {to}: requests sent with {from} will fail",
  },
  {
    kind: "endpoint/request-media-type-changed",
    id: "endpoint-request-media-type-changed",
    direction: "endpoint",
    severity: "breaking",
    text: "{value}: request body media type changed from {from} to {to}: requests sent as {from} will fail",
  },
  {
    kind: "endpoint/response-status-changed",
    id: "endpoint-response-status-changed",
    direction: "endpoint",
    severity: "breaking",
    text: "{value}: success status changed from {from} to {to}: clients that expect {from} will treat it as a failure",
  },
  {
    kind: "endpoint/response-media-type-changed",
    id: "endpoint-response-media-type-changed",
    direction: "endpoint",
    severity: "breaking",
    text: "{value}: response media type changed from {from} to {to}: clients that parse {from} will fail",
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
    variants: kw(boundsWhere(true)),
  },
  {
    kind: "request/lower-bound-raised",
    id: "request-property-{keyword}-increased",
    direction: "request",
    severity: "breaking",
    text: "{field}: {keyword} raised from {from} to {to}",
    example: "old-bound",
    variants: kw(boundsWhere(false)),
  },
  {
    kind: "request/bound-set",
    id: "request-property-{keyword}-set",
    direction: "request",
    severity: "breaking",
    text: "{field}: new {keyword} {to}",
    example: "past-new-bound",
    variants: kw(ALL_BOUNDS),
  },
  {
    kind: "request/upper-bound-raised",
    id: "request-property-{keyword}-increased",
    direction: "request",
    severity: "safe",
    text: "{field}: {keyword} raised from {from} to {to}",
    variants: kw(boundsWhere(true)),
  },
  {
    kind: "request/lower-bound-lowered",
    id: "request-property-{keyword}-decreased",
    direction: "request",
    severity: "safe",
    text: "{field}: {keyword} lowered from {from} to {to}",
    variants: kw(boundsWhere(false)),
  },
  {
    kind: "request/bound-unset",
    id: "request-property-{keyword}-unset",
    direction: "request",
    severity: "safe",
    text: "{field}: {keyword} {from} no longer enforced",
    variants: kw(ALL_BOUNDS),
  },
  {
    kind: "request/constraint-set",
    id: "request-property-{keyword}-set",
    direction: "request",
    severity: "breaking",
    text: "{field}: new {keyword} {to}",
    example: "crossing-value",
    variants: kw(CONSTRAINTS),
  },
  {
    kind: "request/constraint-unset",
    id: "request-property-{keyword}-unset",
    direction: "request",
    severity: "safe",
    text: "{field}: {keyword} {from} no longer enforced",
    variants: kw(CONSTRAINTS),
  },
  {
    kind: "request/multiple-of-narrowed",
    id: "request-property-multiple-of-narrowed",
    direction: "request",
    severity: "breaking",
    text: "{field}: values must now be a multiple of {to} (was {from})",
    example: "crossing-value",
  },
  {
    kind: "request/multiple-of-changed",
    id: "request-property-multiple-of-changed",
    direction: "request",
    severity: "breaking",
    text: "{field}: multipleOf changed from {from} to {to}: some values accepted before are rejected now",
    example: "crossing-value",
  },
  {
    kind: "request/multiple-of-widened",
    id: "request-property-multiple-of-widened",
    direction: "request",
    severity: "safe",
    text: "{field}: multipleOf relaxed from {from} to {to}",
  },
  {
    kind: "request/additional-properties-narrowed",
    id: "request-property-additional-properties-narrowed",
    direction: "request",
    severity: "breaking",
    text: "{field}: properties not listed are now restricted ({to}); payloads that send others are rejected",
    example: "extra-property",
  },
  {
    kind: "request/additional-properties-widened",
    id: "request-property-additional-properties-widened",
    direction: "request",
    severity: "safe",
    text: "{field}: properties not listed are now accepted ({to})",
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
  {
    kind: "request/any-of-narrowing-undecided",
    id: "request-property-any-of-narrowing-undecided",
    direction: "request",
    severity: "unclassified",
    text: "{field}: an alternative was narrowed ({value}), and another alternative may or may not still accept what it rejects now; check by hand",
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
    variants: kw([...DOCS_KEYWORDS]),
  },
  {
    kind: "request/keyword-changed",
    id: "request-property-{keyword}-changed",
    direction: "request",
    severity: "unclassified",
    text: "{field}: {keyword} changed from {from} to {to}",
    variants: kw(UNCLASSIFIED_KEYWORDS),
  },
  {
    kind: "request/unknown-keyword-changed",
    id: "request-property-unknown-keyword-changed",
    direction: "request",
    severity: "unclassified",
    text: "{field}: keyword {keyword} (not JSON Schema 2020-12) changed from {from} to {to}",
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
    example: "crossing-value",
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
    variants: responseBounds(true),
  },
  {
    kind: "response/bound-widened",
    id: "response-property-{keyword}-{change}",
    direction: "response",
    severity: "behavior",
    text: "{field}: {keyword} {change} from {from} to {to}: values outside the old bound may now be returned",
    variants: responseBounds(false),
  },
  {
    kind: "response/constraint-set",
    id: "response-property-{keyword}-set",
    direction: "response",
    severity: "safe",
    text: "{field}: new {keyword} {to}",
    variants: kw(CONSTRAINTS),
  },
  {
    kind: "response/constraint-unset",
    id: "response-property-{keyword}-unset",
    direction: "response",
    severity: "behavior",
    text: "{field}: {keyword} {from} no longer guaranteed: values that do not match it may now be returned",
    example: "crossing-value",
    variants: kw(CONSTRAINTS),
  },
  {
    kind: "response/multiple-of-narrowed",
    id: "response-property-multiple-of-narrowed",
    direction: "response",
    severity: "safe",
    text: "{field}: values are now a multiple of {to} (was {from})",
  },
  {
    kind: "response/multiple-of-changed",
    id: "response-property-multiple-of-changed",
    direction: "response",
    severity: "breaking",
    text: "{field}: multipleOf changed from {from} to {to}: values a client did not expect may be returned",
    example: "crossing-value",
  },
  {
    kind: "response/multiple-of-widened",
    id: "response-property-multiple-of-widened",
    direction: "response",
    severity: "behavior",
    text: "{field}: multipleOf relaxed from {from} to {to}: values outside the old step may be returned",
    example: "crossing-value",
  },
  {
    kind: "response/additional-properties-narrowed",
    id: "response-property-additional-properties-narrowed",
    direction: "response",
    severity: "safe",
    text: "{field}: properties not listed are no longer returned ({to})",
  },
  {
    kind: "response/additional-properties-widened",
    id: "response-property-additional-properties-widened",
    direction: "response",
    severity: "behavior",
    text: "{field}: properties not listed may now be returned ({to})",
    example: "extra-property",
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
    kind: "response/any-of-widening-undecided",
    id: "response-property-any-of-widening-undecided",
    direction: "response",
    severity: "unclassified",
    text: "{field}: an alternative was widened ({value}), and another alternative may or may not already allow what it allows now; check by hand",
  },
  {
    kind: "response/docs-changed",
    id: "response-property-{keyword}-changed",
    direction: "response",
    severity: "docs",
    text: "{field}: {keyword} changed",
    variants: kw([...DOCS_KEYWORDS, "default"]),
  },
  {
    kind: "response/keyword-changed",
    id: "response-property-{keyword}-changed",
    direction: "response",
    severity: "unclassified",
    text: "{field}: {keyword} changed from {from} to {to}",
    variants: kw(UNCLASSIFIED_KEYWORDS),
  },
  {
    kind: "response/unknown-keyword-changed",
    id: "response-property-unknown-keyword-changed",
    direction: "response",
    severity: "unclassified",
    text: "{field}: keyword {keyword} (not JSON Schema 2020-12) changed from {from} to {to}",
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
  const row = BY_KIND.get(kind);
  if (row === undefined) throw new Error(`drift: no row for change kind ${kind}`);
  return row;
}

/** A keyword in the kebab form ids use: `maxLength` → `max-length`, `$comment` → `comment`. */
export function keywordName(keyword: string): string {
  const bound = BOUNDS.find((b) => b.keyword === keyword);
  if (bound) return bound.name;
  return keyword.replace(/^\$/, "").replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

function fillId(template: string, variant: Partial<Variant>): string {
  return template
    .replace("{keyword}", variant.keyword === undefined ? "{keyword}" : keywordName(variant.keyword))
    .replace("{change}", variant.change ?? "{change}");
}

/** The id a change of `kind` gets, for the keyword (and change) it is about. */
export function changeIdOf(kind: ChangeKindName, variant: Partial<Variant> = {}): string {
  return fillId(changeKind(kind).id, variant);
}

/** One change id of the catalogue: what `vsk drift` can report, and how it classifies it. */
export interface CatalogueEntry {
  id: string;
  /** the row of `CHANGE_KINDS` it comes from */
  kind: ChangeKindName;
  direction: Direction;
  severity: ChangeSeverity;
  /** one line for people: the row's sentence with its placeholders named */
  description: string;
  /** whether a change of this id carries an example payload where one exists */
  example: boolean;
}

function describe(row: ChangeKind, variant: Partial<Variant>): string {
  return row.text
    .replace(/\{keyword\}/g, variant.keyword ?? "*keyword*")
    .replace(/\{change\}/g, variant.change ?? "*change*")
    .replace(/\{(field|value|from|to)\}/g, "*$1*");
}

/** Every change id the differ can produce, one entry each, in table order. */
export const CHANGE_CATALOGUE: readonly CatalogueEntry[] = CHANGE_KINDS.flatMap((row: ChangeKind) =>
  (row.variants ?? [{}]).map((variant: Partial<Variant>) => ({
    id: fillId(row.id, variant),
    kind: row.kind as ChangeKindName,
    direction: row.direction,
    severity: row.severity,
    description: describe(row, variant),
    example: row.example !== undefined,
  })),
);

const BY_ID = new Map(CHANGE_CATALOGUE.map((e) => [e.id, e]));

/** The catalogue entry of a change id, or undefined for an id the differ cannot produce. */
export function catalogueEntry(id: string): CatalogueEntry | undefined {
  return BY_ID.get(id);
}
