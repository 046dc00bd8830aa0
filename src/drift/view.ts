/**
 * What a schema accepts, in a form two schemas can be compared in: `$ref`s followed (so a
 * reference and the same schema inline are no change), every form of nullability folded into
 * one flag (`anyOf: [X, {type: "null"}]`, `type: [X, "null"]`, `null` in an `enum`), nested
 * `anyOf`s flattened into a list of alternatives, and annotations (title, description,
 * default, …) collected apart from the constraints.
 */
import { formatPointer } from "../json/index.js";
import {
  defineOwn,
  isSchemaObject,
  ANNOTATIONS,
  NULL_SCHEMA,
  resolveRef,
  followRefs,
  type JsonSchemaObject,
} from "../schema/index.js";

/** `canonical`'s memory: one text per object (declared first: module constants below use it). */
const CANONICAL = new WeakMap<object, string>();

/**
 * Keywords that only annotate a schema (one set for the whole toolkit, src/schema), and
 * OpenAPI's `discriminator`, which changes nothing a validator accepts (issue 39).
 */
export const ANNOTATION_KEYWORDS: ReadonlySet<string> = new Set([...ANNOTATIONS, "discriminator"]);
/** Keywords that hold definitions or identify a document: never a change by themselves. */
const STRUCTURAL_KEYWORDS: ReadonlySet<string> = new Set(["$schema", "$defs", "definitions", "$id", "$anchor"]);

/** One alternative of a schema: its constraints, without annotations or wrapping `anyOf`. */
export interface Alternative {
  schema: JsonSchemaObject;
  /** JSON Pointer of the schema object the constraints were read from */
  at: string;
  /** the references followed to reach it (a recursive reference is not followed twice) */
  refs: ReadonlySet<string>;
}

export interface Annotation {
  value: unknown;
  at: string;
}

export interface SchemaView {
  /** pointer of the schema as referenced from its parent */
  at: string;
  nullable: boolean;
  /** where the null alternative is written, when nullable */
  nullAt?: string;
  annotations: Map<string, Annotation>;
  /** what a non-null value may be: one alternative for a plain schema, several for an `anyOf` */
  alternatives: Alternative[];
  /**
   * `oneOf` branches written more than once: a value one accepts matches several branches, so
   * it is rejected (oneOf: exactly one); each kept once, at its last copy.
   */
  duplicated: Alternative[];
}

/** A self-contained schema (input or output of an `EndpointModel`) whose `$ref`s are resolved against itself. */
export interface SchemaRoot {
  schema: JsonSchemaObject;
}

export function resolveRefAt(root: SchemaRoot, ref: string): { schema: JsonSchemaObject; at: string } | undefined {
  const target = resolveRef(root.schema, ref);
  if (target === true) return { schema: {}, at: ref.slice(1) };
  return isSchemaObject(target) ? { schema: target, at: ref.slice(1) } : undefined;
}

export function child(at: string, ...tokens: string[]): string {
  return at + formatPointer(tokens);
}

const NULL_ONLY = [canonical(NULL_SCHEMA), canonical({ enum: [null] })];

/**
 * Whether constraints (annotations already set aside) accept null and nothing else: the
 * loader's `NULL_SCHEMA` or `enum: [null]`. Not `nullableInner`: that recognises only the
 * loader's own two-branch `anyOf: [X, {type: "null"}]`, while a view folds a null branch
 * wherever it is (among several alternatives, in a nested `anyOf`, with a title of its own).
 */
function isNullOnly(constraints: JsonSchemaObject): boolean {
  const keys = Object.keys(constraints);
  return keys.length === 1 && (keys[0] === "type" || keys[0] === "enum") && NULL_ONLY.includes(canonical(constraints));
}

/**
 * Views `schema` (found at `at` in `root`). `refs` are the references already followed on the
 * way here: a reference met again (a recursive schema) is kept as it is, not followed.
 */
export function viewSchema(
  schema: unknown,
  at: string,
  root: SchemaRoot,
  refs: ReadonlySet<string> = new Set(),
): SchemaView {
  const view: SchemaView = { at, nullable: false, annotations: new Map(), alternatives: [], duplicated: [] };
  collect(schema, at, root, refs, view);
  return view;
}

