/**
 * `--format sarif`: the drift report as a SARIF 2.1.0 log (issue 42.1) for GitHub code scanning.
 * One result per change: `ruleId` is the change's `id` as `--format json` gives it
 * (`request-property-enum-value-removed`), `level` from its severity (breaking → error; behavior
 * and unclassified, the potentially breaking, → warning; safe and docs → note), located at the
 * model's snapshot file (line 1: a change is between the published schema and the snapshot, not at
 * a line of it). Accepted changes are results too, with an external suppression giving the accept
 * file's reason. A model that could not be compared, and a problem of the accept file, are tool
 * notifications of the run's invocation (`executionSuccessful` false for exit 3). Every value was
 * redacted by the run before it reaches a format.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_ROOT } from "../../config/index.js";
import {
  jsonText,
  SARIF_SCHEMA,
  SARIF_VERSION,
  sarifDriver,
  sarifFingerprint,
  sarifRoot,
  sarifTool,
  sarifUri,
  type SarifLevel,
  type SarifRule,
} from "../../escape/index.js";
import { catalogueEntry } from "../table/index.js";
import type { AcceptedChange, Change, ChangeSeverity, DriftReport } from "../types.js";
import { pointerText, verdict } from "./shared.js";

/** The key of our fingerprint in `partialFingerprints`. */
export const DRIFT_FINGERPRINT = "vskDriftChange/v1";

export const LEVEL: Record<ChangeSeverity, SarifLevel> = {
  breaking: "error",
  behavior: "warning",
  unclassified: "warning",
  safe: "note",
  docs: "note",
};

/** The catalogue's description, its placeholders (`*field*`) as plain words. */
const plain = (text: string): string => text.replace(/\*([^*]+)\*/g, "<$1>");

/**
 * `files` maps a model id to its snapshot file, relative to `place.cwd`; the URIs start at
 * `place.root` (default: `$GITHUB_WORKSPACE` when the current directory is inside it, src/escape/sarif.ts).
 */
export function formatSarif(
  report: DriftReport,
  files: ReadonlyMap<string, string> = new Map(),
  place?: { cwd: string; root: string },
): string {
  const cwd = place?.cwd ?? process.cwd();
  const root = place?.root ?? sarifRoot(cwd);
  const tool = sarifTool(JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as object);
  const rules = new Map<string, { index: number; rule: SarifRule }>();
  const seen = new Map<string, number>();
  const result = (c: Change, accepted?: AcceptedChange["accepted"]): Record<string, unknown> => {
    let known = rules.get(c.id);
    if (known === undefined) {
      const entry = catalogueEntry(c.id);
      const description = plain(entry?.description ?? c.text);
      const rule: SarifRule = {
        id: c.id,
        shortDescription: { text: description },
        help: {
          text: `${entry?.severity ?? c.severity} (${c.direction}): ${description}. vsk drift compares the published schemas with the committed snapshot; accept a change with a reason in .vsk-drift-accept.json, or take the source as the snapshot with vsk drift --update.`,
        },
        // the id's own row of docs/drift-changes.md (src/drift/catalogue-page.ts anchors each)
        helpUri: `${tool.docsBase}drift-changes.md#${c.id}`,
        defaultConfiguration: { level: LEVEL[entry?.severity ?? c.severity] },
      };
      rules.set(c.id, (known = { index: rules.size, rule }));
    }
    const parts = [c.model, c.endpoint, c.direction, c.id, c.pointer.before, c.pointer.after, c.field];
    const key = JSON.stringify(parts);
    const ordinal = seen.get(key) ?? 0;
    seen.set(key, ordinal + 1);
    const file = files.get(c.model);
    const text = `${c.text} (${c.model} ${c.endpoint} ${c.direction}; ${c.id} at ${pointerText(c) || "/"})${
      c.example !== undefined
        ? `; example: ${JSON.stringify(c.example)}`
        : c.noExample !== undefined
          ? `; ${c.noExample}`
          : ""
    }`;
    return {
      ruleId: c.id,
      ruleIndex: known.index,
      level: LEVEL[c.severity],
      message: { text },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: file === undefined ? "vsk.config.json" : sarifUri(file, cwd, root) },
            region: { startLine: 1 },
          },
          logicalLocations: [{ fullyQualifiedName: `${c.model}/${c.endpoint}`, kind: "function" }],
        },
      ],
      partialFingerprints: { [DRIFT_FINGERPRINT]: sarifFingerprint([...parts, ordinal]) },
      ...(accepted === undefined
        ? {}
        : { suppressions: [{ kind: "external", status: "accepted", justification: accepted.reason }] }),
      properties: {
        changeId: c.id,
        severity: c.severity,
        model: c.model,
        endpoint: c.endpoint,
        direction: c.direction,
        pointer: c.pointer,
        ...(c.field === undefined ? {} : { field: c.field }),
        ...(c.example === undefined ? {} : { example: c.example }),
        ...(accepted?.expires === undefined ? {} : { acceptedUntil: accepted.expires }),
      },
    };
  };
  const results = [...report.changes.map((c) => result(c)), ...report.accepted.map((c) => result(c, c.accepted))];
  const notification = (level: SarifLevel, text: string) => ({ level, message: { text } });
  const problems = report.models.filter((m) => m.status === "missing" || m.status === "error");
  const log = {
    $schema: SARIF_SCHEMA,
    version: SARIF_VERSION,
    runs: [
      {
        tool: sarifDriver(
          tool,
          "video-schema-kit vsk drift",
          [...rules.values()].map((r) => r.rule),
        ),
        invocations: [
          {
            executionSuccessful: report.summary.exitCode !== 3,
            exitCode: report.summary.exitCode,
            toolExecutionNotifications: problems.map((m) =>
              notification("error", `${m.model} ${m.status}: ${m.message ?? m.status}`),
            ),
            toolConfigurationNotifications: report.warnings.map((w) => notification("warning", w)),
          },
        ],
        results,
        properties: {
          source: report.source,
          verdict: verdict(report),
          summary: report.summary,
          // --requests: the payloads each change rejects, as --format json has them (not results: they are not changes)
          ...(report.requests === undefined ? {} : { requests: report.requests }),
        },
      },
    ],
  };
  return jsonText(JSON.stringify(log, null, 2)) + "\n";
}
