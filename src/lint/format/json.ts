/**
 * `--format json`: one object for machines, streamed so a million results never sit in memory. It
 * opens with `$schema` (schemas/lint-report.schema.json) and `schemaVersion`, raised on any change
 * a consumer must know of (issue 30.8).
 */
import { jsonText, reportSchemaId } from "../../escape/index.js";
import type { LintDiagnostic, LintResult, Reporter } from "../lint.js";
import type { Sink } from "./sink.js";

/** `JSON.stringify` of the few strings that repeat on every result (sources, model ids, endpoints), remembered. */
function quoter(): (text: string | null) => string {
  const known = new Map<string, string>();
  return (text) => {
    if (text === null) return "null";
    let quoted = known.get(text);
    if (quoted === undefined) {
      quoted = jsonText(JSON.stringify(text));
      if (known.size < 1024) known.set(text, quoted);
    }
    return quoted;
  };
}

/**
 * A diagnostic's JSON, remembered by its message: the messages a validator remembers come back
 * payload after payload with the same `expected` and `received` (the same objects), so their
 * text is written once. Any field that differs, and the diagnostic is stringified afresh.
 */
function diagnosticWriter(): (d: LintDiagnostic) => string {
  const known = new Map<string, { d: LintDiagnostic; keys: number; json: string }>();
  return (d) => {
    const seen = known.get(d.message);
    if (
      seen !== undefined &&
      seen.d.pointer === d.pointer &&
      seen.d.rule === d.rule &&
      seen.d.severity === d.severity &&
      seen.d.expected === d.expected &&
      seen.d.received === d.received &&
      seen.d.line === d.line &&
      seen.d.column === d.column &&
      Object.keys(d).length === seen.keys
    )
      return seen.json;
    const json = jsonText(JSON.stringify(d));
    if (known.size >= 4096) known.clear();
    known.set(d.message, { d, keys: Object.keys(d).length, json });
    return json;
  };
}

export const LINT_REPORT_SCHEMA = reportSchemaId("lint-report");
export const LINT_REPORT_VERSION = 1;

/** The report's first keys, up to the opening of `results`. */
const HEAD = `{"$schema":${JSON.stringify(LINT_REPORT_SCHEMA)},"schemaVersion":${LINT_REPORT_VERSION},"results":[`;

/**
 * A result's text as it follows another in `results`: `,\n` and its JSON, written by hand in
 * JSON.stringify's key order (source, line, model, endpoint, valid, diagnostics): the same text
 * as JSON.stringify(r), with the repeated parts remembered. Also what `--jobs` workers render.
 */
export function jsonRenderer(): (r: LintResult) => string {
  const quote = quoter();
  const diagnosticJson = diagnosticWriter();
  return (r) => {
    let diagnostics = "";
    for (let i = 0; i < r.diagnostics.length; i++)
      diagnostics += (i === 0 ? "" : ",") + diagnosticJson(r.diagnostics[i]!);
    // a payload whose findings were capped (--max-findings-per-request) says its totals
    const findings =
      r.findings === undefined
        ? ""
        : `,"findings":{"total":${r.findings.total},"errors":${r.findings.errors},"warnings":${r.findings.warnings}}`;
    return `,\n{"source":${quote(r.source)},"line":${r.line},"model":${quote(r.model)},"endpoint":${quote(r.endpoint)},"valid":${r.valid},"diagnostics":[${diagnostics}]${findings}}`;
  };
}

/** The length of the separator each rendered result starts with (`,\n`): the first result's is the head. */
const SEPARATOR = 2;

export function jsonReporter(out: Sink): Reporter {
  let first = true;
  const render = jsonRenderer();
  return {
    result(r) {
      const text = render(r);
      if (!first) return out.write(text);
      first = false;
      return out.write(`${HEAD}\n${text.slice(SEPARATOR)}`);
    },
    async batch({ text }) {
      if (text.length === 0) return;
      if (first) {
        first = false;
        await out.write(`${HEAD}\n`);
        text = text.subarray(SEPARATOR);
      }
      await out.writeBytes(text);
    },
    async end(summary) {
      await out.write(`${first ? HEAD : "\n"}],\n"summary":${jsonText(JSON.stringify(summary))}}\n`);
      await out.flush();
    },
  };
}
