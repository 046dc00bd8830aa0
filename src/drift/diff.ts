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
  for (const snapshot of before.endpoints) {
    const source = afterByName.get(snapshot.endpoint);
    if (source !== undefined) {
      out.push(...compareOperations(snapshot, operationOf(source), endpointFinding));
      out.push(...diffEndpoint(snapshot, source));
      continue;
    }
    // still there, but no longer queue-shaped: say what changed, not "removed"
    const others = (after.operations ?? []).filter((o) => o.endpoint === snapshot.endpoint);
    const other = others.find((o) => o.method === "POST") ?? others[0];
    const found = other === undefined ? [] : compareOperations(snapshot, other, endpointFinding);
    if (found.length > 0) out.push(...found);
    else
      out.push(
        endpointFinding("endpoint/removed", snapshot.endpoint, pathPointer(snapshot.operationPath), null, {
          value: `POST ${snapshot.queuePath}`,
        }),
      );
  }
  for (const source of after.endpoints) {
    if (!beforeByName.has(source.endpoint))
      out.push(
        endpointFinding("endpoint/added", source.endpoint, null, pathPointer(source.operationPath), {
          value: `POST ${source.queuePath}`,
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
  snapshot: EndpointModel,
  source: OperationModel,
  finding: (kind: ChangeKindName, endpoint: string, pb: string | null, pa: string | null, p: FindingParams) => Finding,
): Finding[] {
  const out: Finding[] = [];
  const value = `POST ${snapshot.queuePath}`;
  const method = source.method.toLowerCase();
  const at = (op: { operationPath: string }, m: string, ...tokens: string[]): string =>
    pathPointer(op.operationPath, m, ...tokens);
  const same = (x: string | null, y: string | null): boolean =>
    x !== null && y !== null && bareMediaType(x) === bareMediaType(y);
  if (source.method !== "POST") {
    out.push(
      finding("endpoint/method-changed", snapshot.endpoint, at(snapshot, "post"), at(source, method), {
        value,
        from: "POST",
        to: source.method,
      }),
    );
    return out; // what a PUT reads and answers is not the queue's
  }
  if (!same(snapshot.requestMediaType, source.requestMediaType))
    out.push(
      finding(
        "endpoint/request-media-type-changed",
        snapshot.endpoint,
        at(snapshot, "post", "requestBody"),
        at(source, method, "requestBody"),
        {
          value,
          from: snapshot.requestMediaType,
          to: source.requestMediaType ?? "(no request body)",
        },
      ),
    );
  if (snapshot.responseStatus !== source.responseStatus)
    out.push(
      finding(
        "endpoint/response-status-changed",
        snapshot.endpoint,
        at(snapshot, "post", "responses", snapshot.responseStatus),
        source.responseStatus === null
          ? at(source, method, "responses")
          : at(source, method, "responses", source.responseStatus),
        { value, from: snapshot.responseStatus, to: source.responseStatus ?? "(no success response)" },
      ),
    );
  else if (!same(snapshot.responseMediaType, source.responseMediaType))
    out.push(
      finding(
        "endpoint/response-media-type-changed",
        snapshot.endpoint,
        at(snapshot, "post", "responses", snapshot.responseStatus),
        at(source, method, "responses", source.responseStatus ?? ""),
        { value, from: snapshot.responseMediaType, to: source.responseMediaType ?? "(no content)" },
      ),
    );
  return out;
}

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
    compareViews(viewSchema(snapshot, "", walk.before), viewSchema(source, "", walk.after), [], walk);
  }
  return out;
}

function kind(walk: Walk, what: string): ChangeKindName {
  return `${walk.direction}/${what}` as ChangeKindName;
}

function compareViews(snapshot: SchemaView, source: SchemaView, field: string[], walk: Walk): void {
  if (snapshot.nullable !== source.nullable) {
    walk.emit(
      kind(walk, snapshot.nullable ? "became-not-nullable" : "became-nullable"),
      field,
      snapshot.nullAt ?? snapshot.at,
      source.nullAt ?? source.at,
    );
  }
  compareAnnotations(snapshot, source, field, walk);
  compareAlternativeLists(snapshot, source, field, walk);
}

function compareAnnotations(snapshot: SchemaView, source: SchemaView, field: string[], walk: Walk): void {
  const keys = [...new Set([...snapshot.annotations.keys(), ...source.annotations.keys()])];
  for (const keyword of keys) {
    const vb = snapshot.annotations.get(keyword);
    const va = source.annotations.get(keyword);
    if (vb !== undefined && va !== undefined && canonical(vb.value) === canonical(va.value)) continue;
    const pb = vb?.at ?? snapshot.at;
    const pa = va?.at ?? source.at;
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
function compareAlternativeLists(snapshot: SchemaView, source: SchemaView, field: string[], walk: Walk): void {
  const left = [...snapshot.alternatives];
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
  take((x, y) => canonical(typesOf(x.schema)) === canonical(typesOf(y.schema)));
  if (left.length === 1 && right.length === 1) pairs.push([left.pop()!, right.pop()!]);
  for (const x of left) {
    walk.emit(kind(walk, "any-of-removed"), field, x.at, source.at, {
      value: x.schema,
      sample: { schema: x.schema, side: "before" },
    });
  }
  for (const y of right) {
    walk.emit(kind(walk, "any-of-added"), field, snapshot.at, y.at, {
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

function compareAlternatives(snapshot: Alternative, source: Alternative, field: string[], walk: Walk): void {
  // Location and content: a `$ref` with siblings is read at its target's location, merged with them.
  const key = canonical([snapshot.at, source.at, snapshot.schema, source.schema]);
  if (walk.compared.has(key)) return;
  if (walk.depth >= MAX_DEPTH) {
    // Not compared, so not known to be equal: reported, never dropped.
    if (!walk.tooDeep.has(key) && !sameBelow(snapshot, source, walk)) {
      walk.tooDeep.add(key);
      walk.emit(kind(walk, "too-deep"), field, snapshot.at, source.at, { value: MAX_DEPTH });
    }
    return;
  }
  walk.compared.add(key);
  walk.depth++;
  try {
    compareTypes(snapshot, source, field, walk);
    compareEnums(snapshot, source, field, walk);
    compareBounds(snapshot, source, field, walk);
    compareConstraints(snapshot, source, field, walk);
    compareMultipleOf(snapshot, source, field, walk);
    compareAdditionalProperties(snapshot, source, field, walk);
    compareProperties(snapshot, source, field, walk);
    compareItems(snapshot, source, field, walk);
    compareOtherKeywords(snapshot, source, field, walk);
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
function sameBelow(snapshot: Alternative, source: Alternative, walk: Walk): boolean {
  if (canonical(snapshot.schema) !== canonical(source.schema)) return false;
  const seen = new Set<string>();
  const queue = refsIn(snapshot.schema);
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

function compareTypes(snapshot: Alternative, source: Alternative, field: string[], walk: Walk): void {
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

function enumOf(alt: Alternative): { values: unknown[]; keyword: "enum" | "const" } | undefined {
  if (Array.isArray(alt.schema.enum)) return { values: alt.schema.enum, keyword: "enum" };
  if ("const" in alt.schema) return { values: [alt.schema.const], keyword: "const" };
  return undefined;
}

function compareEnums(snapshot: Alternative, source: Alternative, field: string[], walk: Walk): void {
  const eb = enumOf(snapshot);
  const ea = enumOf(source);
  if (eb === undefined && ea === undefined) return;
  if (eb === undefined || ea === undefined) {
    walk.emit(
      kind(walk, eb === undefined ? "enum-set" : "enum-unset"),
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
      walk.emit(kind(walk, "enum-value-removed"), field, pointer(snapshot, eb, i), child(source.at, ea.keyword), {
        value: v,
      });
  });
  ea.values.forEach((v, i) => {
    if (!inB.has(canonical(v)))
      walk.emit(kind(walk, "enum-value-added"), field, child(snapshot.at, eb.keyword), pointer(source, ea, i), {
        value: v,
      });
  });
}

function compareBounds(snapshot: Alternative, source: Alternative, field: string[], walk: Walk): void {
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
    const vb = number(snapshot);
    const va = number(source);
    if (vb === va) continue;
    const change = vb === undefined ? "set" : va === undefined ? "unset" : va > vb ? "increased" : "decreased";
    const narrows = change === "set" || (bound.upper ? change === "decreased" : change === "increased");
    const params: FindingParams = {
      keyword: bound.keyword,
      change,
      from: vb,
      to: va,
      sample: { schema: snapshot.schema, side: "before" },
    };
    const pb = at(snapshot, bound.keyword);
    const pa = at(source, bound.keyword);
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
function compareConstraints(snapshot: Alternative, source: Alternative, field: string[], walk: Walk): void {
  for (const keyword of CONSTRAINTS) {
    const value = (alt: Alternative): unknown =>
      keyword === "uniqueItems" && alt.schema[keyword] === false ? undefined : alt.schema[keyword];
    const vb = value(snapshot);
    const va = value(source);
    if (canonical(vb) === canonical(va)) continue;
    const params: FindingParams = { keyword, from: vb, to: va, sample: { schema: snapshot.schema, side: "before" } };
    const what = vb === undefined ? "constraint-set" : va === undefined ? "constraint-unset" : "keyword-changed";
    walk.emit(kind(walk, what), field, at(snapshot, keyword), at(source, keyword), params);
  }
}

/** Whether `x` is a whole multiple of `y` (within floating-point error). */
function isMultiple(x: number, y: number): boolean {
  const q = x / y;
  return y !== 0 && Math.abs(q - Math.round(q)) < 1e-9;
}

/** `multipleOf`: a step whose values are all values of the old step narrows; the reverse widens; any other change both. */
function compareMultipleOf(snapshot: Alternative, source: Alternative, field: string[], walk: Walk): void {
  const step = (alt: Alternative): number | undefined =>
    typeof alt.schema.multipleOf === "number" && alt.schema.multipleOf > 0 ? alt.schema.multipleOf : undefined;
  const vb = step(snapshot);
  const va = step(source);
  if (vb === va) return;
  const what =
    va !== undefined && (vb === undefined || isMultiple(va, vb))
      ? "multiple-of-narrowed"
      : vb !== undefined && (va === undefined || isMultiple(vb, va))
        ? "multiple-of-widened"
        : "multiple-of-changed";
  walk.emit(kind(walk, what), field, at(snapshot, "multipleOf"), at(source, "multipleOf"), {
    keyword: "multipleOf",
    from: vb,
    to: va,
    sample: { schema: snapshot.schema, side: "before" },
  });
}

/** `additionalProperties`: absent or true accepts any, a schema some, false none. */
function compareAdditionalProperties(snapshot: Alternative, source: Alternative, field: string[], walk: Walk): void {
  const level = (v: unknown): number =>
    v === undefined || v === true || (isSchemaObject(v) && Object.keys(v).length === 0) ? 2 : v === false ? 0 : 1;
  const vb = snapshot.schema.additionalProperties;
  const va = source.schema.additionalProperties;
  const [lb, la] = [level(vb), level(va)];
  if (lb === la && (lb !== 1 || canonical(vb) === canonical(va))) return;
  const params: FindingParams = {
    keyword: "additionalProperties",
    from: vb ?? true,
    to: va ?? true,
    sample: { schema: snapshot.schema, side: "before" },
  };
  const [pb, pa] = [at(snapshot, "additionalProperties"), at(source, "additionalProperties")];
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

function compareProperties(snapshot: Alternative, source: Alternative, field: string[], walk: Walk): void {
  const shape = (alt: Alternative): { props: JsonSchemaObject; required: string[]; has: boolean } => {
    const props = isSchemaObject(alt.schema.properties) ? alt.schema.properties : {};
    const required = Array.isArray(alt.schema.required)
      ? alt.schema.required.filter((r): r is string => typeof r === "string")
      : [];
    return { props, required, has: "properties" in alt.schema || "required" in alt.schema };
  };
  const sb = shape(snapshot);
  const sa = shape(source);
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
      walk.emit(kind(walk, what), path, propAt(snapshot, sb, name), propAt(source, sa, name), {
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
      walk.emit(kind(walk, what), path, propAt(snapshot, sb, name), propAt(source, sa, name));
      continue;
    }
    if (reqB && !reqA)
      walk.emit(
        kind(walk, "property-became-optional"),
        path,
        requiredAt(snapshot, sb.required, name),
        "required" in source.schema ? child(source.at, "required") : source.at,
      );
    if (!reqB && reqA)
      walk.emit(
        kind(walk, "property-became-required"),
        path,
        "required" in snapshot.schema ? child(snapshot.at, "required") : snapshot.at,
        requiredAt(source, sa.required, name),
      );
    if (own(sb.props, name) || own(sa.props, name)) {
      const vb = viewSchema(
        own(sb.props, name) ? sb.props[name] : true,
        child(snapshot.at, "properties", name),
        walk.before,
        snapshot.refs,
      );
      const va = viewSchema(
        own(sa.props, name) ? sa.props[name] : true,
        child(source.at, "properties", name),
        walk.after,
        source.refs,
      );
      compareViews(vb, va, path, walk);
    }
  }
}

function compareItems(snapshot: Alternative, source: Alternative, field: string[], walk: Walk): void {
  const ib = snapshot.schema.items;
  const ia = source.schema.items;
  if (ib === undefined || ia === undefined || Array.isArray(ib) || Array.isArray(ia)) {
    if (canonical(ib) !== canonical(ia))
      walk.emit(kind(walk, "keyword-changed"), field, at(snapshot, "items"), at(source, "items"), {
        keyword: "items",
        from: ib,
        to: ia,
      });
    return;
  }
  compareViews(
    viewSchema(ib, child(snapshot.at, "items"), walk.before, snapshot.refs),
    viewSchema(ia, child(source.at, "items"), walk.after, source.refs),
    [...field, "*"],
    walk,
  );
}

function compareOtherKeywords(snapshot: Alternative, source: Alternative, field: string[], walk: Walk): void {
  const keys = [...new Set([...Object.keys(snapshot.schema), ...Object.keys(source.schema)])].filter(
    (k) => !HANDLED.has(k),
  );
  for (const keyword of keys) {
    const vb = snapshot.schema[keyword];
    const va = source.schema[keyword];
    if (canonical(vb) === canonical(va)) continue;
    walk.emit(
      kind(walk, KNOWN_UNCLASSIFIED.has(keyword) ? "keyword-changed" : "unknown-keyword-changed"),
      field,
      at(snapshot, keyword),
      at(source, keyword),
      { keyword, from: vb, to: va },
    );
  }
}
