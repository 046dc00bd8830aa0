/**
 * The SARIF 2.1.0 JSON schema as Microsoft's SARIF SDK publishes it on the npm registry
 * (`@microsoft/jest-sarif`, MIT: `lib/schemas/sarif-2.1.0-rtm.5.json`, schemastore's copy of the
 * 2.1.0 schema, which OASIS approved as the standard; Errata 01 later added `"type": "string"`
 * beside ten enums, which every string vsk writes already is), compiled once with Ajv for the
 * tests of `--format sarif`. It is draft-04 (`id`), using no keyword whose meaning changed since:
 * Ajv's draft-07 validator reads it with `id` as `$id`, and ajv-formats checks `uri`,
 * `uri-reference` and `date-time`. No copy is committed: the devDependency brings it.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import { expect } from "vitest";

export const SARIF_SCHEMA_FILE = createRequire(import.meta.url).resolve(
  "@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json",
);

export const sarifSchema = JSON.parse(readFileSync(SARIF_SCHEMA_FILE, "utf8")) as Record<string, unknown>;

// draft-04's `id` is draft-06's `$id`; its `$schema` (draft-04's meta-schema) is one Ajv 8 does not ship
const { id, $schema: _draft, ...rest } = sarifSchema as { id: string; $schema: string };
// its `language` pattern (`…[a-zA-Z]{2}]?$`) is valid ECMA-262 only without the `u` flag Ajv adds by default
const ajv = new Ajv({ allErrors: true, strict: false, validateSchema: false, unicodeRegExp: false });
addFormats.default(ajv);
export const validateSarif = ajv.compile({ $id: id, ...rest });

/** SARIF's types as far as the tests read them. */
export interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: "error" | "warning" | "note";
  message: { text: string };
  locations: Array<{
    physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number; startColumn?: number } };
  }>;
  partialFingerprints: Record<string, string>;
  suppressions?: Array<{ kind: string; justification?: string }>;
  properties: Record<string, any>;
}
export interface SarifLog {
  $schema: string;
  version: string;
  runs: Array<{
    tool: {
      driver: {
        name: string;
        version: string;
        informationUri: string;
        rules: Array<{ id: string; help: { text: string }; helpUri: string; shortDescription: { text: string } }>;
      };
    };
    results: SarifResult[];
    invocations?: Array<Record<string, any>>;
    properties?: Record<string, any>;
  }>;
}

/** Parses a SARIF log (stdout is exactly one JSON value) and checks it against the official schema. */
export function sarifLog(text: string): SarifLog {
  const log = JSON.parse(text) as SarifLog;
  const ok = validateSarif(log);
  expect(ok ? [] : validateSarif.errors).toEqual([]);
  // what the schema leaves open and code scanning needs: every rule a result names is listed, at its index
  for (const run of log.runs) {
    expect(run.tool.driver.name).toBe("vsk");
    for (const r of run.results) expect(run.tool.driver.rules[r.ruleIndex]!.id).toBe(r.ruleId);
    expect(new Set(run.tool.driver.rules.map((r) => r.id)).size).toBe(run.tool.driver.rules.length);
  }
  return log;
}

/** A GitHub heading's anchor: lower case, punctuation but `-` and `_` dropped, spaces as `-`. */
export function githubAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The anchors of a Markdown page: its headings, and its explicit `<a id>` anchors. */
export function anchorsOf(markdown: string): Set<string> {
  return new Set([
    ...[...markdown.matchAll(/^#{1,6} (.+)$/gm)].map((m) => githubAnchor(m[1]!)),
    // explicit anchors (docs/drift-changes.md: one per change id)
    ...[...markdown.matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1]!),
  ]);
}
