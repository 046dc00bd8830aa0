/** The one-line summary every lint format ends with. */
import type { LintSummary } from "../lint.js";

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

export function summaryLine(s: LintSummary): string {
  return `${plural(s.requests, "request")}: ${s.valid} valid, ${s.invalid} invalid, ${plural(s.warnings, "warning")}`;
}
