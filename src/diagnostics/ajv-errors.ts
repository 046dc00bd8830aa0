/**
 * Schema violations: Ajv's error objects in, diagnostics out. `anyOf`/`oneOf` branches are
 * collapsed into one answer, duplicates dropped, and a message seen before is remembered.
 */
import {
  diagnostic,
  redacted,
  redactOnce,
  unworded,
  type Diagnostic,
  type Expected,
  type JsonValue,
  type Received,
} from "./diagnostic.js";
import { escapeToken, fieldLabel, pointerTokens, valueAt, valueAtTokens } from "./pointers.js";
import { otherForms, receivedOf, SCHEMA_MESSAGES, shownValue } from "./wording.js";

// #region runtime (copied into the generated support module: no imports in here)
/** The shape of an error object in Ajv's standalone output. */
export interface AjvError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
}

/**
 * Keywords whose message depends only on the schema location, the pointer and the (primitive)
 * value: their diagnostics are remembered, so a payload seen before costs a lookup.
 */
const MEMO_KEYWORDS = new Set([
  "required",
  "type",
  "enum",
  "const",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "format",
]);
/** A schema error's message as last worked out: valid while the params are the same. */
interface SeenMessage {
  params: Record<string, unknown>;
  pointer: string;
  message: string;
  expected: Expected;
  received: Received | undefined;
}
/**
 * schema path → pointer → value → the message (redacted). Ajv's standalone code names schema
 * paths with constant strings, and the value is the payload's own, so a lookup hashes little.
 * The schema path is the same in every endpoint's validator: the params tell them apart.
 */
const SEEN = new Map<string, Map<string, Map<unknown, SeenMessage>>>();
let seenCount = 0;

/** Whether a value is a memo key: a short primitive. */
function memoValue(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    typeof value === "number" ||
    typeof value === "boolean" ||
    (typeof value === "string" && value.length <= 256)
  );
}

/** Same params: primitives equal, an enum's array the same array, other forms the same list. */
function sameParams(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  let n = 0;
  for (const name in a) {
    n++;
    const x = a[name];
    const y = b[name];
    if (x === y) continue;
    if (name === "otherForms" && Array.isArray(x) && Array.isArray(y) && sameList(x, y)) continue;
    return false;
  }
  for (const _ in b) n--;
  return n === 0;
}

/** Two lists of other forms as the same text (`join(",")`), item by item first. */
function sameList(x: readonly unknown[], y: readonly unknown[]): boolean {
  if (x.length === y.length) {
    let same = true;
    for (let i = 0; i < x.length && same; i++) same = x[i] === y[i];
    if (same) return true;
  }
  return x.join(",") === y.join(",");
}

/** Params a remembered message may depend on: primitives and arrays only. */
function memoParams(params: Record<string, unknown>): boolean {
  for (const name in params) {
    const v = params[name];
    if (v !== null && typeof v === "object" && !Array.isArray(v)) return false;
    if (typeof v === "string" && v.length > 256) return false;
  }
  return true;
}

/** keyword → `schema/<keyword>`, the rule id of a schema violation (Ajv's keywords: a bounded set). */
const SCHEMA_RULES = new Map<string, string>();

/**
 * A schema violation's `expected`: the keyword and Ajv's params (spec 7.2: expected versus
 * received, as data). A field's own name is left out (the pointer ends in it); a field name
 * from the payload is shown like a received string; `type` is a list; strings are redacted.
 * Frozen: a remembered diagnostic hands the same object out again.
 */
function expectedOf(keyword: string, params: Record<string, unknown>): Expected {
  const out: { [param: string]: JsonValue } = { kind: keyword };
  for (const name in params) {
    const v = params[name];
    if (v === undefined || name === "additionalProperty" || name === "unevaluatedProperty") continue;
    if (name === "propertyName") out[name] = receivedOf(v) ?? null;
    else if (name === "type" && keyword === "type")
      out[name] = Object.freeze(Array.isArray(v) ? v.map(String) : String(v).split(","));
    else if (typeof v === "string") out[name] = redactOnce(v);
    else if (Array.isArray(v)) out[name] = Object.freeze(v.map((x) => (typeof x === "string" ? redactOnce(x) : x)));
    else if (typeof v !== "object" || v === null) out[name] = v as JsonValue;
  }
  return Object.freeze(out) as Expected;
}

/**
 * Per schema path, the last remembered error there and the tokens of its pointer: a log repeats
 * the same mistake at the same place, and then the pointer Ajv built afresh is compared, not
 * hashed, and the value is read without splitting it again. One entry per schema path (bounded
 * by the generated code).
 */
interface LastAt {
  keyword: string;
  instancePath: string;
  tokens: ReadonlyArray<string | number>;
  value: unknown;
  seen: SeenMessage;
  /** `schema/<keyword>` */
  rule: string;
}
const LAST = new Map<string, LastAt>();

