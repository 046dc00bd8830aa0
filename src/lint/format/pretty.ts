/** `--format pretty` (the default): for people, grouped per payload, colour on a terminal. */
import { terminalText } from "../../escape/index.js";
import type { Reporter } from "../lint.js";
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

/**
 * `file:line  pointer  message`, grouped per payload, then (`--summary`) the summary tables and a
 * one-line summary. File names,
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
          `  ${tag} ${source}:${d.line === undefined ? r.line : `${d.line}:${d.column}`}  ${terminalText(d.pointer === "" ? "/" : d.pointer)}  ${terminalText(d.message)}  ${paint("dim", terminalText(d.rule))}`,
        );
      }
      return out.write(lines.join("\n") + "\n\n");
    },
    async end(summary) {
      if (hasTables(summary)) await out.write(summaryText(summary));
      const line = summaryLine(summary);
      await out.write(`${summary.invalid > 0 ? paint("red", line) : paint("green", line)}\n`);
      await out.flush();
    },
  };
}
