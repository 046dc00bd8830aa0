/**
 * JSON Pointers (RFC 6901) of payload fields: their tokens, the value they point at, and the
 * label a message names a field by (`keyframes[1].frame_index`).
 */
import { mayHoldSecret, redactUrlsInText } from "../runtime/redact.js";

// #region runtime (copied into the generated support module: no imports in here)
export function unescapeToken(t: string): string {
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
    // the name is redacted before it is quoted, never the quoted text (issue 23.2): `p"q?sig=…` keeps its quote
    else if (mayHoldSecret(token)) token = redactUrlsInText(token);
    if (/^(0|[1-9][0-9]*)$/.test(token)) label += `[${token}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(token)) label += label === "" ? token : `.${token}`;
    else label += `[${JSON.stringify(token)}]`;
  }
  return label;
}

/** The value at a JSON Pointer, or undefined; own properties only. */
export function valueAt(root: unknown, pointer: string): unknown {
  return pointer === "" ? root : valueAtTokens(root, pointerTokens(pointer));
}

/** The value at a pointer already split by {@link pointerTokens}. */
export function valueAtTokens(root: unknown, tokens: ReadonlyArray<string | number>): unknown {
  let current: unknown = root;
  for (const token of tokens) {
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

/** `/keyframes/1/frame_index` → `["keyframes", 1, "frame_index"]` (not for the root, `""`) (canonical array indexes as numbers). */
export function pointerTokens(pointer: string): ReadonlyArray<string | number> {
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

/**
 * Ajv's `instancePath + head + index + tail` for an array item (vsk's emitter calls this in its
 * place: src/emit/validator.ts), the same string. At the top level (`base` ""), for the first 256
 * items, it is the same string object every time, kept in the call site's own `cache`: Ajv built
 * a fresh concatenation for every error, and comparing one or using it as a key flattens it first
 * (~90 ns each, a sixth of checking a payload with several errors).
 */
export function itemPath(cache: string[], base: string, head: string, index: number, tail: string): string {
  if (base !== "" || !(index >= 0 && index < 256 && index % 1 === 0)) return base + head + index + tail;
  let path = cache[index];
  if (path === undefined) cache[index] = path = head + index + tail;
  return path;
}

/** The items of the array at a JSON Pointer, or none. */
export function itemsAt(input: Record<string, unknown>, pointer: string): unknown[] {
  const items = valueAt(input, pointer);
  return Array.isArray(items) ? items : [];
}
// #endregion runtime
