/**
 * video-schema-kit's programmatic API: the same stages the `vsk` CLI runs.
 * Generated code for the default models is `video-schema-kit/models`; the prediction-error
 * reader for clients is `video-schema-kit/runtime`.
 */
export { loadConfig, parseConfig, findModel, DEFAULT_MODELS, type VskConfig, type ModelRef } from "./config/index.js";
export {
  loadModelDocument,
  parseModelText,
  SchemaLoadError,
  type EndpointModel,
  type ModelSchema,
  type JsonSchemaObject,
} from "./schema/index.js";
export { readSnapshot, writeSnapshot, readManifest, type Manifest } from "./snapshot/index.js";
export { rulesFor, SPEC_RULES, checkRules, runValidation, type RuleSpec, type Diagnostic } from "./rules/index.js";
export { generateFiles, compareWithDisk, writeGenerated, simplifySchema, type GeneratedFile } from "./emit/index.js";
export { Linter, openRegistry, type LintResult, type LintSummary } from "./lint/index.js";
export {
  preflight,
  createPreflight,
  PREFLIGHT_DEFAULTS,
  PREFLIGHT_RULES,
  type PreflightOptions,
  type PreflightTarget,
  type PreflightRun,
  type PreflightDiagnostic,
} from "./preflight/index.js";
