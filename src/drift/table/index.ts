/** The change table (see catalogue.ts): rows by direction, the keywords they name, the catalogue of ids. */
export type { ChangeKind, ExampleStrategy, Variant } from "./row.js";
export {
  BOUNDS,
  ANNOTATION_ONLY_KEYWORDS,
  CONSTRAINTS,
  CONTENT_KEYWORDS,
  DOCS_KEYWORDS,
  SCHEMA_KEYWORDS,
  TYPE_SHAPING_KEYWORDS,
  UNCLASSIFIED_KEYWORDS,
  keywordName,
} from "./keywords.js";
export type { SchemaKeyword } from "./keywords.js";
export {
  CHANGE_CATALOGUE,
  CHANGE_KINDS,
  catalogueEntry,
  changeIdOf,
  changeKind,
  type CatalogueEntry,
  type ChangeKindName,
} from "./catalogue.js";
