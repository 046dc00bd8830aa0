/**
 * The JSON Schema 2020-12 keywords of `SCHEMA_KEYWORDS` (`contains`, `if`/`then`/`else`,
 * `dependentRequired`, `patternProperties`, `prefixItems`, …; issue 29.2): set narrows, unset
 * widens. A value rewritten on both sides is walked like `properties` and `items` (the
 * `SUBSCHEMAS` table): each subschema present on both sides compared one level down, a part
 * added (a pattern, a dependent schema, a prefix item, a larger `minContains`) narrowing and a
 * part removed widening. A rewritten `if` is a condition changed (it both narrows and widens).
 */
import { isSchemaObject } from "../../../schema/index.js";
import { SCHEMA_KEYWORDS, TYPE_SHAPING_KEYWORDS, type SchemaKeyword } from "../../table/index.js";
import { canonical, child, ifChecks, viewSchema, type Alternative } from "../../view.js";
import {
  at,
  kindOf,
  NAME_TOKEN,
  patternToken,
  UNLISTED,
  type FindingParams,
  type Trigger,
  type Walk,
} from "../finding.js";
import { sameWritten } from "../refs.js";

interface Pair {
  keyword: SchemaKeyword;
  snapshot: Alternative;
  source: Alternative;
  field: string[];
  walk: Walk;
}

/** Narrowed (a part set) or widened (a part unset): the set/unset rows, with the part as the value. */
function emitPart(p: Pair, narrows: boolean, from: unknown, to: unknown, pb?: string, pa?: string): void {
  const { keyword, snapshot, source, field, walk } = p;
  const params: FindingParams = { keyword, from, to, sample: { schema: snapshot.schema, side: "before" } };
  const kind = narrows
    ? kindOf(walk.direction, "schema-keyword-set")
    : walk.direction === "response" && TYPE_SHAPING_KEYWORDS.has(keyword)
      ? "response/type-shaping-keyword-unset"
      : kindOf(walk.direction, "schema-keyword-unset");
  walk.emit(kind, field, pb ?? at(snapshot, keyword), pa ?? at(source, keyword), params);
}

/** One subschema on each side, compared one level down at `field` + `token`, with `walk` (the pair's by default). */
function descend(p: Pair, vb: unknown, va: unknown, pointer: string[], token?: string, walk = p.walk): void {
  const { snapshot, source, field } = p;
  // a subschema of the object itself applies beside its own schema (issue 39)
  if (token === undefined) walk = { ...walk, conjunctAt: JSON.stringify(field) };
  walk.descend(
    viewSchema(vb, child(snapshot.at, ...pointer), walk.before, snapshot.refs),
    viewSchema(va, child(source.at, ...pointer), walk.after, source.refs),
    token === undefined ? field : [...field, token],
    walk,
  );
}

/**
 * The walk below a subschema that applies only when the object holds some properties (a
 * `dependentSchemas` value, a `then`): each change found there says so (`triggers`), and its
 * example holds them (issue 29.2).
 */
function triggeredBy(walk: Walk, triggers: Trigger[]): Walk {
  if (triggers.length === 0) return walk;
  return {
    ...walk,
    emit: (kind, at, pb, pa, params = {}) =>
      walk.emit(kind, at, pb, pa, { ...params, triggers: [...triggers, ...(params.triggers ?? [])] }),
  };
}

/**
 * What an object must hold for the snapshot's `if` to pass, so that its `then` applies: each
 * property the `if` requires or lists, with the `if`'s schema of it (`kind: {const: "image"}`).
 */
function ifTriggers(condition: unknown, field: string[]): Trigger[] {
  const props = isSchemaObject(condition) && isSchemaObject(condition.properties) ? condition.properties : {};
  return ifChecks(condition).map((name) => ({
    field,
    name,
    schema: Object.hasOwn(props, name) ? props[name] : undefined,
  }));
}

/**
 * A map of subschemas (`patternProperties`, `dependentSchemas`): keys on both sides walked, a key
 * added narrows, removed widens. `token` names the field below the object (none: the object
 * itself); `trigger` says the key must be present for its schema to apply.
 */
