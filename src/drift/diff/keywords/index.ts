/**
 * The keyword comparers, as one table: each group of keywords a pair of alternatives is compared
 * on, in the order findings are reported. A keyword no group reads is compared as written
 * (`keyword-changed`, unclassified; `unknown-keyword-changed` when it is not JSON Schema 2020-12),
 * so no change is dropped.
 */
import { BOUNDS, CONSTRAINTS, CONTENT_KEYWORDS, SCHEMA_KEYWORDS, UNCLASSIFIED_KEYWORDS } from "../../table/index.js";
import type { Alternative } from "../../view.js";
import { at, kindOf, type CompareKeywords, type Walk } from "../finding.js";
import { sameWritten } from "../refs.js";
import { compareItems } from "./arrays.js";
import { compareBounds, compareMultipleOf } from "./bounds.js";
import { compareConstraints } from "./constraints.js";
import { compareEnums } from "./enums.js";
import { compareAdditionalProperties, compareProperties } from "./objects.js";
import { compareSchemaKeywords } from "./schema-keywords.js";
import { compareTypes } from "./types.js";

export { compareAnnotations } from "./annotations.js";

interface KeywordGroup {
  keywords: readonly string[];
  compare: CompareKeywords;
}

export const KEYWORD_GROUPS: readonly KeywordGroup[] = [
  { keywords: ["type"], compare: compareTypes },
  { keywords: ["enum", "const"], compare: compareEnums },
  { keywords: BOUNDS.map((b) => b.keyword), compare: compareBounds },
  { keywords: CONSTRAINTS, compare: compareConstraints },
  { keywords: ["multipleOf"], compare: compareMultipleOf },
  { keywords: ["additionalProperties"], compare: compareAdditionalProperties },
  { keywords: ["properties", "required"], compare: compareProperties },
  { keywords: ["items"], compare: compareItems },
  { keywords: SCHEMA_KEYWORDS, compare: compareSchemaKeywords },
];

/** Keywords a group compares itself; any other difference is `keyword-changed`. */
const HANDLED: ReadonlySet<string> = new Set(KEYWORD_GROUPS.flatMap((g) => g.keywords));
const KNOWN_UNCLASSIFIED: ReadonlySet<string> = new Set(UNCLASSIFIED_KEYWORDS);
const CONTENT: ReadonlySet<string> = new Set(CONTENT_KEYWORDS);

/** Compares a pair of alternatives on every keyword: each group in order, then the rest as written. */
export function compareKeywords(snapshot: Alternative, source: Alternative, field: string[], walk: Walk): void {
  for (const group of KEYWORD_GROUPS) group.compare(snapshot, source, field, walk);
  compareOtherKeywords(snapshot, source, field, walk);
}

function compareOtherKeywords(snapshot: Alternative, source: Alternative, field: string[], walk: Walk): void {
  const keys = [...new Set([...Object.keys(snapshot.schema), ...Object.keys(source.schema)])].filter(
    (k) => !HANDLED.has(k),
  );
  for (const keyword of keys) {
    const vb = snapshot.schema[keyword];
    const va = source.schema[keyword];
    if (sameWritten(vb, va, walk)) continue;
    walk.emit(
      kindOf(
        walk.direction,
        CONTENT.has(keyword)
          ? "content-changed"
          : KNOWN_UNCLASSIFIED.has(keyword)
            ? "keyword-changed"
            : "unknown-keyword-changed",
      ),
      field,
      at(snapshot, keyword),
      at(source, keyword),
      { keyword, from: vb, to: va },
    );
  }
}
