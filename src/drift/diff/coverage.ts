/**
 * anyOf coverage: whether the other alternatives of a side accept what one alternative lost
 * or gained, and the walk below a pair whose changes they cover (dropped when covered,
 * undecided when they may be).
 */
import { isSchemaObject, type JsonSchemaObject } from "../../schema/index.js";
import { BOUNDS, changeKind } from "../table/index.js";
import { acceptsType, canonical, listed, taggedApart, typesOf, type Alternative } from "../view.js";
import type { BodyDirection, Walk } from "./finding.js";

export type Coverage = "all" | "maybe" | "none";

/** Whether the other alternatives of a side accept all of `alt` (`all`), maybe some of it, or none of it. */
export function cover(alt: Alternative, side: readonly Alternative[], partner: Alternative): Coverage {
  const others = side.filter((o) => o !== partner);
  if (others.some((o) => subsumes(o.schema, alt.schema))) return "all";
  return others.some((o) => overlaps(o.schema, alt.schema)) ? "maybe" : "none";
}

/**
 * Whether an alternative on one side only adds or removes nothing: another alternative of the
 * other side accepts all it accepts (issue 29.4: a duplicate `anyOf` branch added is no change).
 */
export function subsumedBy(alt: Alternative, side: readonly Alternative[]): boolean {
  return side.some((o) => subsumes(o.schema, alt.schema));
}

/** Severities that can hurt, per direction: what a covered alternative's changes cannot do. */
const HURTS: Record<BodyDirection, ReadonlySet<string>> = {
  request: new Set(["breaking", "unclassified"]),
  response: new Set(["breaking", "behavior", "unclassified"]),
};

/**
 * The walk below a pair of alternatives whose changes other alternatives cover. What could hurt
 * (a request narrowed, a response widened): dropped when covered (`all`), said to be undecided
 * (unclassified) when it may be (`maybe`), never called breaking then. What is safe: dropped
 * when covered.
 */
export function coveredWalk(walk: Walk, hurt: Coverage, harmless: Coverage): Walk {
  const hurts = HURTS[walk.direction];
  return {
    ...walk,
    emit: (k, field, pb, pa, params = {}) => {
      const severity = changeKind(k).severity;
      if (!hurts.has(severity)) {
        if (severity === "safe" && harmless === "all") return;
        return walk.emit(k, field, pb, pa, params);
      }
      if (hurt === "none") return walk.emit(k, field, pb, pa, params);
      if (hurt === "all") return;
      const what = k.split("/")[1]!;
      walk.emit(
        walk.direction === "request" ? "request/any-of-narrowing-undecided" : "response/any-of-widening-undecided",
        field,
        pb,
        pa,
        { value: params.keyword === undefined ? what : `${what}: ${params.keyword}` },
      );
    },
  };
}

/** Whether `general` accepts every value `specific` accepts, decided only where it is plain (else false). */
function subsumes(general: JsonSchemaObject, specific: JsonSchemaObject): boolean {
  for (const [k, v] of Object.entries(general)) {
    if (k === "type") {
      const ts = typesOf(specific);
      if (ts === undefined || !ts.every((t) => acceptsType(typesOf(general), t))) return false;
      continue;
    }
    const bound = BOUNDS.find((x) => x.keyword === k);
    const sv = specific[k];
    if (bound !== undefined && typeof v === "number" && typeof sv === "number") {
      if (bound.upper ? sv > v : sv < v) return false;
      continue;
    }
    if (canonical(sv) !== canonical(v)) return false;
  }
  return true;
}

/**
 * The JSON types a schema accepts, through a nested `anyOf`/`oneOf` its view kept (one beside
 * other keywords): the union of its branches' types when each is known (issue 29.4: such an
 * alternative is not "any type", which made every change beside it undecided).
 */
function branchTypes(s: JsonSchemaObject, depth = 0): string[] | undefined {
  const own = typesOf(s);
  if (own !== undefined || depth > 8) return own;
  const branches = Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined;
  if (branches === undefined) return undefined;
  const out: string[] = [];
  for (const b of branches as unknown[]) {
    const t = isSchemaObject(b) ? branchTypes(b, depth + 1) : undefined;
    if (t === undefined) return undefined;
    out.push(...t);
  }
  return [...new Set(out)];
}

/** Whether two alternatives may accept a value in common: they share a type, and no two enums (nor tags) keep them apart. */
function overlaps(x: JsonSchemaObject, y: JsonSchemaObject): boolean {
  // objects of a tagged union: a narrowing in one member cannot be covered by another
  if (taggedApart(x, y)) return false;
  const [vx, vy] = [listed(x), listed(y)];
  if (vx !== undefined && vy !== undefined) {
    const inY = new Set(vy.map(canonical));
    return vx.some((v) => inY.has(canonical(v)));
  }
  const tx = branchTypes(x);
  const ty = branchTypes(y);
  if (tx === undefined || ty === undefined) return true;
  return tx.some((t) => ty.some((u) => acceptsType([t], u) || acceptsType([u], t)));
}