function schemaDiagnostic(error: AjvError, input: unknown): Diagnostic {
  const p = error.params;
  const last = LAST.get(error.schemaPath);
  if (last !== undefined && last.keyword === error.keyword && last.instancePath === error.instancePath) {
    const seen = last.seen;
    if (valueAtTokens(input, last.tokens) === last.value && sameParams(seen.params, p))
      return redacted("error", seen.pointer, last.rule, seen.message, seen.expected, seen.received);
  }
  const pointer = errorPointer(error);
  const value = valueAt(input, pointer);
  let rule = SCHEMA_RULES.get(error.keyword);
  if (rule === undefined) SCHEMA_RULES.set(error.keyword, (rule = `schema/${error.keyword}`));
  const memo = MEMO_KEYWORDS.has(error.keyword) && pointer.length <= 256 && memoValue(value) && memoParams(p);
  const byValue = memo ? SEEN.get(error.schemaPath)?.get(pointer) : undefined;
  const seen = byValue?.get(value);
  if (seen !== undefined && sameParams(seen.params, p)) {
    rememberLast(error, pointer, value, seen, rule);
    return redacted("error", seen.pointer, rule, seen.message, seen.expected, seen.received);
  }
  // a field whose name says secret (`api_key`, `token`) never has its value shown (issue S1)
  const shown = shownValue(pointer, value);
  const wording = SCHEMA_MESSAGES[error.keyword];
  let text = wording ? wording(p, shown) : `fails the "${error.keyword}" constraint`;
  if (Array.isArray(p.otherForms)) text += ` (or ${otherForms(p.otherForms as string[])})`;
  const d = diagnostic(
    "error",
    pointer,
    rule,
    `${fieldLabel(pointer)}: ${text}`,
    expectedOf(error.keyword, p),
    receivedOf(shown),
  );
  if (memo) {
    if (seenCount >= 4096) {
      SEEN.clear();
      seenCount = 0;
    }
    let byPointer = SEEN.get(error.schemaPath);
    if (byPointer === undefined) SEEN.set(error.schemaPath, (byPointer = new Map()));
    let values = byPointer.get(pointer);
    if (values === undefined) byPointer.set(pointer, (values = new Map()));
    if (!values.has(value)) seenCount++;
    const remembered: SeenMessage = {
      params: p,
      pointer: d.pointer,
      message: d.message,
      expected: d.expected!,
      received: d.received,
    };
    values.set(value, remembered);
    rememberLast(error, pointer, value, remembered, rule);
  }
  return d;
}

/** The field an Ajv error is about: its instance path, and for a missing or extra property that property. */
function errorPointer(error: AjvError): string {
  const p = error.params;
  let pointer = error.instancePath;
  if (error.keyword === "required" || error.keyword === "dependentRequired")
    pointer += "/" + escapeToken(String(p.missingProperty));
  else if (
    (error.keyword === "additionalProperties" || error.keyword === "unevaluatedProperties") &&
    typeof p.additionalProperty === "string"
  )
    pointer += "/" + escapeToken(p.additionalProperty);
  else if (error.keyword === "unevaluatedProperties" && typeof p.unevaluatedProperty === "string")
    pointer += "/" + escapeToken(p.unevaluatedProperty);
  return pointer;
}

/**
 * What makes two schema errors one finding without wording them: the field, the keyword and
 * its params (the message is made of nothing else, the value being the field's).
 */
function errorKey(pointer: string, error: AjvError): string {
  let key = pointer + "\u0000" + error.keyword;
  const p = error.params;
  for (const name in p) {
    const v = p[name];
    key += "\u0000" + name + "=" + (typeof v === "object" && v !== null ? JSON.stringify(v) : String(v));
  }
  return key;
}

/** errorKey of the `j`th error (a function, not a closure made on every call). */
function keyAt(all: readonly AjvError[], j: number): string {
  return errorKey(errorPointer(all[j]!), all[j]!);
}

function rememberLast(error: AjvError, pointer: string, value: unknown, seen: SeenMessage, rule: string): void {
  const tokens = pointer === "" ? [] : pointerTokens(pointer);
  LAST.set(error.schemaPath, { keyword: error.keyword, instancePath: error.instancePath, tokens, value, seen, rule });
}

/**
 * `s` naming the other forms its field accepts: its params (in their order) and `otherForms`.
 * Written out, not spread: two object spreads were a third of checking a payload with an anyOf
 * error (and the params they made were slow to walk again).
 */
function withOtherForms(s: AjvError, otherForms: string[]): AjvError {
  const params: Record<string, unknown> = Object.assign({}, s.params);
  params.otherForms = otherForms;
  return { instancePath: s.instancePath, schemaPath: s.schemaPath, keyword: s.keyword, params };
}

