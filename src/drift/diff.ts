/**
 * Structural diff of two normalized endpoint schemas (stage 2's `EndpointModel`s): walks both
 * sides together and names every difference by its kind in `table.ts`. It only finds; the
 * table decides what a kind means.
 */
import type { EndpointModel, JsonSchemaObject, ModelSchema, OperationModel } from "../schema/index.js";
import { bareMediaType, escapePointerToken, isSchemaObject } from "../schema/index.js";
import { BOUNDS, changeKind, CONSTRAINTS, DOCS_KEYWORDS, UNCLASSIFIED_KEYWORDS, type ChangeKindName } from "./table.js";
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
const HANDLED = new Set([
  "type",
  "enum",
  "const",
  "properties",
  "required",
  "items",
  "multipleOf",
  "additionalProperties",
  ...CONSTRAINTS,
  ...BOUNDS.map((b) => b.keyword),
]);
const KNOWN_UNCLASSIFIED: ReadonlySet<string> = new Set(UNCLASSIFIED_KEYWORDS);
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

const pathPointer = (path: string, ...tokens: string[]): string =>
  "/paths/" + [path, ...tokens].map(escapePointerToken).join("/");

/**
 * Every difference between two loaded models: endpoints removed and added, an endpoint whose
 * method, media type or success status changed (spec 4.1: the queue submits a POST with a JSON
 * body), then each endpoint's request and response.
 */
export function diffModels(before: ModelSchema, after: ModelSchema): Finding[] {
  const out: Finding[] = [];
  const afterByName = new Map(after.endpoints.map((e) => [e.endpoint, e]));
  const beforeByName = new Map(before.endpoints.map((e) => [e.endpoint, e]));
  const endpointFinding = (
    kind: ChangeKindName,
    endpoint: string,
    pb: string | null,
    pa: string | null,
    params: FindingParams,
  ): Finding => ({
    kind,
    model: before.model,
    endpoint,
    direction: "endpoint",
    field: [],
    before: pb,
    after: pa,
    params,
  });
  for (const b of before.endpoints) {
    const a = afterByName.get(b.endpoint);
    if (a !== undefined) {
      out.push(...compareOperations(b, operationOf(a), endpointFinding));
      out.push(...diffEndpoint(b, a));
      continue;
    }
    // still there, but no longer queue-shaped: say what changed, not "removed"
    const others = (after.operations ?? []).filter((o) => o.endpoint === b.endpoint);
    const other = others.find((o) => o.method === "POST") ?? others[0];
    const found = other === undefined ? [] : compareOperations(b, other, endpointFinding);
    if (found.length > 0) out.push(...found);
    else
      out.push(
        endpointFinding("endpoint/removed", b.endpoint, pathPointer(b.operationPath), null, {
          value: `POST ${b.queuePath}`,
        }),
      );
  }
  for (const a of after.endpoints) {
    if (!beforeByName.has(a.endpoint))
      out.push(
        endpointFinding("endpoint/added", a.endpoint, null, pathPointer(a.operationPath), {
          value: `POST ${a.queuePath}`,
        }),
      );
  }
  return out;
}

function operationOf(e: EndpointModel): OperationModel {
  return {
    endpoint: e.endpoint,
    operationPath: e.operationPath,
    method: "POST",
    requestMediaType: e.requestMediaType,
    responseStatus: e.responseStatus,
    responseMediaType: e.responseMediaType,
  };
}

