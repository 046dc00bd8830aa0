/** Helpers every reporter uses: grouping and the way a pointer pair and a summary are shown. */
import { SEVERITY_ORDER, type Change, type DriftReport, type ChangeSeverity } from "../types.js";

/** `before → after`, or the one that exists when they are equal or one side is absent. */
export function pointerText(c: Pick<Change, "pointer">): string {
  const { before, after } = c.pointer;
  if (before === null) return after ?? "";
  if (after === null || after === before) return before;
  return `${before} → ${after}`;
}

/** Changes grouped model → endpoint → direction, keeping report order (breaking first within a group). */
export function groupChanges<T extends Change>(
  changes: readonly T[],
): Array<{ model: string; endpoint: string; direction: Change["direction"]; changes: T[] }> {
  const groups: Array<{ model: string; endpoint: string; direction: Change["direction"]; changes: T[] }> = [];
  for (const c of changes) {
    const last = groups.at(-1);
    if (last && last.model === c.model && last.endpoint === c.endpoint && last.direction === c.direction)
      last.changes.push(c);
    else groups.push({ model: c.model, endpoint: c.endpoint, direction: c.direction, changes: [c] });
  }
  return groups;
}

/** `2 breaking, 1 behavior` (non-zero counts only), or `no changes`. */
export function countsText(counts: Partial<Record<ChangeSeverity, number>>): string {
  const parts = SEVERITY_ORDER.filter((s) => (counts[s] ?? 0) > 0).map((s) => `${counts[s]} ${s}`);
  return parts.length === 0 ? "no changes" : parts.join(", ");
}

export function countsFor(changes: readonly Change[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const c of changes) counts[c.severity] = (counts[c.severity] ?? 0) + 1;
  return counts;
}

/** One sentence: what the gate decided and why. */
export function verdict(report: DriftReport): string {
  const s = report.summary;
  const broken = s.models.missing + s.models.error;
  const rejected = report.requests?.rejectedNow ?? 0;
  const what = `${countsText(s)}${s.accepted > 0 ? ` (+${s.accepted} accepted)` : ""}${rejected > 0 ? `; ${rejected} of your requests rejected now` : ""}`;
  if (broken > 0)
    return `${broken} model${broken === 1 ? "" : "s"} could not be compared (missing at the source or unreadable): exit 3, never "no drift"; the others: ${what}`;
  if (s.exitCode === 1) return `drift at or above --fail-on ${s.failOn}: ${what}`;
  if (s.updated !== undefined) return `accepted with --update, the snapshot now matches the source: ${what}`;
  if (report.changes.length === 0 && s.accepted === 0 && s.models.changed === 0)
    return `no drift: ${s.models.unchanged} model${s.models.unchanged === 1 ? "" : "s"} unchanged`;
  return `nothing at or above --fail-on ${s.failOn}: ${what}`;
}
