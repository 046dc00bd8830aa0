/**
 * JSON texts for messages with line and column: where a text goes wrong (RFC 8259), where the
 * value at a JSON Pointer is in it, and the keys it repeats; and JSON Pointers themselves
 * (RFC 6901, `pointer.ts`). A base every stage may use: it imports nothing else of src/.
 */
export { jsonSyntaxError, locateJsonError, type JsonSyntaxError } from "./syntax-error.js";
export { locatePointer, locatePointers } from "./pointer-position.js";
export { findDuplicateKeys, type DuplicateKey } from "./duplicate-keys.js";
export { escapePointerToken, formatPointer, getAt, parsePointer, unescapePointerToken } from "./pointer.js";
