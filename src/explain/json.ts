/**
 * `vsk explain --format json`: the explanation, two-space indented, opening with `$schema`
 * (schemas/explain.schema.json) and `schemaVersion`, raised on any change a consumer must know of (issue 30.8).
 */
import { jsonText, reportSchemaId } from "../escape/index.js";
import type { Explanation } from "./explanation.js";

export const EXPLAIN_SCHEMA = reportSchemaId("explain");
export const EXPLAIN_VERSION = 1;

export function explanationJson(explanation: Explanation): string {
  const document = { $schema: EXPLAIN_SCHEMA, schemaVersion: EXPLAIN_VERSION, ...explanation };
  return jsonText(JSON.stringify(document, null, 2)) + "\n";
}
