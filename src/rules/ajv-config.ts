/**
 * How every schema of this toolkit is checked: one Ajv configuration (draft 2020-12, all errors,
 * the formats of ajv-formats with support.js's uri fast path), shared by the emitted validators
 * (stage 4) and by drift, which compiles the source's schemas to check examples and requests.
 */
import { _, Ajv2020, str, type KeywordCxt } from "ajv/dist/2020.js";
import ajvEqualModule from "ajv/dist/runtime/equal.js";
import addFormatsModule from "ajv-formats";
import { formatUri, ucs2length } from "../diagnostics/index.js";
import { forEachSchema, isSchemaObject, PROTOTYPE_MEMBERS, type JsonSchemaObject } from "../schema/index.js";

const addFormats = addFormatsModule.default;
/** The deep equality Ajv's `enum`, `const` and `uniqueItems` call (the function object they hold). */
const ajvEqual: unknown = (ajvEqualModule as unknown as { default?: unknown }).default ?? ajvEqualModule; // (a loader may unwrap CommonJS' default)

/**
 * What Ajv's standalone code calls, named as the generated support module exports it, so the
 * emitted code imports it from there and needs neither Ajv nor ajv-formats at run time. Ajv's own
 * mechanisms, not rewriting its output: `code.formats` is the expression its format checks read
 * (`ajvFormats.uri`); a function registered in `ajv.scope` under its `ref` is the one every
 * keyword's `useFunc` then shares, with our code (`equal`); `minLength`/`maxLength` are the one
 * keyword pair defined here (below).
 */
export const SUPPORT_FUNCTIONS = ["ajvFormats", "equal", "ucs2length"] as const;

/**
 * `minLength`/`maxLength` as Ajv defines them (code points, `ucs2length`; same error: keyword,
 * `{limit}`), with the UTF-16 length deciding first: code points <= UTF-16 length <= 2 × code
 * points, so `ucs2length(x) > N` can only hold when `x.length > N`, and `ucs2length(x) < N` only
 * when `x.length < 2N`. Same answers; an ordinary string is never scanned.
 */
function addLengthKeywords(ajv: Ajv2020): void {
  for (const keyword of ["maxLength", "minLength"] as const) {
    ajv.removeKeyword(keyword);
    ajv.addKeyword({
      keyword,
      type: "string",
      schemaType: "number",
      $data: true,
      before: "pattern", // Ajv's own order: lengths, then pattern, then format
      error: {
        message: ({ schemaCode }) =>
          str`must NOT have ${keyword === "maxLength" ? "more" : "fewer"} than ${schemaCode} characters`,
        params: ({ schemaCode }) => _`{limit: ${schemaCode}}`,
      },
      code(cxt: KeywordCxt) {
        const { data, schemaCode, gen } = cxt;
        const twice = cxt.$data ? _`2 * ${schemaCode}` : 2 * (cxt.schema as number);
        const length = gen.scopeValue("func", { ref: ucs2length, code: _`ucs2length` });
        cxt.fail$data(
          keyword === "maxLength"
            ? _`${data}.length > ${schemaCode} && ${length}(${data}) > ${schemaCode}`
            : _`${data}.length < ${twice} && ${length}(${data}) < ${schemaCode}`,
        );
      },
    });
  }
}

/**
 * A fresh Ajv configured the way every emitted validator is compiled. `ownProperties` makes a
 * property named like an Object.prototype member (`constructor`, `__proto__`) count only when
 * the payload has it as its own; it costs 10-30% on valid payloads, so the emitter turns it off
 * for schemas that name no such property (see `needsOwnProperties`), where for JSON data the
 * answers are the same. `optimize: false` skips Ajv's optimisation pass over the generated code
 * (which makes it smaller, never changes its answers): about half the compile time, for
 * validators compiled to run a few times (drift's example checks) rather than shipped.
 */
export function createAjv(options: { ownProperties?: boolean; optimize?: boolean } = {}): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    ownProperties: options.ownProperties ?? true,
    strict: false,
    messages: false,
    validateFormats: true,
    code: { source: true, esm: true, lines: false, optimize: options.optimize ?? true, formats: _`ajvFormats` },
  });
  ajv.scope.value("func", { ref: ajvEqual, code: _`equal` });
  addLengthKeywords(ajv);
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
