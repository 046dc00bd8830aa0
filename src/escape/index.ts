/**
 * What every report shares: escaping for the format a data-derived string lands in (terminal,
 * GitHub workflow commands, Markdown, JSON, HTML), and the ids of the published report schemas.
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
} from "./escape.js";
export { reportSchemaId, SCHEMA_HOST } from "./schema-ids.js";
