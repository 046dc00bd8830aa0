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
 * Whether two values a diagnostic carries (`expected`, `received`) have the same JSON text: the
 * same value, or arrays and plain objects of such values with the same keys in the same order, at
 * most {@link SAME_DEPTH} levels deep and {@link SAME_SIZE} entries wide (beyond: not known, false).
 */
function sameJson(a: unknown, b: unknown, depth = 0): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null || depth >= SAME_DEPTH) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length || a.length > SAME_SIZE) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i], depth + 1)) return false;
    return true;
  }
  // only plain objects: anything else may have a toJSON of its own
  if (Array.isArray(b) || !isPlainObject(a) || !isPlainObject(b)) return false;
  const keys = Object.keys(a);
  const others = Object.keys(b);
  if (keys.length !== others.length || keys.length > SAME_SIZE) return false;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (
      key !== others[i] ||
      !sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], depth + 1)
    )
      return false;
  }
  return true;
}

const SAME_DEPTH = 4;
const SAME_SIZE = 64;

function isPlainObject(v: object): boolean {
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/**
 * A diagnostic's JSON, remembered by its message: the messages a validator remembers come back
 * payload after payload with the same `expected` and `received` (the same objects, or new ones of
 * the same JSON: sameJson), so their text is written once (JSON.stringify of a diagnostic costs
 * ~1 us on Node 20). Any field that differs, and the diagnostic is stringified afresh.
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
      sameJson(seen.d.expected, d.expected) &&
      sameJson(seen.d.received, d.received) &&
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
  const plain = plainTexts(quote);
  return (r) => {
    if (isPlain(r)) return plain.head(r.source) + r.line + plain.tail(r.model, r.endpoint);
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

/** A valid result without findings: most of a log's, written from {@link plainTexts}. */
function isPlain(r: LintResult): boolean {
  return r.diagnostics.length === 0 && r.valid && r.findings === undefined;
}

/**
 * A plain result's text is its source's head, its line and its (model, endpoint)'s tail: the two
 * texts made once per source and per pair (the catalog's few strings; bounded all the same).
 */
function plainTexts(quote: (text: string | null) => string): {
  head(source: string): string;
  tail(model: string | null, endpoint: string | null): string;
} {
  let source: string | undefined;
  let head = "";
  const tails = new Map<string | null, Map<string | null, string>>();
  return {
    head(s) {
      if (s !== source) {
        source = s;
        head = `,\n{"source":${quote(s)},"line":`;
      }
      return head;
    },
    tail(model, endpoint) {
      let byEndpoint = tails.get(model);
      if (byEndpoint === undefined) {
        if (tails.size >= 1024) tails.clear();
        tails.set(model, (byEndpoint = new Map()));
      }
      let text = byEndpoint.get(endpoint);
      if (text === undefined) {
        text = `,"model":${quote(model)},"endpoint":${quote(endpoint)},"valid":true,"diagnostics":[]}`;
        if (byEndpoint.size >= 1024) byEndpoint.clear();
        byEndpoint.set(endpoint, text);
      }
      return text;
    },
  };
}

/** UTF-8 of the few texts a plain result is made of, remembered by the text (its hash is kept in the string: plainTexts hands back the same ones). */
function encoder(): (text: string) => Buffer {
  const known = new Map<string, Buffer>();
  return (text) => {
    let bytes = known.get(text);
    if (bytes === undefined) {
      bytes = Buffer.from(text, "utf8");
      if (known.size >= 1024) known.clear();
      known.set(text, bytes);
    }
    return bytes;
  };
}

/** The length of the separator each rendered result starts with (`,\n`): the first result's is the head. */
const SEPARATOR = 2;

/**
 * Writes a result as it follows another in `results` (`,\n` and its JSON, as {@link jsonRenderer}
 * renders it) to `out`: a plain result as bytes, its head's and tail's, remembered, with its line's
 * digits between. What the reporter writes after its first result, and what `--jobs` workers write.
 */
export function jsonResultWriter(out: Sink): (r: LintResult) => void | Promise<void> {
  const render = jsonRenderer();
  const plain = plainTexts(quoter());
  const bytes = encoder();
  return (r) =>
    isPlain(r)
      ? out.writeNumbered(bytes(plain.head(r.source)), r.line, bytes(plain.tail(r.model, r.endpoint)))
      : out.write(render(r));
}

export function jsonReporter(out: Sink): Reporter {
  let first = true;
  const render = jsonRenderer();
  const write = jsonResultWriter(out);
  return {
    result(r) {
      if (!first) return write(r);
      first = false;
      return out.write(`${HEAD}\n${render(r).slice(SEPARATOR)}`);
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
