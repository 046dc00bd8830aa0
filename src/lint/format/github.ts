/** `--format github`: Actions annotations, and a Markdown summary appended to `$GITHUB_STEP_SUMMARY`. */
import { appendFileSync } from "node:fs";
import { githubData, githubProperty, markdownCode, markdownText, terminalText } from "../../output/index.js";
import type { Reporter } from "../lint.js";
import type { Sink } from "./sink.js";
import { summaryLine } from "./summary.js";

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