/** Method, request media type, success status and response media type of an endpoint on both sides. */
function compareOperations(
  b: EndpointModel,
  a: OperationModel,
  finding: (kind: ChangeKindName, endpoint: string, pb: string | null, pa: string | null, p: FindingParams) => Finding,
): Finding[] {
  const out: Finding[] = [];
  const value = `POST ${b.queuePath}`;
  const method = a.method.toLowerCase();
  const at = (op: { operationPath: string }, m: string, ...tokens: string[]): string =>
    pathPointer(op.operationPath, m, ...tokens);
  const same = (x: string | null, y: string | null): boolean =>
    x !== null && y !== null && bareMediaType(x) === bareMediaType(y);
  if (a.method !== "POST") {
    out.push(
      finding("endpoint/method-changed", b.endpoint, at(b, "post"), at(a, method), {
        value,
        from: "POST",
        to: a.method,
      }),
    );
    return out; // what a PUT reads and answers is not the queue's
  }
  if (!same(b.requestMediaType, a.requestMediaType))
    out.push(
      finding(
        "endpoint/request-media-type-changed",
        b.endpoint,
        at(b, "post", "requestBody"),
        at(a, method, "requestBody"),
        {
          value,
          from: b.requestMediaType,
          to: a.requestMediaType ?? "(no request body)",
        },
      ),
    );
  if (b.responseStatus !== a.responseStatus)
    out.push(
      finding(
        "endpoint/response-status-changed",
        b.endpoint,
        at(b, "post", "responses", b.responseStatus),
        a.responseStatus === null ? at(a, method, "responses") : at(a, method, "responses", a.responseStatus),
        { value, from: b.responseStatus, to: a.responseStatus ?? "(no success response)" },
      ),
    );
  else if (!same(b.responseMediaType, a.responseMediaType))
    out.push(
      finding(
        "endpoint/response-media-type-changed",
        b.endpoint,
        at(b, "post", "responses", b.responseStatus),
        at(a, method, "responses", a.responseStatus ?? ""),
        { value, from: b.responseMediaType, to: a.responseMediaType ?? "(no content)" },
      ),
    );
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
  for (const [x, y] of pairs) {
    // Compare what each side accepts, not branch by branch: values x no longer accepts that
    // another alternative of the source accepts are not lost; values y newly accepts that
    // another alternative of the snapshot accepted are not new.
    const lost = cover(x, a.alternatives, y);
    const gained = cover(y, b.alternatives, x);
    const [hurt, harmless] = walk.direction === "request" ? [lost, gained] : [gained, lost];
    compareAlternatives(x, y, field, hurt === "none" && harmless !== "all" ? walk : coveredWalk(walk, hurt, harmless));
  }
}

/** Whether the other alternatives of a side accept all of `alt` (`all`), maybe some of it, or none of it. */
function cover(alt: Alternative, side: readonly Alternative[], partner: Alternative): "all" | "maybe" | "none" {
  const others = side.filter((o) => o !== partner);
  if (others.some((o) => subsumes(o.schema, alt.schema))) return "all";
  return others.some((o) => overlaps(o.schema, alt.schema)) ? "maybe" : "none";
}

/** Severities that can hurt, per direction: what a covered alternative's changes cannot do. */
const HURTS: Record<"request" | "response", ReadonlySet<string>> = {
  request: new Set(["breaking", "unclassified"]),
  response: new Set(["breaking", "behavior", "unclassified"]),
};

/**
 * The walk below a pair of alternatives whose changes other alternatives cover. What could hurt
 * (a request narrowed, a response widened): dropped when covered (`all`), said to be undecided
 * (unclassified) when it may be (`maybe`), never called breaking then. What is safe: dropped
 * when covered.
 */
