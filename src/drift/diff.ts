/**
 * Structural diff of two normalized endpoint schemas (stage 2's `EndpointModel`s): walks both
 * sides together and names every difference by its kind in `table.ts`. It only finds; the
 * table decides what a kind means.
 */
import type { EndpointModel, JsonSchemaObject, ModelSchema } from "../schema/index.js";
import { escapePointerToken, isSchemaObject } from "../schema/index.js";
import { BOUNDS, DOCS_KEYWORDS, type ChangeKindName } from "./table.js";
import type { Direction } from "./types.js";
import {
  acceptsType,
  canonical,
  child,
  resolveRef,
  typesOf,
  viewSchema,
  type Alternative,
  type SchemaRoot,
  type SchemaView,
} from "./view.js";

/** One difference, before classification. */
export interface Finding {
  kind: ChangeKindName;
  model: string;
  endpoint: string;
  direction: Direction;
  /** payload location, `*` for any array index; [] is the whole body */
  field: string[];
  before: string | null;
  after: string | null;
  params: FindingParams;
}

export interface FindingParams {
  keyword?: string;
  change?: "increased" | "decreased" | "set" | "unset";
  value?: unknown;
  from?: unknown;
  to?: unknown;
  /** for an example: the schema a sample value is drawn from, and on which side it lives */
  sample?: { schema: unknown; side: "before" | "after"; type?: string };
}

/** Keywords `compareAlternatives` handles itself; any other difference is `keyword-changed`. */
const HANDLED = new Set(["type", "enum", "const", "properties", "required", "items", ...BOUNDS.map((b) => b.keyword)]);
const ALL_TYPES = ["string", "number", "integer", "boolean", "object", "array"];
const MAX_DEPTH = 64;

interface Walk {
  direction: "request" | "response";
  before: SchemaRoot;
  after: SchemaRoot;
  emit: (
    kind: ChangeKindName,
    field: string[],
    before: string | null,
    after: string | null,
    params?: FindingParams,
  ) => void;
  /**
   * Pairs of alternatives already compared (or being compared) in this direction, by location
   * and content. A shared definition is compared once, from the first field that reaches it:
   * walking it once per path is exponential when definitions reference each other twice or
   * more (D0 → D1 → … with two properties each), and a recursive schema stops where it recurs.
   */
  compared: Set<string>;
  /** pairs reported as too deep to compare, reported once */
  tooDeep: Set<string>;
  /** alternatives on the current path */
  depth: number;
}

/** Every difference between two loaded models: endpoints removed and added, then each endpoint's request and response. */
export function diffModels(before: ModelSchema, after: ModelSchema): Finding[] {
  const out: Finding[] = [];
  const afterByName = new Map(after.endpoints.map((e) => [e.endpoint, e]));
  const beforeByName = new Map(before.endpoints.map((e) => [e.endpoint, e]));
  const pathPointer = (e: EndpointModel): string => "/paths/" + escapePointerToken(e.operationPath);
  for (const b of before.endpoints) {
    const a = afterByName.get(b.endpoint);
    if (a === undefined) {
      out.push({
        kind: "endpoint/removed",
        model: before.model,
        endpoint: b.endpoint,
        direction: "endpoint",
        field: [],
        before: pathPointer(b),
        after: null,
        params: { value: `POST ${b.queuePath}` },
      });
      continue;
    }
    out.push(...diffEndpoint(b, a));
  }
  for (const a of after.endpoints) {
    if (!beforeByName.has(a.endpoint)) {
      out.push({
        kind: "endpoint/added",
        model: after.model,
        endpoint: a.endpoint,
        direction: "endpoint",
        field: [],
        before: null,
        after: pathPointer(a),
        params: { value: `POST ${a.queuePath}` },
      });
    }
  }
  return out;
}

