/**
 * `--format json`: the report as it is, two-space indented, one line break at the end; it opens
 * with `$schema` (schemas/drift-report.schema.json) and `schemaVersion`, raised on any change a
 * consumer must know of (issue 30.8).
 */
import { jsonText, reportSchemaId } from "../../escape/index.js";
import type { DriftReport } from "../types.js";

export const DRIFT_REPORT_SCHEMA = reportSchemaId("drift-report");
export const DRIFT_REPORT_VERSION = 1;

export function formatJson(report: DriftReport): string {
  const document = { $schema: DRIFT_REPORT_SCHEMA, schemaVersion: DRIFT_REPORT_VERSION, ...report };
  return jsonText(JSON.stringify(document, null, 2)) + "\n";
}
