/**
 * The schema walk of one endpoint: both sides' bodies viewed (`../view.ts`: `$ref`s followed,
 * nullability folded, `anyOf` flattened), their alternatives paired, and each pair compared
 * keyword group by keyword group (`keywords/`), down through properties and items. It only
 * finds; the table decides what a kind means.
 */
import type { EndpointModel } from "../../schema/index.js";
import { canonical, sameTag, typesOf, viewSchema, type Alternative, type SchemaView } from "../view.js";
import { cover, coveredWalk, subsumedBy } from "./coverage.js";
import { sameWritten } from "./refs.js";
import { kindOf, type Finding, type Walk } from "./finding.js";
import { compareAnnotations, compareKeywords } from "./keywords/index.js";

const MAX_DEPTH = 64;

/** The differences of one endpoint: request body first, then response body. */
export function diffEndpoint(before: EndpointModel, after: EndpointModel): Finding[] {
  const out: Finding[] = [];
  for (const direction of ["request", "response"] as const) {
    const snapshot = direction === "request" ? before.input : before.output;
    const source = direction === "request" ? after.input : after.output;
    const walk: Walk = {
      direction,
      before: { schema: snapshot },
      after: { schema: source },
      compared: new Set(),
      tooDeep: new Set(),
      sameRefs: new Set(),
      depth: 0,
      descend: compareViews,
      emit: (kind, field, pb, pa, params = {}) =>
        out.push({
          kind,
          model: before.model,
          endpoint: before.endpoint,
          direction,
          field,
          before: pb,
          after: pa,
          params,
        }),
    };
    compareViews(viewSchema(snapshot, "", walk.before), viewSchema(source, "", walk.after), [], walk);
  }
  return out;
}

/** Compares two views of a field: nullability, annotations, then what each alternative accepts. */
function compareViews(snapshot: SchemaView, source: SchemaView, field: string[], walk: Walk): void {
  if (snapshot.nullable !== source.nullable) {
    walk.emit(
      kindOf(walk.direction, snapshot.nullable ? "became-not-nullable" : "became-nullable"),
      field,
      snapshot.nullAt ?? snapshot.at,
      source.nullAt ?? source.at,
    );
  }
  compareAnnotations(snapshot, source, field, walk);
  compareAlternativeLists(snapshot, source, field, walk);
}

/** Pairs the alternatives of both sides (equal ones, then same tags, then same types, then the last one left) and compares each pair. */
function compareAlternativeLists(snapshot: SchemaView, source: SchemaView, field: string[], walk: Walk): void {
  const left = withoutNewCopies(snapshot.alternatives, source, field, walk);
  const right = [...source.alternatives];
  const pairs: Array<[Alternative, Alternative]> = [];
  if (left.length === 1 && right.length === 1) pairs.push([left.pop()!, right.pop()!]);
  const take = (match: (x: Alternative, y: Alternative) => boolean): void => {
    for (let i = 0; i < left.length; i++) {
      const j = right.findIndex((y) => match(left[i]!, y));
      if (j >= 0) {
        pairs.push([left[i]!, right[j]!]);
        left.splice(i--, 1);
        right.splice(j, 1);
      }
    }
  };
  take((x, y) => canonical(x.schema) === canonical(y.schema));
  // members of a tagged union by their tag, wherever they are listed
  take((x, y) => sameTag(x.schema, y.schema));
  take((x, y) => canonical(typesOf(x.schema)) === canonical(typesOf(y.schema)));
  if (left.length === 1 && right.length === 1) pairs.push([left.pop()!, right.pop()!]);
  // a branch on one side only that a branch of the other side accepts all of changes nothing (issue 29.4)
  for (const x of left) {
    if (subsumedBy(x, source.alternatives)) continue;
    walk.emit(kindOf(walk.direction, "any-of-removed"), field, x.at, source.at, {
      value: x.schema,
      sample: { schema: x.schema, side: "before" },
    });
  }
  for (const y of right) {
    if (subsumedBy(y, snapshot.alternatives)) continue;
    walk.emit(kindOf(walk.direction, "any-of-added"), field, snapshot.at, y.at, {
      value: y.schema,
      sample: { schema: y.schema, side: "after" },
    });
  }
  for (const [x, y] of pairs) {
    // Compare what each side accepts, not branch by branch: values x no longer accepts that
    // another alternative of the source accepts are not lost; values y newly accepts that
    // another alternative of the snapshot accepted are not new.
    const lost = cover(x, source.alternatives, y);
    const gained = cover(y, snapshot.alternatives, x);
    const [hurt, harmless] = walk.direction === "request" ? [lost, gained] : [gained, lost];
    compareAlternatives(x, y, field, hurt === "none" && harmless !== "all" ? walk : coveredWalk(walk, hurt, harmless));
  }
}

/**
 * The snapshot's alternatives but those a `oneOf` branch the source now writes twice accepts all
 * of (issue 29.4): a value of that branch matches two branches and is rejected. Each such branch
 * is said once (`one-of-duplicated`, an example drawn from the alternative it rejects), and the
 * alternatives it rejects are neither paired nor said removed.
 */
function withoutNewCopies(
  alternatives: readonly Alternative[],
  source: SchemaView,
  field: string[],
  walk: Walk,
): Alternative[] {
  const said = new Set<Alternative>();
  return alternatives.filter((x) => {
    if (subsumedBy(x, source.alternatives)) return true;
    const copy = source.duplicated.find((d) => subsumedBy(x, [d]));
    if (copy === undefined) return true;
    if (!said.has(copy))
      walk.emit(kindOf(walk.direction, "one-of-duplicated"), field, x.at, copy.at, {
        value: copy.schema,
        sample: { schema: x.schema, side: "before" },
      });
    said.add(copy);
    return false;
  });
}

/** Compares one pair of alternatives, once per location and content, keyword group by keyword group. */
function compareAlternatives(snapshot: Alternative, source: Alternative, field: string[], walk: Walk): void {
  // Location and content: a `$ref` with siblings is read at its target's location, merged with them.
  const key = canonical([snapshot.at, source.at, snapshot.schema, source.schema]);
  if (walk.compared.has(key)) return;
  if (walk.depth >= MAX_DEPTH) {
    // Not compared, so not known to be equal: reported, never dropped.
    if (!walk.tooDeep.has(key) && !sameWritten(snapshot.schema, source.schema, walk)) {
      walk.tooDeep.add(key);
      walk.emit(kindOf(walk.direction, "too-deep"), field, snapshot.at, source.at, { value: MAX_DEPTH });
    }
    return;
  }
  walk.compared.add(key);
  walk.depth++;
  try {
    compareKeywords(snapshot, source, field, walk);
  } finally {
    walk.depth--;
  }
}