/** Whether `path` is below `base` (`base/…`), without making the prefix string. */
function below(path: string, base: string): boolean {
  return path.length > base.length && path.charCodeAt(base.length) === 47 && begins(path, base);
}

/**
 * `text.startsWith(start)`, the same answer in a third of the time on Node 20 (`startsWith` cost
 * ~85 ns a call, a tenth of checking a payload with three failed anyOfs: issue 40).
 */
function begins(text: string, start: string): boolean {
  return text === start || text.lastIndexOf(start, 0) === 0;
}

/**
 * Ajv reports every branch of a failed `anyOf`. A person wants one answer: the branch whose type
 * matched (e.g. `duration: 40 is above the maximum 30` rather than "must be null"), or, when no
 * branch's type matched, a single "expected integer or null" message.
 */
function collapseAnyOf(errors: readonly AjvError[]): readonly AjvError[] {
  let any = false;
  for (let k = 0; k < errors.length && !any; k++)
    any = errors[k]!.keyword === "anyOf" || errors[k]!.keyword === "oneOf";
  if (!any) return errors;
  // by the error's index (each of Ajv's errors is its own object): dropped, or replaced by one
  // naming the other forms; arrays, not a Set and Maps keyed by the errors (fewer allocations;
  // the prefix tests below were the larger cost: `begins`)
  const drop: boolean[] = [];
  const replaced: Array<AjvError | undefined> = [];
  const added: AjvError[] = [];
  for (let k = 0; k < errors.length; k++) {
    const e = errors[k]!;
    if (e.keyword !== "anyOf" && e.keyword !== "oneOf") continue;
    const prefixLength = e.schemaPath.length + 1; // `…/anyOf/`
    // Ajv (allErrors) reports a failed anyOf's branch errors as the run just before it: walking
    // back over that run keeps this linear in the number of errors
    let first = k;
    while (
      first > 0 &&
      below(errors[first - 1]!.schemaPath, e.schemaPath) &&
      begins(errors[first - 1]!.instancePath, e.instancePath)
    )
      first--;
    if (first === k) continue;
    // the run by branch (`…/anyOf/<index>/…`), in order of first appearance: its errors' indexes,
    // and whether it "failed on its type" (one of its errors is that branch's own `type` keyword
    // at the anyOf's own field)
    const branches = new Branches();
    for (let j = first; j < k; j++) {
      const sub = errors[j]!;
      const path = sub.schemaPath;
      const slash = path.indexOf("/", prefixLength);
      const b = branches.of(slash === -1 ? path.slice(prefixLength) : path.slice(prefixLength, slash));
      branches.members[b]!.push(j);
      if (
        branches.types[b] === undefined &&
        sub.keyword === "type" &&
        sub.instancePath === e.instancePath &&
        slash !== -1 &&
        path.length === slash + 5 &&
        path.endsWith("/type")
      )
        branches.types[b] = sub;
    }
    let best: number[] | undefined;
    const others: string[] = []; // the types of the forms whose type did not match, in order
    for (let b = 0; b < branches.members.length; b++) {
      const members = branches.members[b]!;
      for (const j of members) drop[j] = true;
      if (branches.types[b] === undefined) {
        if (best === undefined || members.length < best.length) best = members;
      } else for (const j of members) if (errors[j]!.keyword === "type") others.push(String(errors[j]!.params.type));
    }
    drop[k] = true;
    if (best !== undefined) {
      // the forms whose type did not match are still allowed: say so on the field's own errors
      const distinct = distinctInOrder(others);
      for (const j of best) {
        drop[j] = false;
        const s = errors[j]!;
        if (s.instancePath !== e.instancePath) continue;
        // (a branch that failed on its type may still restrict values, e.g. only "auto": name
        // such a form only after an enum/const miss, where "or an integer" is the useful hint)
        const named = s.keyword === "enum" || s.keyword === "const" ? distinct : distinct.filter((t) => t === "null");
        if (named.length > 0) replaced[j] = withOtherForms(s, named);
      }
    } else {
      added.push({
        instancePath: e.instancePath,
        schemaPath: e.schemaPath,
        keyword: "type",
        params: { type: distinctInOrder(others).join(",") },
      });
    }
  }
  const out: AjvError[] = [];
  for (let j = 0; j < errors.length; j++) if (drop[j] !== true) out.push(replaced[j] ?? errors[j]!);
  for (const e of added) out.push(e);
  return out;
}

/** A failed anyOf's branches by their index in the schema path, in order of first appearance. */
class Branches {
  readonly keys: string[] = [];
  readonly members: number[][] = [];
  readonly types: Array<AjvError | undefined> = [];
  /** past a few branches, a Map (a schema may have thousands) */
  private byKey: Map<string, number> | undefined;

