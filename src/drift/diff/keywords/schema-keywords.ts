/**
 * The JSON Schema 2020-12 keywords of `SCHEMA_KEYWORDS` (`contains`, `if`/`then`/`else`,
 * `dependentRequired`, `patternProperties`, `prefixItems`, …; issue 29.2): set narrows, unset
 * widens, rewritten is compared as written with every `$ref` below it followed (unclassified).
 */
import { SCHEMA_KEYWORDS } from "../../table/index.js";
import type { Alternative } from "../../view.js";
import { at, kindOf, type Walk } from "../finding.js";
import { sameWritten } from "../refs.js";

export function compareSchemaKeywords(snapshot: Alternative, source: Alternative, field: string[], walk: Walk): void {
  for (const keyword of SCHEMA_KEYWORDS) {
    const vb = snapshot.schema[keyword];
    const va = source.schema[keyword];
    if (sameWritten(vb, va, walk)) continue;
    const what =
      vb === undefined ? "schema-keyword-set" : va === undefined ? "schema-keyword-unset" : "keyword-changed";
    walk.emit(kindOf(walk.direction, what), field, at(snapshot, keyword), at(source, keyword), {
      keyword,
      from: vb,
      to: va,
      sample: { schema: snapshot.schema, side: "before" },
    });
  }
}
