/** `--format json`: the report as it is (schemas/drift-report.schema.json), two-space indented, one line break at the end. */
import { jsonText } from "../../output/index.js";
import type { DriftReport } from "../types.js";

export function formatJson(report: DriftReport): string {
  return jsonText(JSON.stringify(report, null, 2)) + "\n";
}
