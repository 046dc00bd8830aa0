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
