/** `--format github`: Actions annotations, and a Markdown summary appended to `$GITHUB_STEP_SUMMARY`. */
import { fieldLabel } from "../../diagnostics/index.js";
import { githubData, githubFile, githubProperty, terminalText } from "../../escape/index.js";
import type { Reporter } from "../lint.js";
import { markdownDocument } from "./markdown.js";
import type { Sink } from "./sink.js";
import { hasTables, summaryLine, summaryText } from "./summary.js";

/** GitHub shows at most 10 errors and 10 warnings per step and 50 annotations per job: more is noise in the log. */
export const DEFAULT_MAX_ANNOTATIONS = 50;

/**
 * An annotation's text: the message, which names its field (`aspectratio: is not a field…`; an
 * envelope's pointer has `/input` before it), else the pointer before it (issue 42.3).
 */
function annotationText(pointer: string, message: string): string {
  const named = [pointer, pointer.replace(/^\/input(?=\/|$)/, "")].some(
    (p) => p !== "" && message.startsWith(`${fieldLabel(p)}:`),
  );
  return named ? message : `${pointer || "/"}: ${message}`;
}

/**
 * `::error file=…,line=…::…` annotations, and a Markdown summary handed to `stepSummary` (the CLI
 * appends it to `$GITHUB_STEP_SUMMARY`, the Action keeps it for its job summary and comment).
 */
export function githubReporter(
  out: Sink,
  stepSummary: ((markdown: string) => void) | undefined,
  maxAnnotations = DEFAULT_MAX_ANNOTATIONS,
): Reporter {
  const doc = markdownDocument();
  let annotated = 0;
  let unannotated = 0;
  return {
    result(r) {
      if (r.diagnostics.length === 0) return;
      let text = "";
      for (const d of r.diagnostics) {
        const kind = d.severity === "error" ? "error" : "warning";
        if (annotated >= maxAnnotations) unannotated++;
        else {
          annotated++;
          text += `::${kind} file=${githubFile(r.source)},line=${d.line ?? r.line}${d.column === undefined ? "" : `,col=${d.column}`},title=${githubProperty(terminalText(`vsk lint ${d.rule}`))}::${githubData(terminalText(annotationText(d.pointer, d.message)))}\n`;
        }
      }
      doc.result(r);
      return out.write(text);
    },
    async end(summary) {
      if (unannotated > 0)
        await out.write(
          `::notice title=vsk lint::${unannotated} more finding${unannotated === 1 ? "" : "s"} not annotated (--max-annotations ${maxAnnotations}); --format json lists every finding\n`,
        );
      // --summary: the tables in the log as plain text (each line starts with a number or a
      // space, never with data), and in the step summary as Markdown
      if (hasTables(summary)) await out.write(summaryText(summary));
      await out.write(summaryLine(summary) + "\n");
      await out.flush();
      if (stepSummary === undefined) return;
      stepSummary(doc.text(summary));
    },
  };
}
