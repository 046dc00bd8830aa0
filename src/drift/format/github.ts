/**
 * `--format github`: workflow-command annotations, one per change (errors for breaking, warnings
 * for behavior and unclassified, notices for the rest), and the Markdown report appended to
 * `$GITHUB_STEP_SUMMARY` when it is set.
 */
import type { DriftReport, Severity } from "../types.js";
import { pointerText, verdict } from "./shared.js";

const LEVEL: Record<Severity, "error" | "warning" | "notice"> = {
  breaking: "error",
  behavior: "warning",
  unclassified: "warning",
  safe: "notice",
  docs: "notice",
};

/** Escapes a workflow-command message (GitHub Actions: %, CR, LF). */
function escapeData(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

/** Escapes a workflow-command property value (also `:` and `,`). */
function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

/** `files` maps a model id to its snapshot file (relative to the workspace), the file an annotation points at. */
export function formatGithub(report: DriftReport, files: ReadonlyMap<string, string> = new Map()): string {
  const lines: string[] = [];
  const annotate = (level: string, title: string, message: string, model?: string): void => {
    const file = model === undefined ? undefined : files.get(model);
    const props = [
      ...(file === undefined ? [] : [`file=${escapeProperty(file)}`]),
      `title=${escapeProperty(title)}`,
    ].join(",");
    lines.push(`::${level} ${props}::${escapeData(message)}`);
  };
  for (const m of report.models) {
    if (m.status === "missing" || m.status === "error")
      annotate("error", `Schema drift: ${m.model} ${m.status}`, m.message ?? m.status, m.model);
  }
  for (const c of report.changes) {
    const example = c.example === undefined ? "" : `\nexample: ${JSON.stringify(c.example)}`;
    annotate(
      LEVEL[c.severity],
      `Schema drift (${c.severity}): ${c.model} ${c.endpoint} ${c.direction}`,
      `${c.text}\n${c.id} at ${pointerText(c)}${example}`,
      c.model,
    );
  }
  for (const w of report.warnings)
    lines.push(`::warning title=${escapeProperty("Schema drift accept file")}::${escapeData(w)}`);
  lines.push(verdict(report));
  return lines.join("\n") + "\n";
}
