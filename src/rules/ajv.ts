/**
 * How every schema of this toolkit is checked: one Ajv configuration (draft 2020-12, all errors,
 * the formats of ajv-formats with support.js's uri fast path), shared by the emitted validators
 * (stage 4) and by drift, which compiles the source's schemas to check examples and requests.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { formatUri } from "../diagnostics/index.js";
import { forEachSchema, isSchemaObject, PROTOTYPE_MEMBERS, type JsonSchemaObject } from "../schema/index.js";

const addFormats = addFormatsModule.default;

/**
 * A fresh Ajv configured the way every emitted validator is compiled. `ownProperties` makes a
 * property named like an Object.prototype member (`constructor`, `__proto__`) count only when
 * the payload has it as its own; it costs 10-30% on valid payloads, so the emitter turns it off
 * for schemas that name no such property (see `needsOwnProperties`), where for JSON data the
 * answers are the same.
 */
export function createAjv(options: { ownProperties?: boolean } = {}): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    ownProperties: options.ownProperties ?? true,
    strict: false,
    messages: false,
    validateFormats: true,
    code: { source: true, esm: true, lines: false },
  });
  addFormats(ajv);
  // the uri check with a fast path for plain http(s) URLs (support.js; same answers as ajv-formats)
  ajv.addFormat("uri", formatUri);
  return ajv;
}

/** Whether a schema names a property that every JSON object inherits (`constructor`, `toString`, …). */
export function needsOwnProperties(schema: JsonSchemaObject): boolean {
  let found = false;
  forEachSchema(schema, (node) => {
    const names = [
      ...(isSchemaObject(node.properties) ? Object.keys(node.properties) : []),
      ...(Array.isArray(node.required) ? node.required : []),
      ...(isSchemaObject(node.dependentRequired)
        ? Object.entries(node.dependentRequired).flatMap(([k, v]) => [k, ...(Array.isArray(v) ? v : [])])
        : []),
      ...(isSchemaObject(node.dependentSchemas) ? Object.keys(node.dependentSchemas) : []),
    ];
    if (names.some((n) => typeof n === "string" && PROTOTYPE_MEMBERS.has(n))) found = true;
  });
  return found;
}