/** The differences of one endpoint: request body first, then response body. */
export function diffEndpoint(before: EndpointModel, after: EndpointModel): Finding[] {
  const out: Finding[] = [];
  for (const direction of ["request", "response"] as const) {
    const b = direction === "request" ? before.input : before.output;
    const a = direction === "request" ? after.input : after.output;
    const walk: Walk = {
      direction,
      before: { schema: b },
      after: { schema: a },
      compared: new Set(),
      tooDeep: new Set(),
      depth: 0,
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
    compareViews(viewSchema(b, "", walk.before), viewSchema(a, "", walk.after), [], walk);
  }
  return out;
}

function kind(walk: Walk, what: string): ChangeKindName {
  return `${walk.direction}/${what}` as ChangeKindName;
}

function compareViews(b: SchemaView, a: SchemaView, field: string[], walk: Walk): void {
  if (b.nullable !== a.nullable) {
    walk.emit(
      kind(walk, b.nullable ? "became-not-nullable" : "became-nullable"),
      field,
      b.nullAt ?? b.at,
      a.nullAt ?? a.at,
    );
  }
  compareAnnotations(b, a, field, walk);
  compareAlternativeLists(b, a, field, walk);
}

function compareAnnotations(b: SchemaView, a: SchemaView, field: string[], walk: Walk): void {
  const keys = [...new Set([...b.annotations.keys(), ...a.annotations.keys()])];
  for (const keyword of keys) {
    const vb = b.annotations.get(keyword);
    const va = a.annotations.get(keyword);
    if (vb !== undefined && va !== undefined && canonical(vb.value) === canonical(va.value)) continue;
    const pb = vb?.at ?? b.at;
    const pa = va?.at ?? a.at;
    if (keyword === "default" && walk.direction === "request") {
      const what = vb === undefined ? "default-added" : va === undefined ? "default-removed" : "default-changed";
      walk.emit(kind(walk, what), field, pb, pa, { keyword, from: vb?.value, to: va?.value });
    } else if (DOCS_KEYWORDS.has(keyword) || keyword === "default") {
      walk.emit(kind(walk, "docs-changed"), field, pb, pa, { keyword, from: vb?.value, to: va?.value });
    } else {
      walk.emit(kind(walk, "keyword-changed"), field, pb, pa, { keyword, from: vb?.value, to: va?.value });
    }
  }
}

/** Pairs the alternatives of both sides (equal ones, then same types, then the last one left) and compares each pair. */
function compareAlternativeLists(b: SchemaView, a: SchemaView, field: string[], walk: Walk): void {
  const left = [...b.alternatives];
  const right = [...a.alternatives];
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
  take((x, y) => canonical(typesOf(x.schema)) === canonical(typesOf(y.schema)));
  if (left.length === 1 && right.length === 1) pairs.push([left.pop()!, right.pop()!]);
  for (const x of left) {
    walk.emit(kind(walk, "any-of-removed"), field, x.at, a.at, {
      value: x.schema,
      sample: { schema: x.schema, side: "before" },
    });
  }
  for (const y of right) {
    walk.emit(kind(walk, "any-of-added"), field, b.at, y.at, {
      value: y.schema,
      sample: { schema: y.schema, side: "after" },
    });
  }
  for (const [x, y] of pairs) compareAlternatives(x, y, field, walk);
}

function compareAlternatives(b: Alternative, a: Alternative, field: string[], walk: Walk): void {
  // Location and content: a `$ref` with siblings is read at its target's location, merged with them.
  const key = canonical([b.at, a.at, b.schema, a.schema]);
  if (walk.compared.has(key)) return;
  if (walk.depth >= MAX_DEPTH) {
    // Not compared, so not known to be equal: reported, never dropped.
    if (!walk.tooDeep.has(key) && !sameBelow(b, a, walk)) {
      walk.tooDeep.add(key);
      walk.emit(kind(walk, "too-deep"), field, b.at, a.at, { value: MAX_DEPTH });
    }
    return;
  }
  walk.compared.add(key);
  walk.depth++;
  try {
    compareTypes(b, a, field, walk);
    compareEnums(b, a, field, walk);
    compareBounds(b, a, field, walk);
    compareProperties(b, a, field, walk);
    compareItems(b, a, field, walk);
    compareOtherKeywords(b, a, field, walk);
  } finally {
    walk.depth--;
  }
}

/** Every `$ref` string written anywhere in `value`. */
function refsIn(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) refsIn(v, out);
  else if (isSchemaObject(value))
    for (const [k, v] of Object.entries(value)) {
      if (k === "$ref" && typeof v === "string") out.push(v);
      else refsIn(v, out);
    }
  return out;
}

/**
 * Whether two alternatives are written the same, all the way down: the same text, and every
 * definition reachable from them through `$ref`s the same text on both sides. Cheap where the
 * walk stops; anything else is reported as too deep to compare.
 */