function coveredWalk(walk: Walk, hurt: "all" | "maybe" | "none", harmless: "all" | "maybe" | "none"): Walk {
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
        kind(walk, walk.direction === "request" ? "any-of-narrowing-undecided" : "any-of-widening-undecided"),
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

/** Whether two alternatives may accept a value in common: they share a type, and no two enums keep them apart. */
function overlaps(x: JsonSchemaObject, y: JsonSchemaObject): boolean {
  const values = (s: JsonSchemaObject): unknown[] | undefined =>
    Array.isArray(s.enum) ? s.enum : "const" in s ? [s.const] : undefined;
  const [vx, vy] = [values(x), values(y)];
  if (vx !== undefined && vy !== undefined) {
    const inY = new Set(vy.map(canonical));
    return vx.some((v) => inY.has(canonical(v)));
  }
  const tx = typesOf(x);
  const ty = typesOf(y);
  if (tx === undefined || ty === undefined) return true;
  return tx.some((t) => ty.some((u) => acceptsType([t], u) || acceptsType([u], t)));
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
    compareConstraints(b, a, field, walk);
    compareMultipleOf(b, a, field, walk);
    compareAdditionalProperties(b, a, field, walk);
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
      // minLength, minItems and minProperties 0 bound nothing
      return typeof v === "number" &&
        !(
          v === 0 &&
          (bound.keyword === "minLength" || bound.keyword === "minItems" || bound.keyword === "minProperties")
        )
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

/** `format`, `pattern`, `uniqueItems`: set narrows, unset widens, rewritten is undecidable (unclassified). */
function compareConstraints(b: Alternative, a: Alternative, field: string[], walk: Walk): void {
  for (const keyword of CONSTRAINTS) {
    const value = (alt: Alternative): unknown =>
      keyword === "uniqueItems" && alt.schema[keyword] === false ? undefined : alt.schema[keyword];
    const vb = value(b);
    const va = value(a);
    if (canonical(vb) === canonical(va)) continue;
    const params: FindingParams = { keyword, from: vb, to: va, sample: { schema: b.schema, side: "before" } };
    const what = vb === undefined ? "constraint-set" : va === undefined ? "constraint-unset" : "keyword-changed";
    walk.emit(kind(walk, what), field, at(b, keyword), at(a, keyword), params);
  }
}

/** Whether `x` is a whole multiple of `y` (within floating-point error). */
function isMultiple(x: number, y: number): boolean {
  const q = x / y;
  return y !== 0 && Math.abs(q - Math.round(q)) < 1e-9;
}

/** `multipleOf`: a step whose values are all values of the old step narrows; the reverse widens; any other change both. */
function compareMultipleOf(b: Alternative, a: Alternative, field: string[], walk: Walk): void {
  const step = (alt: Alternative): number | undefined =>
    typeof alt.schema.multipleOf === "number" && alt.schema.multipleOf > 0 ? alt.schema.multipleOf : undefined;
  const vb = step(b);
  const va = step(a);
  if (vb === va) return;
  const what =
    va !== undefined && (vb === undefined || isMultiple(va, vb))
      ? "multiple-of-narrowed"
      : vb !== undefined && (va === undefined || isMultiple(vb, va))
        ? "multiple-of-widened"
        : "multiple-of-changed";
  walk.emit(kind(walk, what), field, at(b, "multipleOf"), at(a, "multipleOf"), {
    keyword: "multipleOf",
    from: vb,
    to: va,
    sample: { schema: b.schema, side: "before" },
  });
}

/** `additionalProperties`: absent or true accepts any, a schema some, false none. */
function compareAdditionalProperties(b: Alternative, a: Alternative, field: string[], walk: Walk): void {
  const level = (v: unknown): number =>
    v === undefined || v === true || (isSchemaObject(v) && Object.keys(v).length === 0) ? 2 : v === false ? 0 : 1;
  const vb = b.schema.additionalProperties;
  const va = a.schema.additionalProperties;
  const [lb, la] = [level(vb), level(va)];
  if (lb === la && (lb !== 1 || canonical(vb) === canonical(va))) return;
  const params: FindingParams = {
    keyword: "additionalProperties",
    from: vb ?? true,
    to: va ?? true,
    sample: { schema: b.schema, side: "before" },
  };
  const [pb, pa] = [at(b, "additionalProperties"), at(a, "additionalProperties")];
  // one schema for another: which accepts more is not decided here
  if (lb === la) walk.emit(kind(walk, "keyword-changed"), field, pb, pa, params);
  else
    walk.emit(
      kind(walk, la < lb ? "additional-properties-narrowed" : "additional-properties-widened"),
      field,
      pb,
      pa,
      params,
    );
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
    walk.emit(
      kind(walk, KNOWN_UNCLASSIFIED.has(keyword) ? "keyword-changed" : "unknown-keyword-changed"),
      field,
      at(b, keyword),
      at(a, keyword),
      { keyword, from: vb, to: va },
    );
  }
}
