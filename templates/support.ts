/**
 * Run-time support for generated validators and builders: diagnostics, the wording of schema
 * violations, and the helpers Ajv's standalone code calls. The package build (scripts/embed.mjs)
 * appends the check face of every rule kind (src/rules/*.ts) to this file's source, and
 * `vsk generate` writes the result into the generated directory as `support.mts`, so generated
 * code depends on nothing but itself. vsk's own linter and drift stages import it as it is.
 */

// URL redaction is the runtime's (spec 7.2, input_fetch_failed rule 3): `vsk generate` copies
// that module beside support.mts as redact.mts, so generated code still depends on nothing else.
import { redactUrl, redactUrlsInText } from "../src/runtime/redact.js";
export { redactUrl, redactUrlsInText };

// ---------------------------------------------------------------------------------------------
// Diagnostics (the service's own vocabulary for its validation failure, spec 7.2)

export type Severity = "error" | "warning";

/** One finding about one field of a request payload. */
export interface Diagnostic {
  severity: Severity;
  /** JSON Pointer to the offending field; a missing required field points at the field itself */
  pointer: string;
  /** `schema/<keyword>` for a schema violation, the rule id for a cross-field rule */
  rule: string;
  /** spec 7.1: the code the service would fail the prediction with */
  code: "invalid_input";
  /** spec 7.2: the reason the service would give */
  reason: "input_validation_failed";
  /** spec 7.2: submitting the identical request again cannot succeed */
  retryable: false;
  /** names the field and says expected versus received; never a URL's query string */
  message: string;
}

/** Marks every RequestValidationError, whichever copy of this module made it. */
const VALIDATION_ERROR = Symbol.for("video-schema-kit.RequestValidationError");

/**
 * Thrown by `build…()` and by the queue client's `submit` when the payload would be rejected;
 * carries every diagnostic. `instanceof` holds across the copies of this class (the generated
 * support module, `video-schema-kit/models`, `video-schema-kit/client`): one error, whichever a
 * caller imported.
 */
export class RequestValidationError extends Error {
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && VALIDATION_ERROR in value;
  }
  readonly code = "invalid_input";
  readonly reason = "input_validation_failed";
  readonly retryable = false;
  constructor(
    readonly endpoint: string,
    readonly diagnostics: readonly Diagnostic[],
  ) {
    const errors = diagnostics.filter((d) => d.severity === "error");
    super(
      `${endpoint}: ${errors.length} invalid field${errors.length === 1 ? "" : "s"}: ${errors.map((d) => d.message).join("; ")}`,
    );
    this.name = "RequestValidationError";
    Object.defineProperty(this, VALIDATION_ERROR, { value: true });
  }
}

export type BuildResult<TBody> =
  | { ok: true; request: { method: "POST"; path: string; body: TBody }; warnings: Diagnostic[] }
  | { ok: false; error: RequestValidationError };

/** A diagnostic in the service's vocabulary (spec 7.2); pointer and message lose any URL query string. */
export function diagnostic(severity: Severity, pointer: string, rule: string, message: string): Diagnostic {
  // a field named like a signed URL must not carry its query string into any output either
  return redacted(severity, redactOnce(pointer), rule, redactOnce(message));
}

/** A diagnostic whose pointer and message are already redacted. */
function redacted(severity: Severity, pointer: string, rule: string, message: string): Diagnostic {
  return {
    severity,
    pointer,
    rule,
    code: "invalid_input",
    reason: "input_validation_failed",
    retryable: false,
    message,
  };
}

/** Texts already redacted: the same messages come back payload after payload (bounded). */
const REDACTED = new Map<string, string>();