function sameBelow(b: Alternative, a: Alternative, walk: Walk): boolean {
  if (canonical(b.schema) !== canonical(a.schema)) return false;
  const seen = new Set<string>();
  const queue = refsIn(b.schema);
  for (let ref = queue.pop(); ref !== undefined; ref = queue.pop()) {
    if (seen.has(ref)) continue;
    seen.add(ref);
    const rb = resolveRef(walk.before, ref);
    const ra = resolveRef(walk.after, ref);
    if (rb === undefined || ra === undefined) {
      if (rb !== ra) return false;
      continue;
    }
    if (canonical(rb.schema) !== canonical(ra.schema)) return false;
    queue.push(...refsIn(rb.schema));
  }
  return true;
}

const at = (alt: Alternative, keyword: string): string => (keyword in alt.schema ? child(alt.at, keyword) : alt.at);
const showTypes = (types: readonly string[] | undefined): string => (types === undefined ? "any" : types.join(" | "));

function compareTypes(b: Alternative, a: Alternative, field: string[], walk: Walk): void {
  const tb = typesOf(b.schema);
  const ta = typesOf(a.schema);
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
  const [pb, pa] = [at(b, "type"), at(a, "type")];
  if (walk.direction === "request") {
    if (removed.length === 0)
      walk.emit("request/type-widened", field, pb, pa, { from: showTypes(tb), to: showTypes(ta) });
    else
      walk.emit(
        added.length === 0 ? "request/type-narrowed" : "request/type-changed",
        field,
        pb,
        pa,
        params(removed[0]!, "before", b.schema),
      );
  } else {
    if (added.length === 0)
      walk.emit("response/type-narrowed", field, pb, pa, { from: showTypes(tb), to: showTypes(ta) });
    else walk.emit("response/type-changed", field, pb, pa, params(added[0]!, "after", a.schema));
  }
}

function enumOf(alt: Alternative): { values: unknown[]; keyword: "enum" | "const" } | undefined {
  if (Array.isArray(alt.schema.enum)) return { values: alt.schema.enum, keyword: "enum" };
  if ("const" in alt.schema) return { values: [alt.schema.const], keyword: "const" };
  return undefined;
}