const schemaMap =
  (token: (key: string) => string | undefined, trigger = false) =>
  (p: Pair, vb: unknown, va: unknown): void => {
    if (!isSchemaObject(vb) || !isSchemaObject(va)) return emitPart(p, false, vb, va);
    for (const key of new Set([...Object.keys(vb), ...Object.keys(va)])) {
      const [pb, pa] = [child(p.snapshot.at, p.keyword, key), child(p.source.at, p.keyword, key)];
      if (!Object.hasOwn(va, key)) emitPart(p, false, { [key]: vb[key] }, undefined, pb, at(p.source, p.keyword));
      else if (!Object.hasOwn(vb, key)) emitPart(p, true, undefined, { [key]: va[key] }, at(p.snapshot, p.keyword), pa);
      else
        descend(
          p,
          vb[key],
          va[key],
          [p.keyword, key],
          token(key),
          triggeredBy(p.walk, trigger ? [{ field: p.field, name: key }] : []),
        );
    }
  };

/** A number that narrows as it grows (`minContains`) or as it shrinks (`maxContains`). */
const count =
  (upper: boolean) =>
  (p: Pair, vb: unknown, va: unknown): void => {
    if (typeof vb !== "number" || typeof va !== "number") return emitPart(p, false, vb, va);
    emitPart(p, upper ? va < vb : va > vb, vb, va);
  };

/** How a keyword written on both sides, differently, is compared (issue 29.2). */
const SUBSCHEMAS: Record<SchemaKeyword, (p: Pair, vb: unknown, va: unknown) => void> = {
  // compared position by position instead (`positions`)
  prefixItems: () => undefined,
  // an array is accepted when some item matches: compared as its items are
  contains: (p, vb, va) => descend(p, vb, va, ["contains"], "*"),
  minContains: count(false),
  maxContains: count(true),
  patternProperties: schemaMap((key) => patternToken(key)),
  propertyNames: (p, vb, va) => descend(p, vb, va, ["propertyNames"], NAME_TOKEN),
  // names added to a list narrow, names removed widen
  dependentRequired: (p, vb, va) => {
    if (!isSchemaObject(vb) || !isSchemaObject(va)) return emitPart(p, false, vb, va);
    for (const key of new Set([...Object.keys(vb), ...Object.keys(va)])) {
      const [lb, la] = [vb[key], va[key]].map((l) => new Set(Array.isArray(l) ? l.map(canonical) : []));
      const [before, after] = [{ [key]: vb[key] ?? [] }, { [key]: va[key] ?? [] }];
      if ([...la!].some((n) => !lb!.has(n))) emitPart(p, true, before, after);
      if ([...lb!].some((n) => !la!.has(n))) emitPart(p, false, before, after);
    }
  },
  // each applies to the object itself when its property is present
  dependentSchemas: schemaMap(() => undefined, true),
  unevaluatedProperties: (p, vb, va) => descend(p, vb, va, ["unevaluatedProperties"], UNLISTED),
  unevaluatedItems: (p, vb, va) => descend(p, vb, va, ["unevaluatedItems"], "*"),
  // the condition selects which of then/else applies: rewritten, it may do both
  if: (p, vb, va) =>
    p.walk.emit(kindOf(p.walk.direction, "condition-changed"), p.field, at(p.snapshot, "if"), at(p.source, "if"), {
      keyword: "if",
      from: vb,
      to: va,
      sample: { schema: p.snapshot.schema, side: "before" },
    }),
  // applies when the `if` passes: its example holds what the snapshot's `if` checks
  then: (p, vb, va) =>
    descend(p, vb, va, ["then"], undefined, triggeredBy(p.walk, ifTriggers(p.snapshot.schema.if, p.field))),
  else: (p, vb, va) => descend(p, vb, va, ["else"]),
};

/**
 * A keyword's value as it validates: `then` and `else` apply only beside an `if`, and an `if`
 * only beside one of them (JSON Schema 2020-12, 10.2.2); one written alone validates nothing
 * and is read as absent, so adding or removing it is no change.
 */
function inForce(schema: Record<string, unknown>, keyword: SchemaKeyword): unknown {
  if (keyword === "if" && schema.then === undefined && schema.else === undefined) return undefined;
  if ((keyword === "then" || keyword === "else") && schema.if === undefined) return undefined;
  return schema[keyword];
}

/**
 * Whether another keyword of the condition reports this one's change, so that one edit is one
 * finding: a `then`/`else` written alike that comes into force (or out of it) with the `if` is
 * the `if` set (unset); an `if` that comes into force with a `then`/`else` written anew is that
 * branch set (unset).
 */
function toldByAnother(keyword: SchemaKeyword, snapshot: Alternative, source: Alternative, walk: Walk): boolean {
  const alike = (k: string): boolean => sameWritten(snapshot.schema[k], source.schema[k], walk);
  if (keyword === "then" || keyword === "else") return alike(keyword);
  if (keyword !== "if") return false;
  const forced = (alt: Alternative): boolean => inForce(alt.schema, "if") !== undefined;
  return forced(snapshot) !== forced(source) && !(alike("then") && alike("else"));
}

