/**
 * The wording of diagnostics, in one place: how a received value is shown, the "did you mean"
 * of a near miss, and the sentence for each schema keyword (spec 7.2: a message names the field
 * and says expected versus received, never a URL's query string). A cross-field rule's sentence
 * is its kind's `message`, in its record (src/rules/<kind>.ts).
 */
import { namesSecret, REDACTED_MARK, redactUrl, redactUrlsInText } from "../runtime/redact.js";
import { redactOnce, type Received, type SchemaKeyword } from "./diagnostic.js";

// #region runtime (copied into the generated support module: no imports in here)
/**
 * What a message says of a value it does not show because it is a secret (issue S1: no command
 * prints an API key): a field whose name says secret (`api_key`, `token`, …: {@link shownValue}),
 * or a text that holds a secret's shape (`Key …`, `Bearer …`, `sk-…`: the runtime's redaction).
 */
const WITHHELD_NOTE = " (secret withheld)";

/**
 * A value a message does not show because its field's name says it holds a secret: only its
 * JSON type and, for a string, its length are kept (what a type or length error needs).
 */
class Withheld {
  constructor(
    readonly type: string,
    readonly length: number,
  ) {}
}

/**
 * The value a finding about the field at `pointer` may show: the value itself, or, when the
 * pointer goes through a field whose name says secret (`/input/api_key`,
 * `/input/headers/0/authorization`), a stand-in that every message and `received` shows as
 * `<redacted>`. Arrays and objects are shown by their size only and stay as they are.
 */
export function shownValue(pointer: string, value: unknown): unknown {
  if ((typeof value === "object" && value !== null) || value === undefined || !namesSecret(pointer)) return value;
  return new Withheld(
    typeof value === "bigint" ? "integer" : typeName(value),
    typeof value === "string" ? value.length : 0,
  );
}

/** A short, safe rendering of a received value for a message. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (typeof value === "string") {
    const shown = shownText(value);
    const withheld = shown.includes(REDACTED_MARK) && !value.includes(REDACTED_MARK) ? WITHHELD_NOTE : "";
    return `${JSON.stringify(shown)}${value.length > 60 ? ` (${value.length} characters)` : ""}${withheld}`;
  }
  if (value instanceof Withheld)
    return `${value.type === "string" ? `"${REDACTED_MARK}"` : REDACTED_MARK}${WITHHELD_NOTE}`;
  if (Array.isArray(value)) return `an array of ${value.length} item${value.length === 1 ? "" : "s"}`;
  if (value === null) return "null";
  if (typeof value === "object") return "an object";
  return String(value);
}

/**
 * A string as a message shows it: a value that is one URL loses everything from its first "?"
 * or "#", whatever characters the query holds; any other text has the URLs inside it redacted,
 * and every secret-shaped part (`Key …`, `Bearer …`, `sk-…`, a JWT, the configured key) replaced
 * by `<redacted>`. Then it is shortened to 60 characters.
 */
function shownText(value: string): string {
  // a message and `received` show the same value one after the other: its redaction is done once
  if (value === lastShown) return lastShownText;
  lastShownText = shownTextOf(value);
  lastShown = value;
  return lastShownText;
}
let lastShown: string | undefined;
let lastShownText = "";

function shownTextOf(value: string): string {
  const head = value.length > 4096 ? value.slice(0, 4096) : value;
  const safe = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(head) ? redactUrlsInText(redactUrl(head)) : redactUrlsInText(head);
  return safe.length > 60 ? `${safe.slice(0, 57)}…` : safe;
}

/** A received value as a diagnostic's data (`Received`); undefined for nothing. */
export function receivedOf(value: unknown): Received | undefined {
  switch (typeof value) {
    case "number":
      return Number.isFinite(value) ? value : { type: "number", text: String(value) };
    case "string":
      return redactOnce(shownText(value));
    case "boolean":
      return value;
    case "bigint":
      return { type: "integer", text: String(value) };
    case "object":
      if (value === null) return null;
      if (value instanceof Withheld) return REDACTED_MARK;
      return Array.isArray(value)
        ? { type: "array", items: value.length }
        : { type: "object", fields: Object.keys(value).length };
    default:
      return undefined;
  }
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (value instanceof Withheld) return value.type;
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** `string "auto"`, `integer 5`, `null`, `an array`: the received value with its JSON type. */
function received(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null || Array.isArray(value) || (typeof value === "object" && !(value instanceof Withheld)))
    return value === null ? "null" : describeValue(value).replace(/ of \d+ items?$/, "");
  return `${typeName(value)} ${describeValue(value)}`;
}

/** A string's length, also of a withheld one. */
function lengthOf(v: unknown): number {
  return typeof v === "string" || v instanceof Withheld ? v.length : 0;
}

function listValues(values: readonly unknown[]): string {
  return values.map((v) => JSON.stringify(v)).join(", ");
}

/** `integer` → `an integer`, `null` → `null`: the other forms a field also accepts. */
export function otherForms(types: readonly string[]): string {
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

const plural = (n: unknown, one: string): string => `${String(n)} ${one}${n === 1 ? "" : "s"}`;

type SchemaMessage = (p: Record<string, unknown>, v: unknown) => string;

/** keyword → message after the field label; `v` is the received value. Every `SchemaKeyword`, no other. */
export const SCHEMA_MESSAGES: Record<string, SchemaMessage> = {
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
  minLength: (p, v) => `expected at least ${plural(p.limit, "character")}, received ${lengthOf(v)}`,
  maxLength: (p, v) => `expected at most ${plural(p.limit, "character")}, received ${lengthOf(v)}`,
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
} satisfies Record<SchemaKeyword, SchemaMessage>;

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

// #endregion runtime
