/**
 * Where a JSON text goes wrong, for messages with line and column. Node 20's `JSON.parse` does
 * not always say where, and when it does its message quotes a piece of the text (which may hold a
 * signed URL); this scanner names the position and the problem from the grammar alone
 * (RFC 8259), quoting at most the one character it stopped at. Used by `vsk lint`, `vsk explain`
 * and the schema loader, so a syntax error reads the same everywhere.
 */

/** A syntax error: 1-based line and column (lines counted from `firstLine`), and what is wrong. */
export interface JsonSyntaxError {
  offset: number;
  line: number;
  column: number;
  problem: string;
}

/** Locates the syntax error of a text that `JSON.parse` rejected. */
export function jsonSyntaxError(text: string, firstLine = 1): JsonSyntaxError {
  const { offset, problem } = locateJsonError(text);
  let line = firstLine;
  let lineStart = 0;
  for (let k = 0; k < offset && k < text.length; k++) {
    if (text.charCodeAt(k) === 10) {
      line++;
      lineStart = k + 1;
    }
  }
  return { offset, line, column: offset - lineStart + 1, problem };
}

/**
 * Finds where `text` stops being JSON (RFC 8259), for a message with line and column: `JSON.parse`
 * in Node 20 does not always say where. Only called after `JSON.parse` failed.
 */
export function locateJsonError(text: string): { offset: number; problem: string } {
  let i = 0;
  const fail = (problem: string): never => {
    throw { offset: i, problem };
  };
  const ws = (): void => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  const unexpected = (what: string): never =>
    fail(
      i >= text.length
        ? `unexpected end of input, expected ${what}`
        : `unexpected ${JSON.stringify(text[i])}, expected ${what}`,
    );
  const literal = (word: string): void => {
    if (text.startsWith(word, i)) i += word.length;
    else unexpected("a value");
  };
  const string = (): void => {
    i++;
    while (i < text.length && text[i] !== '"') {
      const c = text.charCodeAt(i);
      if (c < 0x20) fail("control character in a string (escape it)");
      if (text[i] === "\\") {
        i++;
        if (text[i] === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail("bad \\u escape in a string");
          i += 4;
        } else if (i >= text.length || !'"\\/bfnrt'.includes(text[i]!)) fail("bad escape in a string");
      }
      i++;
    }
    if (i >= text.length) fail("unterminated string");
    i++;
  };
  const value = (depth: number): void => {
    if (depth > 5000) fail("nested more than 5000 levels deep; the error lies further in");
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      ws();
      if (text[i] === "}") {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') unexpected("a double-quoted property name");
        string();
        ws();
        if (text[i] !== ":") unexpected('":"');
        i++;
        value(depth + 1);
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "}") {
          i++;
          return;
        }
        unexpected('"," or "}"');
      }
    }
    if (c === "[") {
      i++;
      ws();
      if (text[i] === "]") {
        i++;
        return;
      }
      for (;;) {
        value(depth + 1);
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "]") {
          i++;
          return;
        }
        unexpected('"," or "]"');
      }
    }
    if (c === '"') return string();
    if (c === "t") return literal("true");
    if (c === "f") return literal("false");
    if (c === "n") return literal("null");
    const number = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (number === null) unexpected("a value");
    i += number![0].length;
  };
  try {
    value(0);
    ws();
    if (i < text.length) fail("unexpected text after the JSON value");
    return { offset: i, problem: "not valid JSON" };
  } catch (thrown) {
    if (typeof thrown === "object" && thrown !== null && "offset" in thrown)
      return thrown as { offset: number; problem: string };
    return { offset: 0, problem: "not valid JSON" };
  }
}

/**
 * Where the value at a JSON Pointer (RFC 6901) starts in a valid JSON text, as 1-based line and
 * column; for a pointer that goes past what the text holds, where its deepest existing part
 * starts. For messages about a valid document ("vsk.config.json:4:13: /models/0/id: …").
 */
export function locatePointer(text: string, pointer: string): { line: number; column: number } {
  const segments =
    pointer === ""
      ? []
      : pointer
          .slice(1)
          .split("/")
          .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  let i = 0;
  const ws = (): void => {
    while (i < text.length && " \t\n\r\uFEFF".includes(text[i]!)) i++;
  };
  const string = (): string => {
    const start = i++;
    while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const skip = (): void => {
    ws();
    const open = text[i];
    if (open === '"') return void string();
    if (open !== "{" && open !== "[") {
      while (i < text.length && !",}] \t\n\r".includes(text[i]!)) i++;
      return;
    }
    i++;
    ws();
    if (text[i] === "}" || text[i] === "]") return void i++;
    for (;;) {
      if (open === "{") {
        ws();
        string();
        ws();
        i++; // ':'
      }
      skip();
      ws();
      const close = text[i++];
      if (close !== ",") return;
    }
  };
  /** Moves `i` to the value of `segment` in the container at `i`; false when there is none. */
  const enter = (segment: string): boolean => {
    const open = text[i];
    if (open !== "{" && open !== "[") return false;
    const index = open === "[" && /^(0|[1-9]\d*)$/.test(segment) ? Number(segment) : -1;
    if (open === "[" && index < 0) return false;
    i++;
    ws();
    if (text[i] === "}" || text[i] === "]") return false;
    for (let k = 0; ; k++) {
      ws();
      if (open === "{") {
        const key = string();
        ws();
        i++; // ':'
        ws();
        if (key === segment) return true;
      } else if (k === index) return true;
      skip();
      ws();
      if (text[i++] !== ",") return false;
    }
  };
  ws();
  let found = i;
  for (const segment of segments) {
    if (!enter(segment)) break;
    ws();
    found = i;
  }
  const before = text.slice(0, found);
  const line = before.split("\n").length;
  return { line, column: found - before.lastIndexOf("\n") };
}

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

function pointerToken(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
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
        if (top.keys.has(key)) found.push({ pointer: `${top.path}/${pointerToken(key)}`, key, line: lineAt(i) });
        else top.keys.add(key);
        top.expectKey = false;
        top.key = key;
      }
      i = end;
    } else if (c === "{" || c === "[") {
      const path =
        top === undefined ? "" : `${top.path}/${pointerToken(top.keys === null ? String(top.index) : top.key)}`;
      stack.push({ path, keys: c === "{" ? new Set() : null, index: 0, expectKey: c === "{", key: "" });
    } else if (c === "}" || c === "]") stack.pop();
    else if (c === "," && top !== undefined) {
      if (top.keys === null) top.index++;
      else top.expectKey = true;
    }
  }
  return found;
}
