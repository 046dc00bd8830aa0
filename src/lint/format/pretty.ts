/** `--format pretty` (the default): for people, grouped per payload, colour on a terminal. */
import { terminalText } from "../../escape/index.js";
import type { LintResult, Reporter } from "../lint.js";
import type { Sink } from "./sink.js";
import { hasTables, summaryLine, summaryText } from "./summary.js";

const COLORS = {
  red: "\u001b[31m",
  yellow: "\u001b[33m",
  dim: "\u001b[2m",
  bold: "\u001b[1m",
  green: "\u001b[32m",
  reset: "\u001b[0m",
};

/** Our colours, or none. */
function painter(color: boolean): (c: keyof typeof COLORS, text: string) => string {
  return (c, text) => (color ? `${COLORS[c]}${text}${COLORS.reset}` : text);
}

/**
 * A result's text: `file:line  pointer  message` per diagnostic under its payload's line; a valid
 * one only with `--show-valid` (else ""). File names, pointers and messages are data: escaped
 * before our own colour is added. Also what `--jobs` workers render.
 */
export function prettyRenderer(color: boolean, showValid: boolean): (r: LintResult) => string {
  const paint = painter(color);
  return (r) => {
    if (r.diagnostics.length === 0)
      return showValid ? `${paint("dim", `${terminalText(r.source)}:${r.line}`)}  ${paint("green", "valid")}\n` : "";
    const source = terminalText(r.source);
    const what =
      r.model !== null && r.endpoint !== null ? terminalText(`${r.model}/${r.endpoint}`) : "(unknown endpoint)";
    const lines = [
      `${paint("bold", `${source}:${r.line}`)}  ${paint("dim", what)}  ${r.valid ? paint("yellow", "warnings") : paint("red", "invalid")}`,
    ];
    for (const d of r.diagnostics) {
      const tag = d.severity === "error" ? paint("red", "error  ") : paint("yellow", "warning");
      lines.push(
        `  ${tag} ${source}:${d.line === undefined ? r.line : `${d.line}:${d.column}`}  ${terminalText(d.pointer === "" ? "/" : d.pointer)}  ${terminalText(d.message)}  ${paint("dim", terminalText(d.rule))}`,
      );
    }
    return lines.join("\n") + "\n\n";
  };
}

/** `--format pretty`: the results grouped per payload, then (`--summary`) the summary tables and a one-line summary. */
export function prettyReporter(out: Sink, color: boolean, showValid: boolean): Reporter {
  const paint = painter(color);
  const render = prettyRenderer(color, showValid);
  return {
    result(r) {
      const text = render(r);
      return text === "" ? undefined : out.write(text);
    },
    batch: ({ text }) => out.writeBytes(text),
    async end(summary) {
      if (hasTables(summary)) await out.write(summaryText(summary));
      const line = summaryLine(summary);
      await out.write(`${summary.invalid > 0 ? paint("red", line) : paint("green", line)}\n`);
      await out.flush();
    },
  };
}
