/**
 * `--format markdown` (issue 25.3): the results and the summary as one Markdown document, for
 * `$GITHUB_STEP_SUMMARY` and PR comments; the same text the github format appends to
 * `$GITHUB_STEP_SUMMARY`. Data (file names, pointers, rules, messages) is escaped like the drift
 * report (src/escape): code spans or escaped text, never markup, a comment or a live link.
 */
import { markdownCode, markdownText } from "../../escape/index.js";
import type { LintResult, Reporter } from "../lint.js";
import type { Sink } from "./sink.js";
import { hasTables, summaryLine, summaryMarkdown, type DetailedSummary } from "./summary.js";

/** Finding rows listed; a PR comment holds at most 65 536 characters. */
const RESULT_ROWS = 100;

/** Collects finding rows as results stream by; `text` is the document at the end. */
export function markdownDocument(): { result(r: LintResult): void; text(summary: DetailedSummary): string } {
  const rows: string[] = [];
  let more = 0;
  return {
    result(r) {
      for (const d of r.diagnostics) {
        if (rows.length >= RESULT_ROWS) {
          more++;
          continue;
        }
        const kind = d.severity === "error" ? "error" : "warning";
        rows.push(
          `| ${kind} | ${markdownCode(`${r.source}:${d.line === undefined ? r.line : `${d.line}:${d.column}`}`)} | ${markdownCode(d.pointer || "/")} | ${markdownText(d.message)} |`,
        );
      }
    },
    text(summary) {
      return (
        [
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
          ...(hasTables(summary) ? summaryMarkdown(summary) : []),
        ].join("\n") + "\n"
      );
    },
  };
}

export function markdownReporter(out: Sink): Reporter {
  const doc = markdownDocument();
  return {
    result: (r) => doc.result(r),
    async end(summary) {
      await out.write(doc.text(summary));
      await out.flush();
    },
  };
}
