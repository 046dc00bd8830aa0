import { escapePointerToken } from "./pointer.js";

/** A key that occurs more than once in one object: the pointer of the key and the line of its repetition. */
export interface DuplicateKey {
  pointer: string;
  key: string;
  line: number;
}

/**
 * The duplicate keys of a JSON text that `JSON.parse` accepted as `value` (RFC 8259 says names
 * SHOULD be unique; `JSON.parse` silently keeps the last). Fast on the usual text without any: a
 * count of the keys in `value` against the colons outside strings of `text` (every such colon
 * follows one key), and only when they differ a scan that names each repetition. At most
 * `limit` are returned.
 */
export function findDuplicateKeys(text: string, value: unknown, firstLine = 1, limit = 20): DuplicateKey[] {
  if (countKeys(value) === keyColonsAtLeast(text)) return [];
  return scanDuplicateKeys(text, firstLine, limit);
}

/** Own keys of every object in a parsed JSON value (iterative: a payload may nest deeply). */
function countKeys(root: unknown): number {
  let count = 0;
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== "object" || v === null) continue;
    if (Array.isArray(v)) {
      for (const item of v) if (typeof item === "object" && item !== null) stack.push(item);
      continue;
    }
    for (const key in v) {
      count++;
      const item = (v as Record<string, unknown>)[key];
      if (typeof item === "object" && item !== null) stack.push(item);
    }
  }
  return count;
}

/**
 * The colons of a JSON text that follow an unescaped quote (whitespace between allowed): every
 * key's colon does, so this is at least the number of keys written; a colon inside a string
 * right after its opening quote (`": x"`) counts too, which only sends the text to the exact
 * scan. Native `indexOf` jumps from colon to colon: cheap on payloads, whose colons are few.
 */
function keyColonsAtLeast(text: string): number {
  let count = 0;
  for (let i = text.indexOf(":"); i !== -1; i = text.indexOf(":", i + 1)) {
    let j = i - 1;
    let c = text.charCodeAt(j);
    while (c === 32 || c === 10 || c === 13 || c === 9) c = text.charCodeAt(--j);
    if (c !== 34) continue;
    let slashes = 0;
    while (text.charCodeAt(j - 1 - slashes) === 92) slashes++;
    if (slashes % 2 === 0) count++;
  }
  return count;
}

/** The index of the quote that closes the string opening at `open` (text.length - 1 if none). */
function stringEnd(text: string, open: number): number {
  let j = open + 1;
  for (;;) {
    j = text.indexOf('"', j);
    if (j === -1) return text.length - 1;
    let slashes = 0;
    while (text.charCodeAt(j - 1 - slashes) === 92) slashes++;
    if (slashes % 2 === 0) return j;
    j++;
  }
}

/** Walks a valid JSON text, naming every key that repeats one before it in the same object. */
function scanDuplicateKeys(text: string, firstLine: number, limit: number): DuplicateKey[] {
  interface Frame {
    path: string;
    keys: Set<string> | null; // null for an array
    index: number;
    expectKey: boolean;
    key: string;
  }
  const found: DuplicateKey[] = [];
  const stack: Frame[] = [];
  let line = firstLine;
  let lineCountedTo = 0;
  const lineAt = (offset: number): number => {
    for (; lineCountedTo < offset; lineCountedTo++) if (text.charCodeAt(lineCountedTo) === 10) line++;
    return line;
  };
  for (let i = 0; i < text.length && found.length < limit; i++) {
    const c = text[i];
    const top = stack[stack.length - 1];
    if (c === '"') {
      const end = stringEnd(text, i);
      if (top !== undefined && top.keys !== null && top.expectKey) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        if (top.keys.has(key)) found.push({ pointer: `${top.path}/${escapePointerToken(key)}`, key, line: lineAt(i) });
        else top.keys.add(key);
        top.expectKey = false;
        top.key = key;
      }
      i = end;
    } else if (c === "{" || c === "[") {
      const path =
        top === undefined ? "" : `${top.path}/${escapePointerToken(top.keys === null ? String(top.index) : top.key)}`;
      stack.push({ path, keys: c === "{" ? new Set() : null, index: 0, expectKey: c === "{", key: "" });
    } else if (c === "}" || c === "]") stack.pop();
    else if (c === "," && top !== undefined) {
      if (top.keys === null) top.index++;
      else top.expectKey = true;
    }
  }
  return found;
}
