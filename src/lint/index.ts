/**
 * Stage 5 (report) for request payloads: read JSON / NDJSON / stdin, find each payload's
 * endpoint, run the generated validator, report in the service's own vocabulary (spec 7.2).
 */
export { runLint, LintUsageError, LintExit, type LintOptions, type LintNote, type LintRun } from "./run.js";
export {
  DEFAULT_MAX_FINDINGS,
  MAX_FINDINGS_LIMIT,
  type FindingTotals,
  Linter,
  MORE_FINDINGS_RULE,
  type LintResult,
  type LintSummary,
  type Reporter,
  type LineJobs,
} from "./lint.js";
export {
  describeEndpoints,
  resolvePayload,
  resolveTarget,
  type EndpointCatalog,
  type LintTarget,
  type ResolvedPayload,
  type UnresolvedPayload,
} from "./resolve.js";
export {
  readSingleJson,
  DEFAULT_MAX_LINE_BYTES,
  type PayloadHandler,
  type ReadOptions,
  type ReadWarning,
  type PayloadSource,
  type ReadProblem,
} from "./decode.js";
export { readNdjson, readLine, type LineSink } from "./ndjson.js";
export {
  defaultJobs,
  LintJobs,
  LintWorkerError,
  INLINE_LINES,
  DEFAULT_JOBS_CAP,
  MAX_JOBS,
  MIN_REMAINING_BYTES,
  AUTO_MIN_REMAINING_BYTES,
} from "./jobs.js";
export { decompressed, payloadExtension } from "./compressed.js";
export { expandInputs, isNdjsonPath, openFile, InputError } from "./inputs.js";
export {
  openRegistry,
  generatedDirFor,
  RegistryError,
  type ValidatorRegistry,
  type EndpointEntry,
} from "./registry.js";
export { buildLintCache, lintCacheDir } from "./compiled.js";
export {
  Sink,
  jsonReporter,
  LINT_REPORT_SCHEMA,
  LINT_REPORT_VERSION,
  prettyReporter,
  githubReporter,
  markdownReporter,
  summaryLine,
  withSummary,
  FORMATS,
  FORMAT_NAMES,
  formatChoices,
  invalidOnly,
  DEFAULT_MAX_ANNOTATIONS,
  isFormat,
  type FormatName,
  type FormatContext,
  type LintFormat,
  type SummaryMode,
  type DetailedSummary,
  type SummaryTables,
} from "./format/index.js";
export { sarifReporter, LINT_FINGERPRINT, type SarifPlace } from "./format/index.js";
export { progressText, type LintProgress } from "./progress.js";
export type { LintPreflight } from "./preflight.js";
