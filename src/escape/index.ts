/**
 * What every report shares: escaping for the format a data-derived string lands in (terminal,
 * GitHub workflow commands, Markdown, JSON, HTML), the ids of the published report schemas, and
 * the SARIF frame lint's and drift's `--format sarif` share.
 */
export {
  githubData,
  githubFile,
  githubProperty,
  htmlText,
  jsonText,
  markdownCode,
  markdownText,
  terminalText,
  hasUnsafe,
} from "./escape.js";
export { reportSchemaId, SCHEMA_HOST } from "./schema-ids.js";
export {
  DOCS_BASE,
  SARIF_SCHEMA,
  SARIF_VERSION,
  sarifDriver,
  sarifFingerprint,
  sarifTool,
  sarifRoot,
  sarifUri,
  workspacePath,
  type PackageInfo,
  type SarifLevel,
  type SarifRule,
  type SarifTool,
} from "./sarif.js";
