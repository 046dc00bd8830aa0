/** `enum` and `const`: values removed or added, a restriction set or unset. */
import { canonical, child, type Alternative } from "../../view.js";
import { kindOf, type Walk } from "../finding.js";

function enumOf(alt: Alternative): { values: unknown[]; keyword: "enum" | "const" } | undefined {
  // both written: the values of the enum equal to the const (issue 39)
  if (Array.isArray(alt.schema.enum) && "const" in alt.schema)
    return { values: alt.schema.enum.filter((v) => canonical(v) === canonical(alt.schema.const)), keyword: "const" };
  if (Array.isArray(alt.schema.enum)) return { values: alt.schema.enum, keyword: "enum" };
  if ("const" in alt.schema) return { values: [alt.schema.const], keyword: "const" };
  return undefined;
}

export function compareEnums(snapshot: Alternative, source: Alternative, field: string[], walk: Walk): void {
  const eb = enumOf(snapshot);
  const ea = enumOf(source);
  if (eb === undefined && ea === undefined) return;
  if (eb === undefined || ea === undefined) {
    walk.emit(
      kindOf(walk.direction, eb === undefined ? "enum-set" : "enum-unset"),
      field,
      eb ? child(snapshot.at, eb.keyword) : snapshot.at,
      ea ? child(source.at, ea.keyword) : source.at,
      {
        from: eb?.values,
        to: ea?.values,
        sample: { schema: snapshot.schema, side: "before" },
      },
    );
    return;
  }
  const inB = new Set(eb.values.map(canonical));
  const inA = new Set(ea.values.map(canonical));
  const pointer = (alt: Alternative, e: { keyword: string }, i: number): string =>
    e.keyword === "enum" ? child(alt.at, "enum", String(i)) : child(alt.at, "const");
  eb.values.forEach((v, i) => {
    if (!inA.has(canonical(v)))
      walk.emit(
        kindOf(walk.direction, "enum-value-removed"),
        field,
        pointer(snapshot, eb, i),
        child(source.at, ea.keyword),
        {
          value: v,
        },
      );
  });
  ea.values.forEach((v, i) => {
    if (!inB.has(canonical(v)))
      walk.emit(
        kindOf(walk.direction, "enum-value-added"),
        field,
        child(snapshot.at, eb.keyword),
        pointer(source, ea, i),
        {
          value: v,
        },
      );
  });
}