/** `redactUrlsInText`, remembered for texts up to 1024 characters. */
function redactOnce(text: string): string {
  let out = REDACTED.get(text);
  if (out === undefined) {
    out = redactUrlsInText(text);
    if (text.length <= 1024) {
      if (REDACTED.size >= 4096) REDACTED.clear();
      REDACTED.set(text, out);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Pointers, values, URLs

function unescapeToken(t: string): string {
  return t.includes("~") ? t.replace(/~1/g, "/").replace(/~0/g, "~") : t;
}

export function escapeToken(t: string): string {
  if (!t.includes("~") && !t.includes("/")) return t;
  return t.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** `/keyframes/1/frame_index` → `keyframes[1].frame_index`; the root is `(request body)`. */
export function fieldLabel(pointer: string): string {
  let label = LABELS.get(pointer);
  if (label === undefined) {
    label = labelOf(pointer);
    if (LABELS.size >= 4096) LABELS.clear();
    if (pointer.length <= 256) LABELS.set(pointer, label);
  }
  return label;
}

/** Labels already worked out: the same pointers come back payload after payload. */
const LABELS = new Map<string, string>();

function labelOf(pointer: string): string {
  if (pointer === "") return "(request body)";
  let label = "";
  for (const raw of pointer.slice(1).split("/")) {
    let token = unescapeToken(raw);
    // a field name can be anything, a megabyte or a signed URL: show its start, redacted
    if (token.length > 60)
      token = `${redactUrlsInText(token.slice(0, 4096)).slice(0, 40)}… (${token.length} characters)`;
    if (/^(0|[1-9][0-9]*)$/.test(token)) label += `[${token}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(token)) label += label === "" ? token : `.${token}`;
    else label += `[${JSON.stringify(token)}]`;
  }
  return label;
}

/** The value at a JSON Pointer, or undefined; own properties only. */
export function valueAt(root: unknown, pointer: string): unknown {
  if (pointer === "") return root;
  let current: unknown = root;
  for (const token of tokensOf(pointer)) {
    if (typeof current !== "object" || current === null) return undefined;
    if (typeof token === "number" && Array.isArray(current)) {
      if (token >= current.length) return undefined;
      current = current[token];
      continue;
    }
    if (!Object.prototype.hasOwnProperty.call(current, token)) return undefined;
    current = (current as Record<string, unknown>)[token];
  }
  return current;
}

/** A pointer's tokens already split: the same pointers come back payload after payload. */
const TOKENS = new Map<string, ReadonlyArray<string | number>>();

/** `/keyframes/1/frame_index` → `["keyframes", 1, "frame_index"]` (canonical array indexes as numbers). */
function tokensOf(pointer: string): ReadonlyArray<string | number> {
  let tokens = TOKENS.get(pointer);
  if (tokens === undefined) {
    tokens = pointer
      .slice(1)
      .split("/")
      .map((raw) => (/^(0|[1-9][0-9]{0,8})$/.test(raw) ? Number(raw) : unescapeToken(raw)));
    if (pointer.length <= 256) {
      if (TOKENS.size >= 4096) TOKENS.clear();
      TOKENS.set(pointer, tokens);
    }
  }
  return tokens;
}

/** The items of the array at a JSON Pointer, or none. */
export function itemsAt(input: Record<string, unknown>, pointer: string): unknown[] {
  const items = valueAt(input, pointer);
  return Array.isArray(items) ? items : [];
}

/** A short, safe rendering of a received value for a message. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (typeof value === "string") {
    // A value that is one URL loses everything from its first "?" or "#", whatever characters
    // the query holds; any other text has the URLs inside it redacted. Then it is shortened.
    const head = value.length > 4096 ? value.slice(0, 4096) : value;
    const safe = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(head) ? redactUrl(head) : redactUrlsInText(head);
    const shown = safe.length > 60 ? `${safe.slice(0, 57)}…` : safe;
    return `${JSON.stringify(shown)}${value.length > 60 ? ` (${value.length} characters)` : ""}`;
  }
  if (Array.isArray(value)) return `an array of ${value.length} item${value.length === 1 ? "" : "s"}`;
  if (value === null) return "null";
  if (typeof value === "object") return "an object";
  return String(value);
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** `string "auto"`, `integer 5`, `null`, `an array`: the received value with its JSON type. */
function received(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null || Array.isArray(value) || typeof value === "object")
    return value === null ? "null" : describeValue(value).replace(/ of \d+ items?$/, "");
  return `${typeName(value)} ${describeValue(value)}`;
}

function listValues(values: readonly unknown[]): string {
  return values.map((v) => JSON.stringify(v)).join(", ");
}

/** `integer` → `an integer`, `null` → `null`: the other forms a field also accepts. */
function otherForms(types: readonly string[]): string {
  return types.map((t) => (t === "null" ? "null" : `${/^[aeiou]/.test(t) ? "an" : "a"} ${t}`)).join(" or ");
}

function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j]!;
      prev[j] = Math.min(up + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length]!;
}

/** Answers of `closest` already worked out, per candidate list (rules' and schemas' lists are constants). */
const CLOSEST = new WeakMap<readonly string[], Map<string, string | null>>();

/**
 * The closest candidate to `word` (case-insensitive, or within a third of its length), if any;
 * remembered per (word, candidate list), so pass the same list (not a copy) each time.
 */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  let memo = CLOSEST.get(candidates);
  if (memo === undefined) CLOSEST.set(candidates, (memo = new Map()));
  const known = memo.get(word);
  if (known !== undefined) return known ?? undefined;
  const found = closestOf(word, candidates);
  if (word.length <= 256) {
    if (memo.size >= 1024) memo.clear();
    memo.set(word, found ?? null);
  }
  return found;
}

function closestOf(word: string, candidates: readonly string[]): string | undefined {
  // far longer than every candidate: no near miss, and the edit distance would cost O(n·m)
  if (word.length > 2 * Math.max(0, ...candidates.map((c) => c.length)) + 8) return undefined;
  const lower = word.toLowerCase();
  let best: string | undefined;
  let bestScore = Infinity;
  for (const c of candidates) {
    if (c.toLowerCase() === lower) return c;
    const score = editDistance(lower, c.toLowerCase());
    const shared = lower.split(/[_-]/).some((part) => part.length > 2 && c.toLowerCase().split(/[_-]/).includes(part));
    const limit = Math.max(1, Math.floor(Math.max(word.length, c.length) / 3));
    if ((score <= limit || shared) && score < bestScore) {
      best = c;
      bestScore = score;
    }
  }
  return best;
}

// ---------------------------------------------------------------------------------------------
// Schema violations: Ajv's error objects in, diagnostics out (one wording, in one place)

/** The shape of an error object in Ajv's standalone output. */
export interface AjvError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
}

const plural = (n: unknown, one: string): string => `${String(n)} ${one}${n === 1 ? "" : "s"}`;

/** keyword → message after the field label; `v` is the received value. */
const SCHEMA_MESSAGES: Record<string, (p: Record<string, unknown>, v: unknown) => string> = {
  required: () => "is required but missing",
  type: (p, v) => `expected ${String(p.type).replace(/,/g, " or ")}, received ${received(v)}`,
  enum: (p, v) => {
    const allowed = enumOf((p.allowedValues as unknown[]) ?? []);
    const hint = typeof v === "string" ? closest(v, allowed.strings) : undefined;
    return `${describeValue(v)} is not one of ${allowed.list}${hint !== undefined ? `; did you mean "${hint}"?` : ""}`;
  },
  const: (p, v) => `expected ${JSON.stringify(p.allowedValue)}, received ${describeValue(v)}`,
  minimum: (p, v) => `${describeValue(v)} is below the minimum ${String(p.limit)}`,
  maximum: (p, v) => `${describeValue(v)} is above the maximum ${String(p.limit)}`,
  exclusiveMinimum: (p, v) => `${describeValue(v)} must be greater than ${String(p.limit)}`,
  exclusiveMaximum: (p, v) => `${describeValue(v)} must be less than ${String(p.limit)}`,
  multipleOf: (p, v) => `${describeValue(v)} is not a multiple of ${String(p.multipleOf)}`,
  minLength: (p, v) =>
    `expected at least ${plural(p.limit, "character")}, received ${typeof v === "string" ? v.length : 0}`,
  maxLength: (p, v) =>
    `expected at most ${plural(p.limit, "character")}, received ${typeof v === "string" ? v.length : 0}`,
  pattern: (p, v) => `${describeValue(v)} does not match the pattern ${String(p.pattern)}`,
  format: (p, v) => `${describeValue(v)} is not a valid ${String(p.format)}`,
  minItems: (p, v) => `expected at least ${plural(p.limit, "item")}, received ${Array.isArray(v) ? v.length : 0}`,
  maxItems: (p, v) => `expected at most ${plural(p.limit, "item")}, received ${Array.isArray(v) ? v.length : 0}`,
  uniqueItems: (p) => `items ${String(p.j)} and ${String(p.i)} are identical; items must be unique`,
  minProperties: (p) => `expected at least ${plural(p.limit, "field")}`,
  maxProperties: (p) => `expected at most ${plural(p.limit, "field")}`,
  additionalProperties: () => "is not a field of this request",
  unevaluatedProperties: () => "is not a field of this request",
  propertyNames: (p) => `field name ${describeValue(p.propertyName)} is not allowed`,
  dependentRequired: (p) => `requires ${String(p.missingProperty)} when ${String(p.property)} is set`,
  oneOf: () => "matches none or more than one of the allowed forms",
  anyOf: () => "matches none of the allowed forms",
  not: () => "is a value that is not allowed here",
  contains: () => "contains no item of the required kind",
  if: (p) => `does not satisfy the "${String(p.failingKeyword)}" condition`,
  false: () => "is not allowed",
};

/** An enum's string values and its listing, worked out once per schema array. */
const ENUMS = new WeakMap<readonly unknown[], { strings: string[]; list: string }>();

function enumOf(allowed: readonly unknown[]): { strings: string[]; list: string } {
  let known = ENUMS.get(allowed);
  if (known === undefined) {
    known = { strings: allowed.filter((a): a is string => typeof a === "string"), list: listValues(allowed) };
    ENUMS.set(allowed, known);
  }
  return known;
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
    if (name === "otherForms" && Array.isArray(x) && Array.isArray(y) && x.join(",") === y.join(",")) continue;
    return false;
  }
  for (const _ in b) n--;
  return n === 0;
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

function schemaDiagnostic(error: AjvError, input: unknown): Diagnostic {
  let pointer = error.instancePath;
  const p = error.params;
  if (error.keyword === "required" || error.keyword === "dependentRequired")
    pointer += "/" + escapeToken(String(p.missingProperty));
  else if (
    (error.keyword === "additionalProperties" || error.keyword === "unevaluatedProperties") &&
    typeof p.additionalProperty === "string"
  )
    pointer += "/" + escapeToken(p.additionalProperty);
  else if (error.keyword === "unevaluatedProperties" && typeof p.unevaluatedProperty === "string")
    pointer += "/" + escapeToken(p.unevaluatedProperty);
  const value = valueAt(input, pointer);
  const rule = `schema/${error.keyword}`;
  const memo = MEMO_KEYWORDS.has(error.keyword) && pointer.length <= 256 && memoValue(value) && memoParams(p);
  const byValue = memo ? SEEN.get(error.schemaPath)?.get(pointer) : undefined;
  const seen = byValue?.get(value);
  if (seen !== undefined && sameParams(seen.params, p)) return redacted("error", seen.pointer, rule, seen.message);
  const wording = SCHEMA_MESSAGES[error.keyword];
  let text = wording ? wording(p, value) : `fails the "${error.keyword}" constraint`;
  if (Array.isArray(p.otherForms)) text += ` (or ${otherForms(p.otherForms as string[])})`;
  const d = diagnostic("error", pointer, rule, `${fieldLabel(pointer)}: ${text}`);
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
    values.set(value, { params: p, pointer: d.pointer, message: d.message });
  }
  return d;
}

/**
 * Ajv reports every branch of a failed `anyOf`. A person wants one answer: the branch whose type
 * matched (e.g. `duration: 40 is above the maximum 30` rather than "must be null"), or, when no
 * branch's type matched, a single "expected integer or null" message.
 */
function collapseAnyOf(errors: readonly AjvError[]): readonly AjvError[] {
  if (!errors.some((e) => e.keyword === "anyOf" || e.keyword === "oneOf")) return errors;
  const drop = new Set<AjvError>();
  const added: AjvError[] = [];
  const replaced = new Map<AjvError, AjvError>();
  for (let k = 0; k < errors.length; k++) {
    const e = errors[k]!;
    if (e.keyword !== "anyOf" && e.keyword !== "oneOf") continue;
    const prefix = e.schemaPath + "/";
    // Ajv (allErrors) reports a failed anyOf's branch errors as the run just before it: walking
    // back over that run keeps this linear in the number of errors
    let first = k;
    while (
      first > 0 &&
      errors[first - 1]!.schemaPath.startsWith(prefix) &&
      errors[first - 1]!.instancePath.startsWith(e.instancePath)
    )
      first--;
    const branches = new Map<string, AjvError[]>();
    for (let j = first; j < k; j++) {
      const sub = errors[j]!;
      const index = sub.schemaPath.slice(prefix.length).split("/")[0]!;
      const list = branches.get(index);
      if (list) list.push(sub);
      else branches.set(index, [sub]);
    }
    if (branches.size === 0) continue;
    const typeOnly = (list: AjvError[]) =>
      list.some(
        (s) =>
          s.keyword === "type" &&
          s.instancePath === e.instancePath &&
          s.schemaPath === `${prefix}${s.schemaPath.slice(prefix.length).split("/")[0]}/type`,
      );
    const matched = [...branches.values()].filter((list) => !typeOnly(list));
    for (const list of branches.values()) for (const s of list) drop.add(s);
    drop.add(e);
    if (matched.length > 0) {
      const best = matched.reduce((a, b) => (b.length < a.length ? b : a));
      // the forms whose type did not match are still allowed: say so on the field's own errors
      const others = [...branches.values()]
        .filter(typeOnly)
        .flatMap((list) => list.filter((s) => s.keyword === "type").map((s) => String(s.params.type)));
      for (const s of best) {
        drop.delete(s);
        // (a branch that failed on its type may still restrict values, e.g. only "auto": name
        // such a form only after an enum/const miss, where "or an integer" is the useful hint)
        const named = [...new Set(others)].filter((t) => t === "null" || s.keyword === "enum" || s.keyword === "const");
        if (named.length > 0 && s.instancePath === e.instancePath)
          replaced.set(s, { ...s, params: { ...s.params, otherForms: named } });
      }
    } else {
      const types = [...branches.values()].flatMap((list) =>
        list.filter((s) => s.keyword === "type").map((s) => String(s.params.type)),
      );
      added.push({
        instancePath: e.instancePath,
        schemaPath: e.schemaPath,
        keyword: "type",
        params: { type: [...new Set(types)].join(",") },
      });
    }
  }
  return [...errors.filter((e) => !drop.has(e)).map((e) => replaced.get(e) ?? e), ...added];
}

/** Turns Ajv's errors into diagnostics, one per field and problem, in document order. */
export function diagnosticsFromAjv(errors: readonly AjvError[] | null | undefined, input: unknown): Diagnostic[] {
  if (!errors || errors.length === 0) return [];
  const out: Diagnostic[] = [];
  // duplicates (the same pointer and message) are dropped: by a scan while the list is short,
  // by a set of keys beyond (a payload with thousands of errors stays linear)
  let seen: Set<string> | undefined;
  for (const error of collapseAnyOf(errors)) {
    const d = schemaDiagnostic(error, input);
    if (seen === undefined && out.length < 32) {
      if (!out.some((o) => o.pointer === d.pointer && o.message === d.message)) out.push(d);
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

// ---------------------------------------------------------------------------------------------
// Helpers Ajv's standalone code calls (in place of its `require`s of ajv/dist/runtime/*)

const SURROGATE = /[\uD800-\uDFFF]/;

/** Length of a string in Unicode code points, as JSON Schema counts it. */
export function ucs2length(str: string): number {
  if (!SURROGATE.test(str)) return str.length;
  let length = 0;
  for (let i = 0; i < str.length; i++) {
    length++;
    const code = str.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < str.length) {
      const next = str.charCodeAt(i + 1);
      if ((next & 0xfc00) === 0xdc00) i++;
    }
  }
  return length;
}

/** Deep equality of JSON values, as `const`, `enum` and `uniqueItems` need it. */
export function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return a !== a && b !== b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => equal(x, bb[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every(
    (k) =>
      Object.prototype.hasOwnProperty.call(b, k) &&
      equal((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
  );
}

/*
 * The ajv-formats checks that are functions rather than regular expressions (Ajv inlines the
 * regular expressions, but its output would `require("ajv-formats/dist/formats").fullFormats`
 * for these). Same shapes and same logic as ajv-formats 3.0.1 `fullFormats` (MIT, Evgeny
 * Poberezkin), so the emitted module depends on nothing but support.js.
 */
function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}
const FORMAT_DATE = /^(\d\d\d\d)-(\d\d)-(\d\d)$/;
const DAYS_IN_MONTH = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
function formatDate(str: string): boolean {
  const m = FORMAT_DATE.exec(str);
  if (!m) return false;
  const year = +m[1]!;
  const month = +m[2]!;
  const day = +m[3]!;
  return month >= 1 && month <= 12 && day >= 1 && day <= (month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month]!);
}
function compareFormatDate(d1: string, d2: string): number | undefined {
  if (!(d1 && d2)) return undefined;
  return d1 > d2 ? 1 : d1 < d2 ? -1 : 0;
}
const FORMAT_TIME = /^(\d\d):(\d\d):(\d\d(?:\.\d+)?)(z|([+-])(\d\d)(?::?(\d\d))?)?$/i;
function formatTime(strictTimeZone: boolean): (str: string) => boolean {
  return (str) => {
    const m = FORMAT_TIME.exec(str);
    if (!m) return false;
    const hr = +m[1]!;
    const min = +m[2]!;
    const sec = +m[3]!;
    const tz = m[4];
    const tzSign = m[5] === "-" ? -1 : 1;
    const tzH = +(m[6] || 0);
    const tzM = +(m[7] || 0);
    if (tzH > 23 || tzM > 59 || (strictTimeZone && !tz)) return false;
    if (hr <= 23 && min <= 59 && sec < 60) return true;
    // leap second
    const utcMin = min - tzM * tzSign;
    const utcHr = hr - tzH * tzSign - (utcMin < 0 ? 1 : 0);
    return (utcHr === 23 || utcHr === -1) && (utcMin === 59 || utcMin === -1) && sec < 61;
  };
}
function compareFormatTime(s1: string, s2: string): number | undefined {
  if (!(s1 && s2)) return undefined;
  const t1 = new Date("2020-01-01T" + s1).valueOf();
  const t2 = new Date("2020-01-01T" + s2).valueOf();
  if (!(t1 && t2)) return undefined;
  return t1 - t2;
}
function compareFormatIsoTime(t1: string, t2: string): number | undefined {
  if (!(t1 && t2)) return undefined;
  const a1 = FORMAT_TIME.exec(t1);
  const a2 = FORMAT_TIME.exec(t2);
  if (!(a1 && a2)) return undefined;
  const x1 = a1[1]! + a1[2]! + a1[3]!;
  const x2 = a2[1]! + a2[2]! + a2[3]!;
  return x1 > x2 ? 1 : x1 < x2 ? -1 : 0;
}
const DATE_TIME_SEPARATOR = /t|\s/i;
function formatDateTime(strictTimeZone: boolean): (str: string) => boolean {
  const time = formatTime(strictTimeZone);
  return (str) => {
    const parts = str.split(DATE_TIME_SEPARATOR);
    return parts.length === 2 && formatDate(parts[0]!) && time(parts[1]!);
  };
}
function compareFormatDateTime(dt1: string, dt2: string): number | undefined {
  if (!(dt1 && dt2)) return undefined;
  const d1 = new Date(dt1).valueOf();
  const d2 = new Date(dt2).valueOf();
  if (!(d1 && d2)) return undefined;
  return d1 - d2;
}
function compareFormatIsoDateTime(dt1: string, dt2: string): number | undefined {
  if (!(dt1 && dt2)) return undefined;
  const [d1, t1] = dt1.split(DATE_TIME_SEPARATOR);
  const [d2, t2] = dt2.split(DATE_TIME_SEPARATOR);
  const res = compareFormatDate(d1!, d2!);
  if (res === undefined) return undefined;
  return res || compareFormatTime(t1!, t2!);
}
const FORMAT_BYTE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/gm;
const Z_ANCHOR = /[^\\]\\Z/;

/** A format check as Ajv's standalone code calls it: a function, or an object with `validate`. */
export type AjvFormat =
  | ((str: string) => boolean)
  | { type?: "number"; validate: (value: never) => boolean; compare?: (a: string, b: string) => number | undefined };

/** ajv-formats' full-mode URI regex (RFC 3986), unchanged. */
const URI =
  /^(?:[a-z][a-z0-9+\-.]*:)(?:\/?\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\.[a-z0-9\-._~!$&'()*+,;=:]+)\]|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?)|(?:[a-z0-9\-._~!$&'()*+,;=]|%[0-9a-f]{2})*)(?::\d*)?(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*|\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)(?:\?(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?$/i;
/** ajv-formats: a URI must also contain "/" or ":". */
const NOT_URI_FRAGMENT = /\/|:/;
/**
 * Plain `http(s)://host[:port]/path?query#fragment`: a strict subset of `URI` that a regular
 * expression without alternation checks several times faster; anything else takes the full check.
 */
const URI_FAST =
  /^https?:\/\/[a-z0-9.-]*(?::\d*)?(?:\/[a-z0-9\-._~!$&'()*+,;=:@/]*(?:%[0-9a-f]{2}[a-z0-9\-._~!$&'()*+,;=:@/]*)*)?(?:\?[a-z0-9\-._~!$&'()*+,;=:@/?]*(?:%[0-9a-f]{2}[a-z0-9\-._~!$&'()*+,;=:@/?]*)*)?(?:#[a-z0-9\-._~!$&'()*+,;=:@/?]*(?:%[0-9a-f]{2}[a-z0-9\-._~!$&'()*+,;=:@/?]*)*)?$/i;

/** The `uri` format: ajv-formats' answer, with a fast path for plain http(s) URLs. */
export function formatUri(str: string): boolean {
  return URI_FAST.test(str) || (NOT_URI_FRAGMENT.test(str) && URI.test(str));
}

/** In place of `require("ajv-formats/dist/formats").fullFormats`, for its function-valued formats. */
export const ajvFormats: Readonly<Record<string, AjvFormat>> = {
  uri: formatUri,
  date: { validate: formatDate, compare: compareFormatDate },
  time: { validate: formatTime(true), compare: compareFormatTime },
  "date-time": { validate: formatDateTime(true), compare: compareFormatDateTime },
  "iso-time": { validate: formatTime(false), compare: compareFormatIsoTime },
  "iso-date-time": { validate: formatDateTime(false), compare: compareFormatIsoDateTime },
  regex(str: string): boolean {
    if (Z_ANCHOR.test(str)) return false;
    try {
      new RegExp(str);
      return true;
    } catch {
      return false;
    }
  },
  byte(str: string): boolean {
    FORMAT_BYTE.lastIndex = 0;
    return FORMAT_BYTE.test(str);
  },
  int32: {
    type: "number",
    validate: (value: number) => Number.isInteger(value) && value <= 2 ** 31 - 1 && value >= -(2 ** 31),
  },
  int64: { type: "number", validate: (value: number) => Number.isInteger(value) },
  float: { type: "number", validate: () => true },
  double: { type: "number", validate: () => true },
};
