/** `--format markdown`: one PR comment, a summary table then a collapsible section per model. */
import { htmlText, markdownCode, markdownText } from "../../escape/index.js";
import { SEVERITY_ORDER, type DriftReport, type ChangeSeverity } from "../types.js";
import { countsFor, countsText, groupChanges, pointerText, verdict } from "./shared.js";

const MARK: Record<ChangeSeverity, string> = {
  breaking: "🔴",
  behavior: "🟠",
  unclassified: "🟡",
  safe: "🟢",
  docs: "📝",
};

/** Data as text in a table cell or list item: no markup, no live link (src/escape). */
const cell = markdownText;

/** Data as a code span in a table cell. */
const code = (text: string): string => markdownCode(text);

export function formatMarkdown(report: DriftReport): string {
  const out: string[] = ["## Schema drift", "", `Source: ${code(report.source)}`, ""];
  out.push(
    `| Model | Status | ${SEVERITY_ORDER.map((s) => s[0]!.toUpperCase() + s.slice(1)).join(" | ")} | Accepted |`,
  );
  out.push(`|---|---|${SEVERITY_ORDER.map(() => "---:").join("|")}|---:|`);
  for (const m of report.models) {
    const counts = countsFor(report.changes.filter((c) => c.model === m.model));
    const accepted = report.accepted.filter((c) => c.model === m.model).length;
    out.push(
      `| ${code(m.model)} | ${m.status} | ${SEVERITY_ORDER.map((s) => counts[s] ?? 0).join(" | ")} | ${accepted} |`,
    );
  }
  out.push("", `**${cell(verdict(report))}**`);
  const problems = report.models.filter((m) => m.message !== undefined);
  if (problems.length > 0) out.push("", ...problems.map((m) => `- ${code(m.model)} ${m.status}: ${cell(m.message!)}`));
  for (const m of report.models) {
    const changes = report.changes.filter((c) => c.model === m.model);
    if (changes.length === 0) continue;
    out.push(
      "",
      `<details${changes.some((c) => c.severity === "breaking") ? " open" : ""}><summary><code>${htmlText(m.model)}</code>: ${countsText(countsFor(changes))}</summary>`,
      "",
    );
    for (const group of groupChanges(changes)) {
      out.push(
        `#### ${code(group.endpoint)} ${group.direction}`,
        "",
        "| | Change | Id | Pointer | Example |",
        "|---|---|---|---|---|",
      );
      for (const c of group.changes) {
        out.push(
          `| ${MARK[c.severity]} ${c.severity} | ${cell(c.text)} | ${code(c.id)} | ${code(pointerText(c))} | ${c.example !== undefined ? code(JSON.stringify(c.example)) : c.noExample !== undefined ? cell(c.noExample) : ""} |`,
        );
      }
      out.push("");
    }
    out.push("</details>");
  }
  if (report.accepted.length > 0) {
    out.push(
      "",
      `<details><summary>${report.accepted.length} accepted change${report.accepted.length === 1 ? "" : "s"}</summary>`,
      "",
      "| Model | Change | Id | Reason | Expires |",
      "|---|---|---|---|---|",
    );
    for (const c of report.accepted)
      out.push(
        `| ${code(`${c.model} ${c.endpoint}`)} | ${cell(c.text)} | ${code(c.id)} | ${cell(c.accepted.reason)} | ${cell(c.accepted.expires ?? "")} |`,
      );
    out.push("", "</details>");
  }
  const r = report.requests;
  if (r !== undefined) {
    out.push(
      "",
      `### Your requests`,
      "",
      `${r.checked} checked: **${r.rejectedNow} valid before and rejected now**, ${r.invalidBefore} already invalid against the snapshot, ${r.skipped.length} skipped.`,
    );
    for (const g of r.groups) {
      out.push(
        "",
        g.change === null
          ? "- Rejected, not explained by a classified change:"
          : `- ${MARK[g.change.severity]} ${code(g.change.id)} ${cell(g.change.text)} (${code(`${g.change.model} ${g.change.endpoint}`)})`,
      );
      for (const q of g.requests.slice(0, 20))
        out.push(`  - ${code(`${q.source}:${q.line}`)} ${code(q.pointer || "/")} ${cell(q.message)}`);
      if (g.requests.length > 20) out.push(`  - … and ${g.requests.length - 20} more`);
    }
  }
  if (report.warnings.length > 0) out.push("", ...report.warnings.map((w) => `> ⚠️ ${cell(w)}`));
  return out.join("\n") + "\n";
}
