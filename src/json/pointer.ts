/**
 * JSON Pointers (RFC 6901), the one module for the toolkit outside the runtime regions (the
 * generated support module carries its own copy, src/diagnostics/pointers.ts): a token escaped
 * (`~` as `~0`, `/` as `~1`) and unescaped, a pointer parsed into its tokens and formatted from
 * them, and the value a pointer names inside a document.
 */

/** Escapes one reference token (RFC 6901 section 3): `a/b~c` is `a~1b~0c`. */
export function escapePointerToken(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Unescapes one reference token (RFC 6901 section 4: `~1` first, then `~0`). */
export function unescapePointerToken(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** The pointer of a path of tokens: `["a/b", 0]` is `/a~1b/0`, `[]` is `""` (the whole document). */
export function formatPointer(tokens: readonly (string | number)[]): string {
  return tokens.map((t) => "/" + escapePointerToken(String(t))).join("");
}

/** The tokens of a pointer: `/a~1b/0` is `["a/b", "0"]`, `""` is `[]`. */
export function parsePointer(pointer: string): string[] {
  return pointer === "" ? [] : pointer.slice(1).split("/").map(unescapePointerToken);
}

/**
 * The value at a path of tokens inside `doc`, through objects and arrays, own members only (a
 * token such as `__proto__` or `constructor` names nothing inherited); undefined when absent.
 */
export function getAt(doc: unknown, tokens: readonly string[]): unknown {
  let cur: unknown = doc;
  for (const t of tokens) {
    if (typeof cur !== "object" || cur === null) return undefined;
    if (!Object.prototype.hasOwnProperty.call(cur, t)) return undefined;
    cur = (cur as Record<string, unknown>)[t];
  }
  return cur;
}
