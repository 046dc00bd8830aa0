/** `--format text`: for people at a terminal, grouped model → endpoint → direction, breaking first, one line per change. */
import { terminalText } from "../../escape/index.js";
import type { DriftReport } from "../types.js";
import { groupChanges, pointerText, verdict } from "./shared.js";

export function formatText(report: DriftReport): string {
  const lines: string[] = [`vsk drift: ${report.source}`];
  const width = Math.max(...report.models.map((m) => m.model.length), 0);
  for (const m of report.models)
    lines.push(`  ${m.model.padEnd(width)}  ${m.status}${m.message ? `: ${m.message}` : ""}`);
  const severityWidth = Math.max(0, ...report.changes.map((c) => c.severity.length));
  for (const group of groupChanges(report.changes)) {
    lines.push("", `${group.model} › ${group.endpoint} › ${group.direction}`);
    for (const c of group.changes) {
      lines.push(`  ${c.severity.padEnd(severityWidth)}  ${c.text}  [${c.id} at ${pointerText(c)}]`);
      if (c.example !== undefined) lines.push(`  ${"".padEnd(severityWidth)}  e.g. ${JSON.stringify(c.example)}`);
      else if (c.noExample !== undefined) lines.push(`  ${"".padEnd(severityWidth)}  ${c.noExample}`);
    }
  }
  if (report.accepted.length > 0) {
    lines.push("", "accepted (.vsk-drift-accept.json):");
    for (const c of report.accepted)
      lines.push(
        `  ${c.model} › ${c.endpoint} › ${c.direction}  ${c.severity}  ${c.text}  [${c.id} at ${pointerText(c)}]: ${c.accepted.reason}`,
      );
  }
  const r = report.requests;
  if (r !== undefined) {
    lines.push(
      "",
      `requests: ${r.checked} checked, ${r.rejectedNow} valid before and rejected now, ${r.invalidBefore} already invalid against the snapshot${r.skipped.length > 0 ? `, ${r.skipped.length} skipped` : ""}`,
    );
    for (const g of r.groups) {
      lines.push(
        g.change === null
          ? "  rejected, not explained by a classified change:"
          : `  ${g.change.severity} ${g.change.id}  ${g.change.model} › ${g.change.endpoint}  ${g.change.text}`,
      );
      for (const q of g.requests) lines.push(`    ${q.source}:${q.line}  ${q.pointer || "/"}  ${q.message}`);
    }
    for (const s of r.skipped) lines.push(`  skipped ${s.source}:${s.line}: ${s.message}`);
  }
  for (const w of report.warnings) lines.push("", `warning: ${w}`);
  lines.push("", verdict(report));
  // every entry is one line of ours with data inside: a line break or ESC in the data is shown, never acted on
  return lines.map(terminalText).join("\n") + "\n";
}
