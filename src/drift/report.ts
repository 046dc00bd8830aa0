/**
 * The drift report: per-model status, changes in report order (model, endpoint, direction,
 * breaking first), accepted changes, warnings and the summary with the exit code.
 */
import {
  DIRECTION_ORDER,
  SEVERITY_ORDER,
  type Change,
  type DriftReport,
  type FailOn,
  type ModelReport,
  type RequestImpact,
  type ChangeSeverity,
  type ChangeSeverityCounts,
} from "./types.js";
import type { AcceptedChange } from "./types.js";

/** Severities that fail the gate at each `--fail-on` level; an unclassified change counts as a behavior change. */
export const FAIL_LEVELS: Readonly<Record<FailOn, readonly ChangeSeverity[]>> = {
  breaking: ["breaking"],
  behavior: ["breaking", "behavior", "unclassified"],
  any: ["breaking", "behavior", "unclassified", "safe", "docs"],
  never: [],
};

export const FAIL_ON: readonly FailOn[] = ["breaking", "behavior", "any", "never"];

/** Report order: model (as configured), endpoint, direction, severity; otherwise as found. */
export function sortChanges<T extends Change>(changes: readonly T[], modelOrder: readonly string[]): T[] {
  const rank = (c: Change): number[] => [
    modelOrder.indexOf(c.model),
    0,
    DIRECTION_ORDER.indexOf(c.direction),
    SEVERITY_ORDER.indexOf(c.severity),
  ];
  return changes
    .map((c, i) => ({ c, i }))
    .sort((x, y) => {
      const [a, b] = [rank(x.c), rank(y.c)];
      if (a[0] !== b[0]) return a[0]! - b[0]!;
      if (x.c.endpoint !== y.c.endpoint) return x.c.endpoint < y.c.endpoint ? -1 : 1;
      for (let k = 2; k < a.length; k++) if (a[k] !== b[k]) return a[k]! - b[k]!;
      return x.i - y.i;
    })
    .map(({ c }) => c);
}

export function countBySeverity(changes: readonly Change[]): ChangeSeverityCounts {
  const counts = Object.fromEntries(SEVERITY_ORDER.map((s) => [s, 0])) as ChangeSeverityCounts;
  for (const c of changes) counts[c.severity]++;
  return counts;
}

export interface ReportInput {
  source: string;
  models: ModelReport[];
  changes: Change[];
  accepted: AcceptedChange[];
  warnings: string[];
  failOn: FailOn;
  requests?: RequestImpact;
}

/** Assembles the report; the exit code is 3 when a model is missing or broken, whatever else drifted. */
export function buildReport(input: ReportInput): DriftReport {
  const order = input.models.map((m) => m.model);
  const changes = sortChanges(input.changes, order);
  const counts = countBySeverity(changes);
  const models = { unchanged: 0, changed: 0, missing: 0, error: 0 };
  for (const m of input.models) models[m.status]++;
  const failing =
    FAIL_LEVELS[input.failOn].some((s) => counts[s] > 0) ||
    (input.failOn !== "never" && (input.requests?.rejectedNow ?? 0) > 0);
  const exitCode = models.missing + models.error > 0 ? 3 : failing ? 1 : 0;
  return {
    source: input.source,
    models: input.models,
    changes,
    accepted: sortChanges(input.accepted, order),
    warnings: input.warnings,
    ...(input.requests === undefined ? {} : { requests: input.requests }),
    summary: { ...counts, accepted: input.accepted.length, models, failOn: input.failOn, exitCode },
  };
}