function collect(schema: unknown, at: string, root: SchemaRoot, refs: ReadonlySet<string>, view: SchemaView): void {
  if (schema === false) return;
  if (!isSchemaObject(schema)) {
    view.alternatives.push({ schema: {}, at, refs });
    return;
  }
  // The outermost annotation wins: a `$ref`'s siblings override the target's title.
  for (const k of Object.keys(schema)) {
    if (ANNOTATION_KEYWORDS.has(k) && !view.annotations.has(k))
      view.annotations.set(k, { value: schema[k], at: child(at, k) });
  }
  let rest: JsonSchemaObject = {};
  for (const [k, v] of Object.entries(schema))
    if (!ANNOTATION_KEYWORDS.has(k) && !STRUCTURAL_KEYWORDS.has(k)) defineOwn(rest, k, v);

  if (typeof rest.$ref === "string" && !refs.has(rest.$ref)) {
    const target = resolveRefAt(root, rest.$ref);
    if (target !== undefined) {
      const { $ref, ...siblings } = rest;
      // both apply (2020-12, 8.2.3.1): merged only where that means the same (issue 39), else an `allOf`
      const merged =
        Object.keys(siblings).length === 0
          ? target.schema
          : (conjoin(target.schema, siblings) ?? {
              ...target.schema,
              allOf: [...(Array.isArray(target.schema.allOf) ? target.schema.allOf : []), siblings],
            });
      collect(merged, target.at, root, new Set([...refs, $ref as string]), view);
      return;
    }
  }
  if (Array.isArray(rest.type) && rest.type.includes("null")) {
    view.nullable = true;
    view.nullAt ??= child(at, "type");
    const others = rest.type.filter((t) => t !== "null");
    if (others.length === 0) return;
    rest.type = others.length === 1 ? others[0] : others;
  }
  if (Array.isArray(rest.enum) && rest.enum.includes(null) && rest.enum.length > 1) {
    view.nullable = true;
    view.nullAt ??= child(at, "enum");
    rest.enum = rest.enum.filter((v) => v !== null);
  }
  if (isNullOnly(rest) || rest.const === null) {
    view.nullable = true;
    view.nullAt ??= at;
    return;
  }
  ({ rest, refs } = mergeAllOf(rest, root, refs));
  foldPatternProperties(rest);
  const keys = Object.keys(rest);
  if (keys.length === 1 && Array.isArray(rest.anyOf)) {
    rest.anyOf.forEach((branch, i) => collect(branch, child(at, "anyOf", String(i)), root, refs, view));
    return;
  }
  // `oneOf` whose branches share no type (`oneOf: [X, {type: "null"}]`) accepts what `anyOf` would
  if (keys.length === 1 && Array.isArray(rest.oneOf) && disjoint(rest.oneOf, root)) {
    rest.oneOf.forEach((branch, i) => collect(branch, child(at, "oneOf", String(i)), root, refs, view));
    return;
  }
  if (keys.length === 1 && Array.isArray(rest.oneOf) && collectOneOfCopies(rest.oneOf, at, root, refs, view)) return;
  // `allOf: [X]` is X; beside other keywords, `allOf: [{$ref}]` is that `$ref` with siblings
  if (Array.isArray(rest.allOf) && rest.allOf.length === 1) {
    const [only] = rest.allOf as unknown[];
    if (keys.length === 1) return collect(only, child(at, "allOf", "0"), root, refs, view);
    if (isSchemaObject(only) && Object.keys(only).length === 1 && typeof only.$ref === "string" && !("$ref" in rest)) {
      const { allOf: _allOf, ...siblings } = rest;
      return collect({ $ref: only.$ref, ...siblings }, at, root, refs, view);
    }
  }
  view.alternatives.push({ schema: rest, at, refs });
}

/**
 * Patterns every string matches (issue 29.3): empty, or `.*` anchored at most at one end, which
 * matches at least the empty string wherever it may start. Not `^.*$`: `.` stops at a line break,
 * so it rejects "a\nb" and is a real pattern.
 */
const MATCH_ALL_PATTERNS: ReadonlySet<string> = new Set([
  "",
  ".*",
  "^.*",
  ".*$",
  "[\\s\\S]*",
  "^[\\s\\S]*",
  "[\\s\\S]*$",
  "^[\\s\\S]*$",
]);

