/**
 * Stage 5 (report) for schema drift: compares each model's source `latest.json` with the
 * committed snapshot, per endpoint and direction, and classifies every change with the table
 * in `table/` (breaking / behavior / unclassified / safe / docs), with both sides' JSON
 * Pointers and, where one exists, a concrete example payload.
 */
export type {
  AcceptedChange,
  Change,
  Direction,
  DriftReport,
  DriftSummary,
  FailOn,
  ModelReport,
  ModelStatus,
  RequestImpact,
  ChangeSeverity,
} from "./types.js";
export { SEVERITY_ORDER, DIRECTION_ORDER } from "./types.js";
export {
  CHANGE_CATALOGUE,
  CHANGE_KINDS,
  catalogueEntry,
  changeIdOf,
  changeKind,
  keywordName,
  type CatalogueEntry,
  type ChangeKind,
  type ChangeKindName,
  type ExampleStrategy,
} from "./table/index.js";
export { changeCataloguePage } from "./catalogue-page.js";
export { diffModels, diffEndpoint, type Finding } from "./diff/index.js";
export { classify, classifyModel, fieldPathLabel } from "./classify.js";
export { compareModel, type ModelComparison } from "./compare.js";
export {
  ACCEPT_FILE,
  AcceptFileError,
  applyAccepted,
  parseAcceptEntries,
  readAcceptFile,
  type AcceptEntry,
} from "./accept.js";
export { buildReport, FAIL_LEVELS, FAIL_ON, sortChanges } from "./report.js";
export { checkRequests, type ModelProblem, type RequestReading, type RequestTarget } from "./requests.js";
export { formatText } from "./format/text.js";
export { formatMarkdown } from "./format/markdown.js";
export { formatGithub } from "./format/github.js";
export { formatSarif, DRIFT_FINGERPRINT } from "./format/sarif.js";
export { formatJson, DRIFT_REPORT_SCHEMA, DRIFT_REPORT_VERSION } from "./format/json.js";
export { FORMATS, FORMAT_NAMES, type DriftFormat, type FormatName } from "./format/formats.js";
export { runDrift, type DriftOptions, type DriftRun } from "./run.js";
export { DriftStageError, DriftUsageError } from "./errors.js";
export { updateSnapshot } from "./update.js";
