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