  /** The branch's number, added when new. */
  of(key: string): number {
    let b = this.byKey === undefined ? this.keys.indexOf(key) : (this.byKey.get(key) ?? -1);
    if (b !== -1) return b;
    b = this.keys.length;
    this.keys.push(key);
    this.members.push([]);
    this.types.push(undefined);
    if (this.byKey !== undefined) this.byKey.set(key, b);
    else if (this.keys.length > 8) this.byKey = new Map(this.keys.map((k, i) => [k, i]));
    return b;
  }
}

/** `[...new Set(list)]` without the Set while the list is short. */
function distinctInOrder(list: readonly string[]): string[] {
  if (list.length > 16) return [...new Set(list)];
  const out: string[] = [];
  for (const x of list) if (!out.includes(x)) out.push(x);
  return out;
}

/**
 * Turns Ajv's errors into diagnostics, one per field and problem, in document order. Past the
 * first `max`, an error is not worded: its field goes to `omitted` once per distinct problem
 * (the caller counts them, and its rules skip those fields), so a payload with a million bad
 * items costs a pointer and a key each, not a message.
 */
export function diagnosticsFromAjv(
  errors: readonly AjvError[] | null | undefined,
  input: unknown,
  max = Infinity,
  omitted?: string[],
  /** false: counted, not worded (`FindingLimit.words`); duplicates are still told apart by their words */
  words = true,
): Diagnostic[] {
  if (!errors || errors.length === 0) return [];
  const out: Diagnostic[] = [];
  // unworded: the error of each finding kept, whose words tell duplicates at one pointer apart
  const kept: AjvError[] | undefined = words ? undefined : [];
  // duplicates (the same pointer and message) are dropped: by a scan while the list is short,
  // by a set of keys beyond (a payload with thousands of errors stays linear)
  let seen: Set<string> | undefined;
  // past `max`: one schema location's errors are distinct fields (Ajv visits a field once per
  // location), so they are counted as they come, unless one's field is a kept one's; from a
  // second location on, every problem is told apart by its key (errorKey)
  let firstPath: string | undefined;
  let firstPast = 0;
  let keptPointers: Set<string> | undefined;
  let keys: Set<string> | undefined;
  const all = collapseAnyOf(errors);
  for (let i = 0; i < all.length; i++) {
    const error = all[i]!;
    if (out.length >= max && omitted !== undefined) {
      const pointer = errorPointer(error);
      if (firstPath === undefined) {
        firstPath = error.schemaPath;
        firstPast = i;
        keptPointers = new Set(out.map((d) => d.pointer));
      }
      if (keys === undefined && error.schemaPath !== firstPath) {
        keys = new Set();
        for (let j = 0; j < i; j++) keys.add(keyAt(all, j));
      }
      if (keys !== undefined) {
        const key = errorKey(pointer, error);
        if (keys.has(key)) continue;
        keys.add(key);
      } else if (keptPointers!.has(pointer)) {
        const key = errorKey(pointer, error);
        let again = false;
        for (let j = 0; j < firstPast && !again; j++) again = keyAt(all, j) === key;
        if (again) continue;
      }
      omitted.push(pointer);
      continue;
    }
    if (kept !== undefined) {
      const d = unwordedSchemaDiagnostic(error);
      if (seen === undefined && out.length < 32) {
        let again = false;
        for (let i = 0; i < out.length && !again; i++)
          again =
            out[i]!.pointer === d.pointer &&
            schemaDiagnostic(kept[i]!, input).message === schemaDiagnostic(error, input).message;
        if (!again) (out.push(d), kept.push(error));
        continue;
      }
      if (seen === undefined)
        seen = new Set(out.map((o, i) => `${o.pointer}\u0000${schemaDiagnostic(kept[i]!, input).message}`));
      const key = `${d.pointer}\u0000${schemaDiagnostic(error, input).message}`;
      if (!seen.has(key)) {
        seen.add(key);
        out.push(d);
        kept.push(error);
      }
      continue;
    }
    const d = schemaDiagnostic(error, input);
    if (seen === undefined && out.length < 32) {
      let again = false;
      for (let i = 0; i < out.length && !again; i++)
        again = out[i]!.pointer === d.pointer && out[i]!.message === d.message;
      if (!again) out.push(d);
      continue;
    }
    if (seen === undefined) seen = new Set(out.map((o) => `${o.pointer}\u0000${o.message}`));
    const key = `${d.pointer}\u0000${d.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(d);
    }
  }
  return out;
}

/** A schema error counted, not worded (`FindingLimit.words === false`): its field and `schema/<keyword>`. */
function unwordedSchemaDiagnostic(error: AjvError): Diagnostic {
  let rule = SCHEMA_RULES.get(error.keyword);
  if (rule === undefined) SCHEMA_RULES.set(error.keyword, (rule = `schema/${error.keyword}`));
  return unworded("error", errorPointer(error), rule);
}
// #endregion runtime