/** What can make an empty match depend on where it is: at the end (`$`), or next to text (`\b`, lookarounds). */
const AT_END = /\$|\\[bB]|\(\?<?[=!]/;
/** What can make an empty match depend on the start (`^`), or on text next to it (`\b`, lookarounds). */
const AT_START = /\^|\\[bB]|\(\?<?[=!]/;

/** `matchesEverything`'s compiled answers: each side of every pattern comparison asks (bounded: patterns are data). */
const MATCHES_EMPTY = new Map<string, boolean>();

/**
 * Whether `pattern` matches every string: one of the forms above, or a pattern that matches the
 * empty string without anything tying that match to the end (so it matches at the start of every
 * string: `^`, `\S*`, `(?:)`) or to the start (so it matches at the end: `$`). Run on the empty
 * string only (it cannot backtrack there), compiled as Ajv compiles it (`u` flag).
 */
export function matchesEverything(pattern: string): boolean {
  if (MATCH_ALL_PATTERNS.has(pattern)) return true;
  if (AT_END.test(pattern) && AT_START.test(pattern)) return false;
  let known = MATCHES_EMPTY.get(pattern);
  if (known === undefined) {
    try {
      known = new RegExp(pattern, "u").test("");
    } catch {
      known = false;
    }
    if (MATCHES_EMPTY.size < 4096) MATCHES_EMPTY.set(pattern, known);
  }
  return known;
}

/**
 * `patternProperties: {".*": X}` alone (no `properties`, no `additionalProperties`) is
 * `additionalProperties: X`: X applies to every property either way, so the two spellings are no
 * change. Beside `properties` it is not: a pattern also applies to the listed properties.
 */
function foldPatternProperties(rest: JsonSchemaObject): void {
  const patterns = rest.patternProperties;
  if (!isSchemaObject(patterns) || "properties" in rest || "additionalProperties" in rest) return;
  const keys = Object.keys(patterns);
  if (keys.length !== 1 || !matchesEverything(keys[0]!)) return;
  delete rest.patternProperties;
  defineOwn(rest, "additionalProperties", patterns[keys[0]!]);
}

/** What an `allOf` member may carry that constrains nothing (issue 29.4): dropped, not compared. */
const MEMBER_DOCS: ReadonlySet<string> = new Set(["title", "description", "examples", "$comment"]);

/**
 * Keywords whose meaning depends on others beside them (2020-12: `additionalProperties` on
 * `properties` and `patternProperties`, `items` on `prefixItems`, `then`/`else` on `if`,
 * `min`/`maxContains` on `contains`): two schemas that both write one of a group cannot be
 * merged into one object without changing what it accepts (issue 39).
 */
const ADJACENT_GROUPS: readonly (readonly string[])[] = [
  ["properties", "patternProperties", "additionalProperties"],
  ["prefixItems", "items"],
  ["if", "then", "else"],
  ["contains", "minContains", "maxContains"],
];

/**
 * One schema object that accepts what both `base` and `extra` accept, when it can be written
 * without changing either's meaning: each keyword written by one side only, or the same on both;
 * `required` lists joined; `properties` joined (a property both list: the `allOf` of both
 * schemas), when neither side restricts unlisted properties; `allOf` lists concatenated.
 * Undefined otherwise: the caller keeps them apart, compared as written.
 */
export function conjoin(base: JsonSchemaObject, extra: JsonSchemaObject): JsonSchemaObject | undefined {
  if ("unevaluatedProperties" in extra || "unevaluatedItems" in extra) return undefined;
  for (const group of ADJACENT_GROUPS) {
    const [inBase, inExtra] = [group.filter((k) => k in base), group.filter((k) => k in extra)];
    if (inBase.length === 0 || inExtra.length === 0) continue;
    const onlyProperties = inBase.length === 1 && inExtra.length === 1 && inBase[0] === "properties";
    if (!(onlyProperties && inExtra[0] === "properties")) return undefined;
  }
  const out: JsonSchemaObject = { ...base };
  for (const [k, v] of Object.entries(extra)) {
    if (!Object.hasOwn(out, k)) defineOwn(out, k, v);
    else if (canonical(out[k]) === canonical(v)) continue;
    else if (k === "required" && Array.isArray(out[k]) && Array.isArray(v))
      out[k] = [...new Set([...(out[k] as unknown[]), ...v])];
    else if (k === "allOf" && Array.isArray(out[k]) && Array.isArray(v)) out[k] = [...(out[k] as unknown[]), ...v];
    else if (k === "properties" && isSchemaObject(out[k]) && isSchemaObject(v)) {
      const props: JsonSchemaObject = { ...(out[k] as JsonSchemaObject) };
      for (const [name, schema] of Object.entries(v))
        defineOwn(props, name, Object.hasOwn(props, name) ? { allOf: [props[name], schema] } : schema);
      out[k] = props;
    } else return undefined;
  }
  return out;
}

/**
 * `allOf` members merged into the schema they constrain (issues 29.4, 39): a value must satisfy
 * each, so a member's keywords are the schema's own where `conjoin` can write them so (an added
 * `{maxLength: 5}` is a bound set, an added `{properties: {n: {type: integer}}}` is `n`'s type
 * narrowed), whether written inline or behind a `$ref` (followed once: its target's own
 * annotations are the definition's, not the schema's), and a member of titles, descriptions and
 * examples only is no change. Other members stay in `allOf` and are compared as written.
 */
function mergeAllOf(
  rest: JsonSchemaObject,
  root: SchemaRoot,
  refs: ReadonlySet<string>,
): { rest: JsonSchemaObject; refs: ReadonlySet<string> } {
  // `allOf: [X]` alone is X itself, annotations and all (below)
  if (!Array.isArray(rest.allOf) || (rest.allOf.length === 1 && Object.keys(rest).length === 1)) return { rest, refs };
  const members = rest.allOf as unknown[];
  let out: JsonSchemaObject = { ...rest };
  delete out.allOf;
  let followed = refs;
  const kept: unknown[] = [];
  for (const member of members) {
    let own: JsonSchemaObject | undefined;
    let ref: string | undefined;
    if (isSchemaObject(member) && typeof member.$ref === "string" && Object.keys(member).length === 1) {
      ref = member.$ref;
      const target = refs.has(ref) ? undefined : resolveRefAt(root, ref);
      if (target !== undefined)
        own = Object.fromEntries(
          Object.entries(target.schema).filter(([k]) => !ANNOTATION_KEYWORDS.has(k) && !STRUCTURAL_KEYWORDS.has(k)),
        );
    } else if (isSchemaObject(member) && !("$ref" in member) && !("$dynamicRef" in member)) {
      const entries = Object.entries(member).filter(([k]) => !MEMBER_DOCS.has(k));
      if (!entries.some(([k]) => ANNOTATION_KEYWORDS.has(k) || STRUCTURAL_KEYWORDS.has(k)))
        own = Object.fromEntries(entries);
    }
    const merged = own === undefined || "$ref" in own ? undefined : conjoin(out, own);
    if (merged === undefined) kept.push(member);
    else {
      out = merged;
      if (ref !== undefined) followed = new Set([...followed, ref]);
    }
  }
  if (kept.length > 0) out.allOf = Array.isArray(out.allOf) ? [...kept, ...(out.allOf as unknown[])] : kept;
  return kept.length === members.length ? { rest, refs } : { rest: out, refs: followed };
}

/**
 * A `oneOf` whose branches are disjoint but for copies of the same branch (issue 29.4: an
 * alternative added that duplicates one): a value of a copied branch matches two branches and is
 * rejected, every other value matches its one branch. Its alternatives are the branches written
 * once; the copied ones are `duplicated`. False (nothing collected) for any other `oneOf`.
 */
function collectOneOfCopies(
  branches: readonly unknown[],
  at: string,
  root: SchemaRoot,
  refs: ReadonlySet<string>,
  view: SchemaView,
): boolean {
  const texts = branches.map((b) => canonical(followBranch(b, root)));
  const copied = (i: number): boolean => texts.indexOf(texts[i]!) !== texts.lastIndexOf(texts[i]!);
  const distinct = branches.filter((_, i) => texts.indexOf(texts[i]!) === i);
  if (distinct.length === branches.length || !disjoint(distinct, root)) return false;
  branches.forEach((branch, i) => {
    if (!copied(i)) return collect(branch, child(at, "oneOf", String(i)), root, refs, view);
    if (texts.lastIndexOf(texts[i]!) !== i) return;
    // one copy viewed alone: its non-null alternatives are what the copies reject together
    const copy = viewSchema(branch, child(at, "oneOf", String(i)), root, refs);
    view.duplicated.push(...copy.alternatives);
  });
  return true;
}

/** A branch with its `$ref`s followed (schema/ref.ts, a few hops at most); a `true` target is `{}`, as `resolveRefAt` reads it. */
function followBranch(branch: unknown, root: SchemaRoot): unknown {
  const target = followRefs(root.schema, branch, 8);
  return target === branch || isSchemaObject(target) ? target : target === true ? {} : undefined;
}

/**
 * Whether no two branches accept the same value (each branch's types known, `$ref`s followed):
 * they share no type, or they are objects told apart by a tag (`taggedApart`).
 */
function disjoint(branches: readonly unknown[], root: SchemaRoot): boolean {
  const schemas: JsonSchemaObject[] = [];
  for (const branch of branches) {
    const schema = followBranch(branch, root);
    const types = isSchemaObject(schema) ? typesOf(schema) : undefined;
    if (types === undefined || types.length === 0) return false;
    schemas.push(schema as JsonSchemaObject);
  }
  return schemas.every((x, i) => schemas.slice(i + 1).every((y) => !shareType(x, y) || taggedApart(x, y)));
}

/** Whether two schemas accept values of a common JSON type (`number` accepts integers; unknown types: any). */
function shareType(x: JsonSchemaObject, y: JsonSchemaObject): boolean {
  const [tx, ty] = [typesOf(x), typesOf(y)];
  if (tx === undefined || ty === undefined) return true;
  return tx.some((t) => acceptsType(ty, t) || ty.some((u) => acceptsType([t], u)));
}

/** The properties an `if` checks: those it requires or describes under `properties` (issue 29.2). */
export function ifChecks(condition: unknown): string[] {
  if (!isSchemaObject(condition)) return [];
  const required = Array.isArray(condition.required) ? condition.required : [];
  const described = isSchemaObject(condition.properties) ? Object.keys(condition.properties) : [];
  return [...new Set([...required.filter((n): n is string => typeof n === "string"), ...described])];
}

/** The values a schema allows, when it lists them (`enum`, `const`). */
export const listed = (s: unknown): unknown[] | undefined => {
  if (!isSchemaObject(s)) return undefined;
  // both written: a value must be in the enum and equal the const (issue 39)
  if (Array.isArray(s.enum) && "const" in s) return s.enum.filter((v) => canonical(v) === canonical(s.const));
  return Array.isArray(s.enum) ? s.enum : "const" in s ? [s.const] : undefined;
};

/** The tags of an object-only schema: each required property whose values it lists inline, with those values. */
function tagsOf(s: JsonSchemaObject): Map<string, Set<string>> | undefined {
  if (canonical(typesOf(s)) !== '["object"]') return undefined;
  const props = isSchemaObject(s.properties) ? s.properties : {};
  const out = new Map<string, Set<string>>();
  for (const k of Array.isArray(s.required) ? s.required : []) {
    const values = typeof k === "string" && Object.hasOwn(props, k) ? listed(props[k]) : undefined;
    if (values !== undefined) out.set(k as string, new Set(values.map(canonical)));
  }
  return out;
}

/** Compares the tags two object-only schemas share: whether `test` holds for the value sets of one of them. */
function someTag(
  x: JsonSchemaObject,
  y: JsonSchemaObject,
  test: (vx: Set<string>, vy: Set<string>) => boolean,
): boolean {
  const [tx, ty] = [tagsOf(x), tagsOf(y)];
  if (tx === undefined || ty === undefined) return false;
  for (const [k, vx] of tx) {
    const vy = ty.get(k);
    if (vy !== undefined && test(vx, vy)) return true;
  }
  return false;
}

/**
 * Whether two object-only schemas never accept the same object: both require a property whose
 * listed values (`const`/`enum`, written inline) share none, the tag of a tagged union (how
 * OpenAPI's `discriminator` unions are written).
 */
export const taggedApart = (x: JsonSchemaObject, y: JsonSchemaObject): boolean =>
  someTag(x, y, (vx, vy) => ![...vx].some((v) => vy.has(v)));

/** Whether two members of tagged unions carry the same tag values (one member, on the two sides). */
export const sameTag = (x: JsonSchemaObject, y: JsonSchemaObject): boolean =>
  someTag(x, y, (vx, vy) => vx.size === vy.size && [...vx].every((v) => vy.has(v)));

/** JSON types an alternative accepts; undefined for any type. */
export function typesOf(schema: JsonSchemaObject): string[] | undefined {
  if (typeof schema.type === "string") return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((t): t is string => typeof t === "string");
  const values = listed(schema);
  if (values !== undefined) return [...new Set(values.map(jsonType))];
  return undefined;
}

export function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** Whether a set of types (undefined: any) accepts values of `type`; `number` accepts integers. */
export function acceptsType(types: readonly string[] | undefined, type: string): boolean {
  return types === undefined || types.includes(type) || (type === "integer" && types.includes("number"));
}

/**
 * A canonical JSON text (sorted keys): equal texts, equal values. Remembered per object, so the
 * nested schemas of a document are each written once however often they are compared (schemas
 * are never changed once loaded).
 */
export function canonical(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const known = CANONICAL.get(value);
  if (known !== undefined) return known;
  let text: string;
  if (Array.isArray(value)) text = `[${value.map((v) => canonical(v) ?? "null").join(",")}]`;
  else {
    const parts: string[] = [];
    for (const k of Object.keys(value).sort()) {
      const v = canonical((value as Record<string, unknown>)[k]);
      if (v !== undefined) parts.push(`${JSON.stringify(k)}:${v}`);
    }
    text = `{${parts.join(",")}}`;
  }
  CANONICAL.set(value, text);
  return text;
}
