/**
 * Stage 3, diagnostics: the validation core that generated code runs and vsk's own stages
 * share. A diagnostic in the service's vocabulary (spec 7.1, 7.2), the wording of its message,
 * the translation of Ajv's errors, JSON Pointer helpers and the function-valued formats. Each
 * file's runtime region is copied into the generated support module (scripts/embed.mjs, in the
 * order below, before the rule kinds'); that module exports what this index exports.
 */
export {
  type Severity,
  type Diagnostic,
  type Expected,
  type Received,
  type SchemaKeyword,
  type RuleId,
  type RuleKindName,
  type KnownRule,
  type KnownExpectedKind,
  type JsonValue,
  RequestValidationError,
  type BuildResult,
  diagnostic,
  redacted,
  redactPointerOnce,
  safePiece,
  type InvalidPointers,
  invalidPointers,
  type FindingLimit,
  DEFAULT_MAX_FINDINGS,
  MORE_FINDINGS_RULE,
  moreFindings,
} from "./diagnostic.js";
export { escapeToken, fieldLabel, valueAt, valueAtTokens, pointerTokens, itemsAt, itemPath } from "./pointers.js";
export { describeValue, receivedOf, closest, shownValue } from "./wording.js";
export { type AjvError, diagnosticsFromAjv } from "./ajv-errors.js";
export { type StandardSchemaV1, standardResult } from "./standard-schema.js";
export { type StandardJSONSchemaV1, type JsonSchemaRule, jsonSchemaConverter } from "./standard-json-schema.js";
export { ucs2length, equal, type AjvFormat, formatUri, ajvFormats } from "./formats.js";
// the generated support module re-exports the runtime's URL redaction (templates/support-head.txt)
export { redactUrl, redactUrlsInText } from "../runtime/redact.js";
