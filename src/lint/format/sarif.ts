/**
 * `--format sarif`: a SARIF 2.1.0 log (issue 42.1) for GitHub code scanning (`upload-sarif`) and
 * every other SARIF viewer. One result per finding: `ruleId` the diagnostic's rule, `level` its
 * severity, the location the file (relative, `/`) at the line and column `--format json` reports,
 * `partialFingerprints` from what the finding is (file, payload line, model, endpoint, rule,
 * pointer), never from where or in which order the run happened. Streamed: the results are written
 * as they come, `tool.driver.rules` (the rules used, with help and a docs link) at the end. The
 * totals (and `--summary`'s tables) are the run's `properties.summary`. Messages and data are
 * redacted where the diagnostics are made, before anything is serialized, as in every format.
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
import type { LintDiagnostic, LintResult, Reporter } from "../lint.js";
import { ruleHelp } from "./sarif-rules.js";
import type { Sink } from "./sink.js";

/** The key of our fingerprint in `partialFingerprints` (versioned: a change to what it hashes is a new key). */
export const LINT_FINGERPRINT = "vskLintFinding/v1";

const HEAD = `{"$schema":${JSON.stringify(SARIF_SCHEMA)},"version":${JSON.stringify(SARIF_VERSION)},"runs":[{"results":[`;

const level = (d: LintDiagnostic): SarifLevel => (d.severity === "error" ? "error" : "warning");

/** Where the run's relative file names start, and where the log's URIs start (src/escape/sarif.ts). */
export interface SarifPlace {
  cwd: string;
  root: string;
}

export function sarifReporter(out: Sink, place?: SarifPlace): Reporter {
  const cwd = place?.cwd ?? process.cwd();
  const root = place?.root ?? sarifRoot(cwd);
  let first = true;
  const rules = new Map<string, { index: number; level: SarifLevel }>();
  const uris = new Map<string, string>();
  return {
    result(r: LintResult) {
      if (r.diagnostics.length === 0) return;
      let uri = uris.get(r.source);
      if (uri === undefined) {
        uri = sarifUri(r.source, cwd, root);
        if (uris.size < 1024) uris.set(r.source, uri);
      }
      let text = "";
      // how often each fingerprint's parts were seen in this payload (the only place two findings
      // can share them): a second identical finding is told apart by its ordinal
      const seen = new Map<string, number>();
      for (const d of r.diagnostics) {
        let rule = rules.get(d.rule);
        if (rule === undefined) rules.set(d.rule, (rule = { index: rules.size, level: level(d) }));
        const parts = [uri, r.line, r.model, r.endpoint, d.rule, d.pointer];
        const key = JSON.stringify(parts);
        const ordinal = seen.get(key) ?? 0;
        seen.set(key, ordinal + 1);
        const region: Record<string, number> = { startLine: d.line ?? r.line };
        if (d.column !== undefined) region.startColumn = d.column;
        const result = {
          ruleId: d.rule,
          ruleIndex: rule.index,
          level: level(d),
          message: { text: d.message },
          locations: [{ physicalLocation: { artifactLocation: { uri }, region } }],
          partialFingerprints: { [LINT_FINGERPRINT]: sarifFingerprint([...parts, ordinal]) },
          properties: { pointer: d.pointer, model: r.model, endpoint: r.endpoint },
        };
        text += `${first ? `${HEAD}\n` : ",\n"}${jsonText(JSON.stringify(result))}`;
        first = false;
      }
      return out.write(text);
    },
    async end(summary) {
      const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as object;
      const tool = sarifTool(pkg);
      const driverRules: SarifRule[] = [...rules].map(([id, { level }]) => {
        const help = ruleHelp(id);
        return {
          id,
          shortDescription: { text: help.short },
          help: { text: help.help },
          helpUri: tool.docsBase + help.doc,
          defaultConfiguration: { level },
        };
      });
      const tail = {
        tool: sarifDriver(tool, "video-schema-kit vsk lint", driverRules),
        columnKind: "utf16CodeUnits",
        properties: { summary },
      };
      // the run's other keys after its results: `{"results":[…],"tool":…}`
      await out.write(`${first ? HEAD : ""}\n],${jsonText(JSON.stringify(tail)).slice(1)}]}\n`);
      await out.flush();
    },
  };
}
