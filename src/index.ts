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
// from lint's own modules, not its index: that one also exports the CLI's node-stream readers,
// whose declarations need Node's types (issue 30.10: this entry's .d.ts compiles without them)
export { Linter, type LintResult, type LintSummary } from "./lint/lint.js";
export { openRegistry } from "./lint/registry.js";
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
