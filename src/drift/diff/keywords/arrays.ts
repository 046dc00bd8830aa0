/** Arrays: `items` (one schema) compared one level down; a tuple or an `items` set or unset is a keyword change. */
import { child, viewSchema, type Alternative } from "../../view.js";
import { at, kindOf, type Walk } from "../finding.js";
import { sameWritten } from "../refs.js";

export function compareItems(snapshot: Alternative, source: Alternative, field: string[], walk: Walk): void {
  const ib = snapshot.schema.items;
  const ia = source.schema.items;
  if (ib === undefined || ia === undefined || Array.isArray(ib) || Array.isArray(ia)) {
    if (!sameWritten(ib, ia, walk))
      walk.emit(kindOf(walk.direction, "keyword-changed"), field, at(snapshot, "items"), at(source, "items"), {
        keyword: "items",
        from: ib,
        to: ia,
      });
    return;
  }
  walk.descend(
    viewSchema(ib, child(snapshot.at, "items"), walk.before, snapshot.refs),
    viewSchema(ia, child(source.at, "items"), walk.after, source.refs),
    [...field, "*"],
    walk,
  );
}
