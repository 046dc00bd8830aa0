/**
 * Annotations (title, description, default, …): a request default added, changed or removed is
 * behavior (spec 1, 2.3: the output and what is billed), any other annotation is docs.
 */
import { ANNOTATION_ONLY_KEYWORDS, DOCS_KEYWORDS } from "../../table/index.js";
import { canonical, type SchemaView } from "../../view.js";
import { kindOf, type Walk } from "../finding.js";

export function compareAnnotations(snapshot: SchemaView, source: SchemaView, field: string[], walk: Walk): void {
  const keys = [...new Set([...snapshot.annotations.keys(), ...source.annotations.keys()])];
  for (const keyword of keys) {
    const vb = snapshot.annotations.get(keyword);
    const va = source.annotations.get(keyword);
    if (vb !== undefined && va !== undefined && canonical(vb.value) === canonical(va.value)) continue;
    const pb = vb?.at ?? snapshot.at;
    const pa = va?.at ?? source.at;
    if (keyword === "default" && walk.direction === "request") {
      const kind =
        vb === undefined
          ? "request/default-added"
          : va === undefined
            ? "request/default-removed"
            : "request/default-changed";
      walk.emit(kind, field, pb, pa, { keyword, from: vb?.value, to: va?.value });
    } else if (keyword === "writeOnly" && walk.direction === "request") {
      // write-only says the property is not returned; what a request may send is unchanged (issue 39)
      continue;
    } else if (DOCS_KEYWORDS.has(keyword) || ANNOTATION_ONLY_KEYWORDS.has(keyword) || keyword === "default") {
      walk.emit(kindOf(walk.direction, "docs-changed"), field, pb, pa, { keyword, from: vb?.value, to: va?.value });
    } else {
      walk.emit(kindOf(walk.direction, "keyword-changed"), field, pb, pa, { keyword, from: vb?.value, to: va?.value });
    }
  }
}