export function compareSchemaKeywords(snapshot: Alternative, source: Alternative, field: string[], walk: Walk): void {
  for (const keyword of SCHEMA_KEYWORDS) {
    const vb = inForce(snapshot.schema, keyword);
    const va = inForce(source.schema, keyword);
    if (sameWritten(vb, va, walk) || toldByAnother(keyword, snapshot, source, walk)) continue;
    const pair: Pair = { keyword, snapshot, source, field, walk };
    if (keyword === "prefixItems" && positions(pair, vb, va)) continue;
    if (keyword === "patternProperties") patternPriors(pair, vb, va);
    if (vb === undefined || va === undefined) emitPart(pair, vb === undefined, vb, va);
    else SUBSCHEMAS[keyword](pair, vb, va);
  }
}

/**
 * A pattern on one side only, beside an `additionalProperties` or `unevaluatedProperties` the
 * other side writes (issue 39): the names it matches were (or are now) governed by that schema,
 * so the pattern's schema is compared with it, at `x.{/pattern/}`. A pattern added beside
 * `additionalProperties: false` lets those names in: on a response, values a client never got.
 */
function patternPriors(p: Pair, vb: unknown, va: unknown): void {
  const keys = (v: unknown): string[] => (isSchemaObject(v) ? Object.keys(v) : []);
  const prior = (alt: Alternative): [unknown, string] | undefined => {
    for (const k of ["additionalProperties", "unevaluatedProperties"])
      if (k in alt.schema) return [alt.schema[k], child(alt.at, k)];
    return undefined;
  };
  for (const key of new Set([...keys(vb), ...keys(va)])) {
    const [inB, inA] = [keys(vb).includes(key), keys(va).includes(key)];
    if (inB === inA) continue;
    const other = prior(inB ? p.source : p.snapshot);
    if (other === undefined) continue;
    const own = (inB ? vb : va) as Record<string, unknown>;
    const ownAt = child((inB ? p.snapshot : p.source).at, "patternProperties", key);
    const [[sb, pb], [sa, pa]] = inB ? [[own[key], ownAt], other] : [other, [own[key], ownAt]];
    p.walk.descend(
      viewSchema(sb, pb as string, p.walk.before, p.snapshot.refs),
      viewSchema(sa, pa as string, p.walk.after, p.source.refs),
      [...p.field, patternToken(key)],
      p.walk,
    );
  }
}

/**
 * Each position a `prefixItems` covers on either side, compared as an item (issue 39): past a
 * side's tuple, its `items` (any value when absent) applies there. So a tuple removed from a
 * request whose `items` then applies to every element, or a position added to a response whose
 * `items` said something else, is compared as the type or bound it changes, never as the
 * keyword set or unset. A response position removed is still the tuple unset (breaking: it
 * shapes the client's type), compared no further. False when that is left to the caller.
 */
function positions(p: Pair, vb: unknown, va: unknown): boolean {
  const len = (v: unknown): number => (Array.isArray(v) ? v.length : 0);
  if (p.walk.direction === "response" && len(va) < len(vb)) {
    emitPart(p, false, vb, va);
    return true;
  }
  if ((vb !== undefined && !Array.isArray(vb)) || (va !== undefined && !Array.isArray(va))) return false;
  const at = (alt: Alternative, i: number): [unknown, string[]] => {
    const tuple = alt.schema.prefixItems;
    if (Array.isArray(tuple) && i < tuple.length) return [tuple[i], ["prefixItems", String(i)]];
    return "items" in alt.schema && !Array.isArray(alt.schema.items) ? [alt.schema.items, ["items"]] : [true, []];
  };
  const length = (alt: Alternative): number =>
    Array.isArray(alt.schema.prefixItems) ? alt.schema.prefixItems.length : 0;
  const n = Math.max(length(p.snapshot), length(p.source));
  for (let i = 0; i < n; i++) {
    const [[sb, pb], [sa, pa]] = [at(p.snapshot, i), at(p.source, i)];
    if (sameWritten(sb, sa, p.walk)) continue;
    p.walk.descend(
      viewSchema(sb, child(p.snapshot.at, ...pb), p.walk.before, p.snapshot.refs),
      viewSchema(sa, child(p.source.at, ...pa), p.walk.after, p.source.refs),
      [...p.field, String(i)],
      p.walk,
    );
  }
  return true;
}
