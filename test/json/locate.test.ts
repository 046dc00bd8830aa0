import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { escapePointerToken, jsonSyntaxError, locatePointer, parsePointer } from "../../src/json/index.js";

describe("jsonSyntaxError names line, column and problem of a text JSON.parse rejects", () => {
  const cases: Array<[string, string, number, number, RegExp]> = [
    ["a missing value", '{"a": }', 1, 7, /unexpected "}", expected a value/],
    ["a bare word", '{\n  "a": nope\n}', 2, 8, /unexpected "n"|expected a value/],
    ["an unquoted key", "{\n\n  oops: 1}", 3, 3, /double-quoted property name/],
    ["a trailing comma", "[1, 2,]", 1, 7, /unexpected "\]", expected a value/],
    ["text after the value", '{"a": 1} x', 1, 10, /unexpected text after the JSON value/],
    ["an unterminated string", '["abc', 1, 6, /unterminated string/],
    ["a control character", '"a\u0001"', 1, 3, /control character/],
    ["the end of input", '{"a": [1, 2', 1, 12, /unexpected end of input/],
  ];
  it.each(cases)("%s", (_name, text, line, column, problem) => {
    expect(() => JSON.parse(text)).toThrow();
    const found = jsonSyntaxError(text);
    expect([found.line, found.column]).toEqual([line, column]);
    expect(found.problem).toMatch(problem);
  });

  it("counts lines from the given first line (NDJSON)", () => {
    expect(jsonSyntaxError('{"a": }', 7).line).toBe(7);
  });

  it("quotes at most one character of the text, so a signed URL never appears", () => {
    const found = jsonSyntaxError('{"u": https://cdn.example/x.png?X-Amz-Signature=SECRET}');
    expect(found.problem).not.toContain("SECRET");
    expect(found.problem.length).toBeLessThan(60);
  });

  it("finds the error wherever JSON.parse finds one, at or after its own position", () => {
    fc.assert(
      fc.property(fc.json(), fc.nat(), fc.constantFrom("}", "]", ",", ":", "x", '"', "\u0001"), (json, at, junk) => {
        const k = at % (json.length + 1);
        const text = json.slice(0, k) + junk + json.slice(k);
        let rejected = false;
        try {
          JSON.parse(text);
        } catch {
          rejected = true;
        }
        if (!rejected) return;
        const found = jsonSyntaxError(text);
        expect(found.offset).toBeGreaterThanOrEqual(0);
        expect(found.offset).toBeLessThanOrEqual(text.length);
        expect(found.problem).not.toBe("");
      }),
      { numRuns: 500 },
    );
  });
});

/**
 * The reference: locatePointer before issue 40 made it fast (it decoded every key with JSON.parse),
 * kept here as the oracle the fast version must agree with.
 */
function referenceLocate(text: string, pointer: string): { line: number; column: number } {
  const segments = parsePointer(pointer);
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
        i++;
      }
      skip();
      ws();
      if (text[i++] !== ",") return;
    }
  };
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
        i++;
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
  return { line: before.split("\n").length, column: found - before.lastIndexOf("\n") };
}

/** Every pointer into `value`, and one past each container. */
function pointersOf(value: unknown, at = ""): string[] {
  const out = [at];
  if (typeof value === "object" && value !== null) {
    out.push(`${at}/nope`);
    for (const [k, v] of Object.entries(value)) out.push(...pointersOf(v, `${at}/${escapePointerToken(k)}`));
  }
  return out;
}

describe("locatePointer finds what the reference finds", () => {
  it("on keys with escapes anywhere in them (a control character, a quote, a backslash, non-ASCII)", () => {
    const text = '{"plain": 1,\n "a\\u001b[31m": 2, "q\\"x": 3, "b\\\\": 4, "caf\\u00e9": 5, "cafè": 6, "~/": 7}';
    const value = JSON.parse(text) as Record<string, number>;
    for (const pointer of pointersOf(value))
      expect(locatePointer(text, pointer), pointer).toEqual(referenceLocate(text, pointer));
    expect(locatePointer(text, "/a\u001b[31m")).toEqual({ line: 2, column: 17 });
    expect(locatePointer(text, "/caf\u00e9")).toEqual({ line: 2, column: text.split("\n")[1]!.indexOf(": 5") + 3 });
  });

  it("on seeded documents, written compact, indented and with JSON escapes (seed 40)", () => {
    const key = fc.string({
      unit: fc.constantFrom("a", "b", "~", "/", '"', "\\", "\n", "\u001b", "é", "😀", " "),
      maxLength: 4,
    });
    const leaf = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), key);
    const { tree } = fc.letrec((tie) => ({
      tree: fc.oneof(
        { depthSize: "small" },
        leaf,
        fc.array(tie("tree"), { maxLength: 4 }),
        fc.dictionary(key, tie("tree"), { maxKeys: 4 }),
      ),
    }));
    fc.assert(
      fc.property(tree, fc.constantFrom(undefined, 2, "\t"), fc.boolean(), (value, indent, ascii) => {
        let text = JSON.stringify(value, null, indent);
        // JSON.stringify leaves non-ASCII as it is: also written as \u escapes
        if (ascii)
          text = text.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
        for (const pointer of pointersOf(value))
          expect(locatePointer(text, pointer), pointer).toEqual(referenceLocate(text, pointer));
      }),
      { seed: 40, numRuns: 400 },
    );
  });
});
