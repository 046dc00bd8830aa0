import { parsePointer } from "./pointer.js";

/**
 * Where the value at a JSON Pointer (RFC 6901) starts in a valid JSON text, as 1-based line and
 * column; for a pointer that goes past what the text holds, where its deepest existing part
 * starts. For messages about a valid document ("vsk.config.json:4:13: /models/0/id: …"), and
 * for every finding of a `.json` document vsk lint reads (so it walks character codes, compares
 * a key without escapes in place, and counts lines without copying the text).
 */
export function locatePointer(text: string, pointer: string): { line: number; column: number } {
  // a pointer without `~` has nothing to unescape: its segments are its parts
  const segments =
    pointer === "" ? [] : pointer.indexOf("~") === -1 ? pointer.slice(1).split("/") : parsePointer(pointer);
  let i = ws(text, 0);
  let found = i;
  for (const segment of segments) {
    i = enter(text, i, segment);
    if (i < 0) break;
    i = ws(text, i);
    found = i;
  }
  let line = 1;
  let lineStart = 0;
  for (let k = text.indexOf("\n"); k !== -1 && k < found; k = text.indexOf("\n", k + 1)) {
    line++;
    lineStart = k + 1;
  }
  return { line, column: found - lineStart + 1 };
}

/** JSON whitespace (and a BOM) from `i` on: the offset of the next other character. */
function ws(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13 || c === 0xfeff) i++;
    else return i;
  }
}

/** The offset just past the string whose opening quote is at `i`. */
function stringEnd(text: string, i: number): number {
  for (;;) {
    const quote = text.indexOf('"', i + 1);
    if (quote === -1) return text.length + 1;
    let slashes = 0;
    while (text.charCodeAt(quote - 1 - slashes) === 92) slashes++;
    if (slashes % 2 === 0) return quote + 1;
    i = quote;
  }
}

/** The offset just past the value at `i` (whitespace before it skipped). */
function skip(text: string, i: number): number {
  i = ws(text, i);
  const open = text.charCodeAt(i);
  if (open === 34) return stringEnd(text, i);
  if (open !== 123 && open !== 91) {
    // a number, true, false or null: up to , } ] or whitespace
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 44 || c === 125 || c === 93 || c === 32 || c === 9 || c === 10 || c === 13) break;
      i++;
    }
    return i;
  }
  i = ws(text, i + 1);
  const first = text.charCodeAt(i);
  if (first === 125 || first === 93) return i + 1;
  for (;;) {
    if (open === 123) {
      i = ws(text, stringEnd(text, ws(text, i)));
      i++; // ':'
    }
    i = ws(text, skip(text, i));
    if (text.charCodeAt(i++) !== 44) return i;
  }
}

/**
 * Whether the key whose quotes are at `open` and `end - 1` is `segment`: compared in place, or
 * decoded when it holds any escape (`\u001b`, `\n`, `\"`: anywhere in it, not only before a quote).
 * An escape only shortens a key, so a key shorter as written than `segment` is not it.
 */
function keyIs(text: string, open: number, end: number, segment: string): boolean {
  const written = end - open - 2;
  if (written < segment.length) return false;
  for (let k = open + 1; k < end - 1; k++)
    if (text.charCodeAt(k) === 92) return (JSON.parse(text.slice(open, end)) as string) === segment;
  return written === segment.length && text.startsWith(segment, open + 1);
}

/** The offset of the value of `segment` in the container at `i` (its value's whitespace skipped); -1 when there is none. */
function enter(text: string, i: number, segment: string): number {
  const open = text.charCodeAt(i);
  if (open !== 123 && open !== 91) return -1;
  const index = open === 91 && /^(0|[1-9]\d*)$/.test(segment) ? Number(segment) : -1;
  if (open === 91 && index < 0) return -1;
  i = ws(text, i + 1);
  const first = text.charCodeAt(i);
  if (first === 125 || first === 93) return -1;
  for (let k = 0; ; k++) {
    i = ws(text, i);
    if (open === 123) {
      const end = stringEnd(text, i);
      const match = keyIs(text, i, end, segment);
      i = ws(text, end);
      i = ws(text, i + 1); // ':'
      if (match) return i;
    } else if (k === index) return i;
    i = ws(text, skip(text, i));
    if (text.charCodeAt(i++) !== 44) return -1;
  }
}
