/**
 * The schema keywords the change table names: bounds, constraints, annotations, and the
 * keywords whose change is reported but not classified; and the variants a row's id takes.
 */
import type { Variant } from "./row.js";

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

/**
 * JSON Schema 2020-12 keywords that, once set, reject values accepted without them (issue 29.2):
 * set and unset are classified (`*-{keyword}-set` / `-unset`); one value rewritten into another
 * stays `*-{keyword}-changed` (unclassified), compared with every `$ref` below it followed.
 * Not `contentEncoding`/`contentMediaType`/`contentSchema`: 2020-12 validators (Ajv among them)
 * only annotate with them (`CONTENT_KEYWORDS`).
 */
export const SCHEMA_KEYWORDS = [
  "prefixItems",
  "contains",
  "minContains",
  "maxContains",
  "patternProperties",
  "propertyNames",
  "dependentRequired",
  "dependentSchemas",
  "unevaluatedProperties",
  "unevaluatedItems",
  "if",
  "then",
  "else",
] as const;
export type SchemaKeyword = (typeof SCHEMA_KEYWORDS)[number];

/**
 * Keywords that shape the types generated for a client (a tuple for `prefixItems`, an index
 * signature for `patternProperties`): a response that stops guaranteeing one breaks code built
 * on those types (issue 29.2), where losing any other guarantee is behavior.
 */
export const TYPE_SHAPING_KEYWORDS: ReadonlySet<string> = new Set(["prefixItems", "patternProperties"]);

/** Annotation keywords: a change to one of them is `docs` (titles and descriptions are docs). */
export const DOCS_KEYWORDS: ReadonlySet<string> = new Set(["title", "description", "examples", "$comment"]);

/**
 * OpenAPI's `discriminator` (3.1, 4.8.25): it tells tools which member of a `oneOf`/`anyOf` to
 * try, and changes nothing a validator accepts (issue 39), so it is read as an annotation.
 */
export const ANNOTATION_ONLY_KEYWORDS: ReadonlySet<string> = new Set(["discriminator"]);

/**
 * How a string's content is encoded (JSON Schema 2020-12, 8): a validator only annotates with
 * them, so no payload crosses a change, but what a client must encode or decode changes (base64
 * JSON to quoted-printable text): potentially breaking (`behavior`), never unclassified (issue 39).
 */
export const CONTENT_KEYWORDS = ["contentEncoding", "contentMediaType", "contentSchema"] as const;

/**
 * Keywords whose change is reported but not classified (`*-{keyword}-changed`, unclassified):
 * a format or pattern rewritten (which one accepts more is undecidable in general), an
 * annotation with a meaning for clients, and every JSON Schema 2020-12 keyword the differ does
 * not read itself (`SCHEMA_KEYWORDS` it reads, issue 29.2). Any other keyword (an `x-` extension, a typo) is `*-unknown-keyword-changed`.
 */
export const UNCLASSIFIED_KEYWORDS = [
  "format",
  "pattern",
  "deprecated",
  "readOnly",
  "writeOnly",
  "items",
  "additionalProperties",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "$ref",
  "$dynamicRef",
] as const;

export const kw = (keywords: readonly string[]): Variant[] => keywords.map((keyword) => ({ keyword }));
export const boundsWhere = (upper: boolean): string[] => BOUNDS.filter((b) => b.upper === upper).map((b) => b.keyword);
export const ALL_BOUNDS = BOUNDS.map((b) => b.keyword);
/** Response bounds: which (keyword, change) narrow what is sent and which widen it. */
export const responseBounds = (narrow: boolean): Variant[] =>
  BOUNDS.flatMap((b) => {
    const changes = narrow
      ? ([b.upper ? "decreased" : "increased", "set"] as const)
      : ([b.upper ? "increased" : "decreased", "unset"] as const);
    return changes.map((change) => ({ keyword: b.keyword, change }));
  });

/** A keyword in the kebab form ids use: `maxLength` → `max-length`, `$comment` → `comment`. */
export function keywordName(keyword: string): string {
  const bound = BOUNDS.find((b) => b.keyword === keyword);
  if (bound) return bound.name;
  return keyword.replace(/^\$/, "").replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}
