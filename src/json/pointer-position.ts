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
  const segments = segmentsOf(pointer);
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

/** A pointer's parts as `locatePointer` reads them. */
function segmentsOf(pointer: string): string[] {
  if (pointer === "") return [];
  if (pointer.indexOf("~") !== -1) return parsePointer(pointer);
  // cut by hand: split() of a fresh slice was a quarter of locating a finding
  const out: string[] = [];
  let from = 1;
  for (let slash = pointer.indexOf("/", 1); slash !== -1; slash = pointer.indexOf("/", from)) {
    out.push(pointer.slice(from, slash));
    from = slash + 1;
  }
  out.push(pointer.slice(from));
  return out;
}

/** A segment as an array index (`0`, `12`; not `01` or `-1`), or -1. */
function arrayIndex(segment: string): number {
  const n = segment.length;
  if (n === 0 || n > 15 || (n > 1 && segment.charCodeAt(0) === 48)) return -1;
  let v = 0;
  for (let k = 0; k < n; k++) {
    const c = segment.charCodeAt(k) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

/** The wanted pointers as a tree of their parts: `ends` are the pointers (indexes) in its subtree. */
interface Wanted {
  segment: string;
  /** the segment as an array index, or -1 */
  index: number;
  ends: number[];
  children: Wanted[];
  /** entered once (the first of a repeated key, as `locatePointer` finds it) */
  entered: boolean;
}

function wantedNode(segment: string): Wanted {
  return {
    segment,
    index: arrayIndex(segment),
    ends: [],
    children: [],
    entered: false,
  };
}

/**
 * `locatePointer` of each pointer, in one walk over the text (issue 40: a document's findings
 * located together, not each from the start): the values on the way to a wanted pointer are
 * entered, every other value skipped, and the lines counted once, in order of offset. Each
 * answer is what `locatePointer(text, pointers[i])` gives.
 */
export function locatePointers(text: string, pointers: readonly string[]): Array<{ line: number; column: number }> {
  const root = wantedNode("");
  for (let p = 0; p < pointers.length; p++) {
    let node = root;
    node.ends.push(p);
    for (const segment of segmentsOf(pointers[p]!)) {
      let child: Wanted | undefined;
      for (const c of node.children) if (c.segment === segment) child = c;
      if (child === undefined) node.children.push((child = wantedNode(segment)));
      child.ends.push(p);
      node = child;
    }
  }
  const found = new Array<number>(pointers.length).fill(0);
  walk(text, ws(text, 0), root, found);
  // lines counted once, over the offsets in ascending order (a payload's few by insertion: no
  // comparator closure; ties keep any order, their offsets being the same)
  const order: number[] = [];
  if (pointers.length <= 32)
    for (let p = 0; p < pointers.length; p++) {
      let at = p;
      while (at > 0 && found[order[at - 1]!]! > found[p]!) {
        order[at] = order[at - 1]!;
        at--;
      }
      order[at] = p;
    }
  else {
    for (let p = 0; p < pointers.length; p++) order.push(p);
    order.sort((a, b) => found[a]! - found[b]!);
  }
  const out = new Array<{ line: number; column: number }>(pointers.length);
  let line = 1;
  let lineStart = 0;
  let k = text.indexOf("\n");
  for (const p of order) {
    const at = found[p]!;
    for (; k !== -1 && k < at; k = text.indexOf("\n", k + 1)) {
      line++;
      lineStart = k + 1;
    }
    out[p] = { line, column: at - lineStart + 1 };
  }
  return out;
}

/**
 * The value at `i` (its whitespace skipped) is `node`'s: its pointers are found here unless a
 * deeper part of them is found inside; its children's values are walked, the rest skipped.
 * Returns the offset just past the value, as `skip` does.
 */
function walk(text: string, i: number, node: Wanted, found: number[]): number {
  for (const p of node.ends) found[p] = i;
  const open = text.charCodeAt(i);
  if (node.children.length === 0 || (open !== 123 && open !== 91)) return skip(text, i);
  i = ws(text, i + 1);
  const first = text.charCodeAt(i);
  if (first === 125 || first === 93) return i + 1;
  for (let k = 0; ; k++) {
    i = ws(text, i);
    let child: Wanted | undefined;
    if (open === 123) {
      const end = stringEnd(text, i);
      for (const c of node.children) if (!c.entered && keyIs(text, i, end, c.segment)) child = c;
      i = ws(text, ws(text, end) + 1); // ':'
    } else for (const c of node.children) if (c.index === k) child = c;
    if (child !== undefined) {
      child.entered = true;
      i = ws(text, walk(text, i, child, found));
    } else i = ws(text, skip(text, i));
    if (text.charCodeAt(i++) !== 44) return i;
  }
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
  // compared in the same pass that looks for an escape (`startsWith` cost ~85 ns a call on Node 20)
  let same = written === segment.length;
  for (let k = open + 1, s = 0; k < end - 1; k++, s++) {
    const c = text.charCodeAt(k);
    if (c === 92) return (JSON.parse(text.slice(open, end)) as string) === segment;
    if (same && c !== segment.charCodeAt(s)) same = false;
  }
  return same;
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
