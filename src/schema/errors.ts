import type { SchemaOrigin } from "./types.js";

/** A model document that cannot be read: says which model, which file and where (JSON Pointer). */
export class SchemaLoadError extends Error {
  constructor(
    readonly origin: SchemaOrigin,
    readonly pointer: string,
    readonly problem: string,
  ) {
    super(`${origin.model}: ${origin.file}${pointer === "" ? "" : ` at ${pointer}`}: ${problem}`);
    this.name = "SchemaLoadError";
  }
}

/** Escapes one reference token for a JSON Pointer (RFC 6901). */
export function escapePointerToken(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

export function unescapePointerToken(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

export function pointerOf(tokens: readonly (string | number)[]): string {
  return tokens.map((t) => "/" + escapePointerToken(String(t))).join("");
}
