/**
 * `--format github`: workflow-command annotations, one per change (errors for breaking, warnings
 * for behavior and unclassified, notices for the rest), and the Markdown report appended to
 * `$GITHUB_STEP_SUMMARY` when it is set.
 */
import {
  githubData as escapeData,
  githubFile,
  githubProperty as escapeProperty,
  terminalText,
} from "../../escape/index.js";
import type { DriftReport, ChangeSeverity } from "../types.js";
import { pointerText, verdict } from "./shared.js";

const LEVEL: Record<ChangeSeverity, "error" | "warning" | "notice"> = {
  breaking: "error",
  behavior: "warning",
  unclassified: "warning",
  safe: "notice",
  docs: "notice",
};

/** `files` maps a model id to its snapshot file (relative to the workspace), the file an annotation points at. */
export function formatGithub(report: DriftReport, files: ReadonlyMap<string, string> = new Map()): string {
  const lines: string[] = [];
  const annotate = (level: string, title: string, message: string, model?: string): void => {
    const file = model === undefined ? undefined : files.get(model);
    const props = [...(file === undefined ? [] : [`file=${githubFile(file)}`]), `title=${escapeProperty(title)}`].join(
      ",",
    );
    lines.push(`::${level} ${props}::${escapeData(message)}`);
  };
  for (const m of report.models) {
    if (m.status === "missing" || m.status === "error")
      annotate(
        "error",
        terminalText(`Schema drift: ${m.model} ${m.status}`),
        terminalText(m.message ?? m.status),
        m.model,
      );
  }
  for (const c of report.changes) {
    // each part is data (schema names, pointers, an example payload): one line each, ours join them
    const example =
      c.example !== undefined
        ? `\nexample: ${terminalText(JSON.stringify(c.example))}`
        : c.noExample !== undefined
          ? `\n${terminalText(c.noExample)}`
          : "";
    annotate(
      LEVEL[c.severity],
      terminalText(`Schema drift (${c.severity}): ${c.model} ${c.endpoint} ${c.direction}`),
      `${terminalText(c.text)}\n${terminalText(`${c.id} at ${pointerText(c)}`)}${example}`,
      c.model,
    );
  }
  for (const w of report.warnings)
    lines.push(`::warning title=${escapeProperty("Schema drift accept file")}::${escapeData(terminalText(w))}`);
  lines.push(terminalText(verdict(report)));
  return lines.join("\n") + "\n";
}