function compareEnums(b: Alternative, a: Alternative, field: string[], walk: Walk): void {
  const eb = enumOf(b);
  const ea = enumOf(a);
  if (eb === undefined && ea === undefined) return;
  if (eb === undefined || ea === undefined) {
    walk.emit(
      kind(walk, eb === undefined ? "enum-set" : "enum-unset"),
      field,
      eb ? child(b.at, eb.keyword) : b.at,
      ea ? child(a.at, ea.keyword) : a.at,
      {
        from: eb?.values,
        to: ea?.values,
        sample: { schema: b.schema, side: "before" },
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
      walk.emit(kind(walk, "enum-value-removed"), field, pointer(b, eb, i), child(a.at, ea.keyword), { value: v });
  });
  ea.values.forEach((v, i) => {
    if (!inB.has(canonical(v)))
      walk.emit(kind(walk, "enum-value-added"), field, child(b.at, eb.keyword), pointer(a, ea, i), { value: v });
  });
}

function compareBounds(b: Alternative, a: Alternative, field: string[], walk: Walk): void {
  for (const bound of BOUNDS) {
    const number = (alt: Alternative): number | undefined => {
      const v = alt.schema[bound.keyword];
      // minLength 0 and minItems 0 bound nothing
      return typeof v === "number" && !(v === 0 && (bound.keyword === "minLength" || bound.keyword === "minItems"))
        ? v
        : undefined;
    };
    const vb = number(b);
    const va = number(a);
    if (vb === va) continue;
    const change = vb === undefined ? "set" : va === undefined ? "unset" : va > vb ? "increased" : "decreased";
    const narrows = change === "set" || (bound.upper ? change === "decreased" : change === "increased");
    const params: FindingParams = {
      keyword: bound.keyword,
      change,
      from: vb,
      to: va,
      sample: { schema: b.schema, side: "before" },
    };
    const pb = at(b, bound.keyword);
    const pa = at(a, bound.keyword);
    if (walk.direction === "response") {
      walk.emit(narrows ? "response/bound-narrowed" : "response/bound-widened", field, pb, pa, params);
      continue;
    }
    const what =
      change === "set"
        ? "bound-set"
        : change === "unset"
          ? "bound-unset"
          : bound.upper
            ? narrows
              ? "upper-bound-lowered"
              : "upper-bound-raised"
            : narrows
              ? "lower-bound-raised"
              : "lower-bound-lowered";
    walk.emit(kind(walk, what), field, pb, pa, params);
  }
}

function compareProperties(b: Alternative, a: Alternative, field: string[], walk: Walk): void {
  const shape = (alt: Alternative): { props: JsonSchemaObject; required: string[]; has: boolean } => {
    const props = isSchemaObject(alt.schema.properties) ? alt.schema.properties : {};
    const required = Array.isArray(alt.schema.required)
      ? alt.schema.required.filter((r): r is string => typeof r === "string")
      : [];
    return { props, required, has: "properties" in alt.schema || "required" in alt.schema };
  };
  const sb = shape(b);
  const sa = shape(a);
  if (!sb.has && !sa.has) return;
  const own = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);
  const names = [...new Set([...Object.keys(sb.props), ...sb.required, ...Object.keys(sa.props), ...sa.required])];
  const requiredAt = (alt: Alternative, list: string[], name: string): string =>
    child(alt.at, "required", String(list.indexOf(name)));
  const propAt = (alt: Alternative, s: { props: JsonSchemaObject }, name: string): string =>
    own(s.props, name)
      ? child(alt.at, "properties", name)
      : "properties" in alt.schema
        ? child(alt.at, "properties")
        : alt.at;
  for (const name of names) {
    const path = [...field, name];
    const inB = own(sb.props, name) || sb.required.includes(name);
    const inA = own(sa.props, name) || sa.required.includes(name);
    const reqB = sb.required.includes(name);
    const reqA = sa.required.includes(name);
    if (inB && !inA) {
      const what =
        walk.direction === "request"
          ? "property-removed"
          : reqB
            ? "required-property-removed"
            : "optional-property-removed";
      walk.emit(kind(walk, what), path, propAt(b, sb, name), propAt(a, sa, name), {
        sample: { schema: sb.props[name] ?? {}, side: "before" },
      });
      continue;
    }
    if (!inB && inA) {
      const what =
        walk.direction === "request"
          ? reqA
            ? "new-required-property"
            : "new-optional-property"
          : reqA
            ? "required-property-added"
            : "optional-property-added";
      walk.emit(kind(walk, what), path, propAt(b, sb, name), propAt(a, sa, name));
      continue;
    }
    if (reqB && !reqA)
      walk.emit(
        kind(walk, "property-became-optional"),
        path,
        requiredAt(b, sb.required, name),
        "required" in a.schema ? child(a.at, "required") : a.at,
      );
    if (!reqB && reqA)
      walk.emit(
        kind(walk, "property-became-required"),
        path,
        "required" in b.schema ? child(b.at, "required") : b.at,
        requiredAt(a, sa.required, name),
      );
    if (own(sb.props, name) || own(sa.props, name)) {
      const vb = viewSchema(
        own(sb.props, name) ? sb.props[name] : true,
        child(b.at, "properties", name),
        walk.before,
        b.refs,
      );
      const va = viewSchema(
        own(sa.props, name) ? sa.props[name] : true,
        child(a.at, "properties", name),
        walk.after,
        a.refs,
      );
      compareViews(vb, va, path, walk);
    }
  }
}

function compareItems(b: Alternative, a: Alternative, field: string[], walk: Walk): void {
  const ib = b.schema.items;
  const ia = a.schema.items;
  if (ib === undefined || ia === undefined || Array.isArray(ib) || Array.isArray(ia)) {
    if (canonical(ib) !== canonical(ia))
      walk.emit(kind(walk, "keyword-changed"), field, at(b, "items"), at(a, "items"), {
        keyword: "items",
        from: ib,
        to: ia,
      });
    return;
  }
  compareViews(
    viewSchema(ib, child(b.at, "items"), walk.before, b.refs),
    viewSchema(ia, child(a.at, "items"), walk.after, a.refs),
    [...field, "*"],
    walk,
  );
}

function compareOtherKeywords(b: Alternative, a: Alternative, field: string[], walk: Walk): void {
  const keys = [...new Set([...Object.keys(b.schema), ...Object.keys(a.schema)])].filter((k) => !HANDLED.has(k));
  for (const keyword of keys) {
    const vb = b.schema[keyword];
    const va = a.schema[keyword];
    if (canonical(vb) === canonical(va)) continue;
    walk.emit(kind(walk, "keyword-changed"), field, at(b, keyword), at(a, keyword), { keyword, from: vb, to: va });
  }
}
