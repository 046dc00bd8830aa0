/** `type`: types removed narrow, types added widen, both at once is a change of type. */
import type { JsonSchemaObject } from "../../../schema/index.js";
import { acceptsType, canonical, typesOf, type Alternative } from "../../view.js";
import { at, type FindingParams, type Walk } from "../finding.js";

const ALL_TYPES = ["string", "number", "integer", "boolean", "object", "array"];
const showTypes = (types: readonly string[] | undefined): string => (types === undefined ? "any" : types.join(" | "));

export function compareTypes(snapshot: Alternative, source: Alternative, field: string[], walk: Walk): void {
  const tb = typesOf(snapshot.schema);
  const ta = typesOf(source.schema);
  if (canonical(tb) === canonical(ta)) return;
  const removed = (tb ?? ALL_TYPES).filter((t) => !acceptsType(ta, t));
  const added = (ta ?? ALL_TYPES).filter((t) => !acceptsType(tb, t));
  if (removed.length === 0 && added.length === 0) return;
  const params = (type: string, side: "before" | "after", schema: JsonSchemaObject): FindingParams => ({
    from: showTypes(tb),
    to: showTypes(ta),
    value: type,
    sample: { schema, side, type },
  });
  const [pb, pa] = [at(snapshot, "type"), at(source, "type")];
  if (walk.direction === "request") {
    if (removed.length === 0)
      walk.emit("request/type-widened", field, pb, pa, { from: showTypes(tb), to: showTypes(ta) });
    else
      walk.emit(
        added.length === 0 ? "request/type-narrowed" : "request/type-changed",
        field,
        pb,
        pa,
        params(removed[0]!, "before", snapshot.schema),
      );
  } else {
    if (added.length === 0)
      walk.emit("response/type-narrowed", field, pb, pa, { from: showTypes(tb), to: showTypes(ta) });
    else walk.emit("response/type-changed", field, pb, pa, params(added[0]!, "after", source.schema));
  }
}
