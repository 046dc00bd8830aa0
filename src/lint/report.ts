/**
 * Lint reporters: `pretty` for people, `json` for machines (one object, streamed so a million
 * results never sit in memory), `github` for Actions annotations and the step summary.
 */
import { appendFileSync } from "node:fs";
import { githubData, githubProperty, jsonText, markdownCode, markdownText, terminalText } from "../output/index.js";
import type { Diagnostic } from "../diagnostics/index.js";
import type { LintResult, LintSummary, Reporter } from "./lint.js";

/** Buffered writes to a stream, waiting for it to drain: fast for a million small writes. */
export class Sink {
  private buffer = "";
  constructor(private readonly stream: NodeJS.WritableStream) {}
  write(text: string): void | Promise<void> {
    this.buffer += text;
    if (this.buffer.length >= 1 << 16) return this.flush();
  }
  flush(): void | Promise<void> {
    if (this.buffer === "") return;
    const ok = this.stream.write(this.buffer);
    this.buffer = "";
    if (!ok) return new Promise((resolve) => this.stream.once("drain", () => resolve()));
  }
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

export function summaryLine(s: LintSummary): string {
  return `${plural(s.requests, "request")}: ${s.valid} valid, ${s.invalid} invalid, ${plural(s.warnings, "warning")}`;
}

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
function diagnosticWriter(): (d: Diagnostic) => string {
  const known = new Map<string, { d: Diagnostic; keys: number; json: string }>();
  return (d) => {
    const seen = known.get(d.message);
    if (
      seen !== undefined &&
      seen.d.pointer === d.pointer &&
      seen.d.rule === d.rule &&
      seen.d.severity === d.severity &&
      seen.d.expected === d.expected &&
      seen.d.received === d.received &&
      Object.keys(d).length === seen.keys
    )
      return seen.json;
    const json = jsonText(JSON.stringify(d));
    if (known.size >= 4096) known.clear();
    known.set(d.message, { d, keys: Object.keys(d).length, json });
    return json;
  };
}

export function jsonReporter(out: Sink): Reporter {
  let first = true;
  const quote = quoter();
  const diagnosticJson = diagnosticWriter();
  return {
    result(r) {
      // written by hand, in JSON.stringify's key order (source, line, model, endpoint, valid,
      // diagnostics): the same text as JSON.stringify(r), with the repeated parts remembered
      let diagnostics = "";
      for (let i = 0; i < r.diagnostics.length; i++)
        diagnostics += (i === 0 ? "" : ",") + diagnosticJson(r.diagnostics[i]!);
      const json = `{"source":${quote(r.source)},"line":${r.line},"model":${quote(r.model)},"endpoint":${quote(r.endpoint)},"valid":${r.valid},"diagnostics":[${diagnostics}]}`;
      const text = (first ? '{"results":[\n' : ",\n") + json;
      first = false;
      return out.write(text);
    },
    async end(summary) {
      await out.write(`${first ? '{"results":[' : "\n"}],\n"summary":${JSON.stringify(summary)}}\n`);
      await out.flush();
    },
  };
}

const COLORS = {
  red: "\u001b[31m",
  yellow: "\u001b[33m",
  dim: "\u001b[2m",
  bold: "\u001b[1m",
  green: "\u001b[32m",
  reset: "\u001b[0m",
};

/**
 * `file:line  pointer  message`, grouped per payload, then a one-line summary. File names,
 * pointers and messages are data: escaped before our own colour is added.
 */
export function prettyReporter(out: Sink, color: boolean, showValid: boolean): Reporter {
  const paint = (c: keyof typeof COLORS, text: string) => (color ? `${COLORS[c]}${text}${COLORS.reset}` : text);
  return {
    result(r) {
      if (r.diagnostics.length === 0)
        return showValid
          ? out.write(`${paint("dim", `${terminalText(r.source)}:${r.line}`)}  ${paint("green", "valid")}\n`)
          : undefined;
      const source = terminalText(r.source);
      const what =
        r.model !== null && r.endpoint !== null ? terminalText(`${r.model}/${r.endpoint}`) : "(unknown endpoint)";
      const lines = [
        `${paint("bold", `${source}:${r.line}`)}  ${paint("dim", what)}  ${r.valid ? paint("yellow", "warnings") : paint("red", "invalid")}`,
      ];
      for (const d of r.diagnostics) {
        const tag = d.severity === "error" ? paint("red", "error  ") : paint("yellow", "warning");
        lines.push(
          `  ${tag} ${source}:${r.line}  ${terminalText(d.pointer === "" ? "/" : d.pointer)}  ${terminalText(d.message)}  ${paint("dim", terminalText(d.rule))}`,
        );
      }
      return out.write(lines.join("\n") + "\n\n");
    },
    async end(summary) {
      const line = summaryLine(summary);
      await out.write(`${summary.invalid > 0 ? paint("red", line) : paint("green", line)}\n`);
      await out.flush();
    },
  };
}

const SUMMARY_ROWS = 100;

/** `::error file=…,line=…::…` annotations, and a Markdown summary appended to `$GITHUB_STEP_SUMMARY`. */
export function githubReporter(out: Sink, stepSummary: string | undefined): Reporter {
  const rows: string[] = [];
  let more = 0;
  return {
    result(r) {
      if (r.diagnostics.length === 0) return;
      let text = "";
      for (const d of r.diagnostics) {
        const kind = d.severity === "error" ? "error" : "warning";
        text += `::${kind} file=${githubProperty(terminalText(r.source))},line=${r.line},title=${githubProperty(terminalText(`vsk lint ${d.rule}`))}::${githubData(terminalText(`${d.pointer || "/"}: ${d.message}`))}\n`;
        if (rows.length < SUMMARY_ROWS)
          rows.push(
            `| ${kind} | ${markdownCode(`${r.source}:${r.line}`)} | ${markdownCode(d.pointer || "/")} | ${markdownText(d.message)} |`,
          );
        else more++;
      }
      return out.write(text);
    },
    async end(summary) {
      await out.write(summaryLine(summary) + "\n");
      await out.flush();
      if (stepSummary === undefined || stepSummary === "") return;
      const md = [
        `### vsk lint: ${summary.invalid === 0 ? "all requests valid" : `${summary.invalid} invalid request${summary.invalid === 1 ? "" : "s"}`}`,
        "",
        `${summaryLine(summary)}.`,
        "",
        ...(rows.length > 0
          ? [
              "| severity | where | field | message |",
              "| --- | --- | --- | --- |",
              ...rows,
              ...(more > 0 ? [`| … | ${more} more | | |`] : []),
              "",
            ]
          : []),
      ].join("\n");
      try {
        appendFileSync(stepSummary, md + "\n");
      } catch (error) {
        process.stderr.write(
          `vsk: could not append to GITHUB_STEP_SUMMARY (${(error as NodeJS.ErrnoException).code ?? String(error)})\n`,
        );
      }
    },
  };
}
