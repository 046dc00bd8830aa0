/**
 * JSON texts for messages with line and column: where a text goes wrong (RFC 8259), where the
 * value at a JSON Pointer is in it, and the keys it repeats.
 */
export { jsonSyntaxError, locateJsonError, type JsonSyntaxError } from "./syntax-error.js";
export { locatePointer } from "./pointer-position.js";
export { findDuplicateKeys, type DuplicateKey } from "./duplicate-keys.js";
