/**
 * The run's summary (issue 25.3): the one-line totals every lint format ends with, and with
 * `--summary` the tallies per endpoint, per rule and per field, counted from the ordered stream of
 * results the formats receive (so they equal the per-result output, whoever produced the results),
 * and their two renderings: an aligned text table (pretty, the github log) and Markdown tables
 * (`--format markdown`, `$GITHUB_STEP_SUMMARY`). Every data-derived string is escaped by src/escape.
 */
import { markdownCode, terminalText } from "../../escape/index.js";
import type { LintResult, LintSummary, Reporter } from "../lint.js";
import type {
  Counted,
  EndpointCount,
  EndpointRow,
  FieldCount,
  FirstSeen,
  RuleCount,
  RuleRow,
  SummaryTables,
  TallyData,
} from "./tables.js";
import { plural } from "../../words/index.js";

export function summaryLine(s: LintSummary): string {
  return `${plural(s.requests, "request")}: ${s.valid} valid, ${s.invalid} invalid, ${plural(s.warnings, "warning")}`;
}

/** `--summary` (after the results) or `--summary-only` (instead of them); `off`: the totals line only. */
export type SummaryMode = "off" | "after" | "only";

export type DetailedSummary = LintSummary & Partial<SummaryTables>;

/**
 * Distinct keys kept per table: endpoints and fields come from the payloads (an unknown endpoint's
 * name, a misspelt key), so a log of a million different ones keeps memory flat; the rest is
 * counted in one `other` row, so the counts still add up.
 */
export const MAX_KEYS = 1000;

/** Rows of a table shown in pretty and Markdown (json lists every row). */
export const SHOWN_ROWS = 20;

/**
 * A pointer's segments that are whole numbers, read as array indices, folded to `*`: the field's
 * path across payloads. (A pointer alone cannot tell an index from an object key `"3"`; both fold.)
 */
export function foldIndices(pointer: string): string {
  return pointer.replace(/\/(?:0|[1-9][0-9]*)(?=\/|$)/g, "/*");
}

/**
 * The `--summary` field of a finding: its pointer into the request body, indices folded, so an
 * envelope's `/input/keyframes/0/frame_index` and a bare payload's `/keyframes/3/frame_index` are
 * one field, `/keyframes/* /frame_index` (issue 42.3). (A body's own top-level `input` field
 * would be folded the same way; the spec's endpoints have none.)
 */
export function fieldOf(pointer: string): string {
  return foldIndices(pointer.startsWith("/input/") ? pointer.slice("/input".length) : pointer);
}

/** A table of counters by key, at most `max` keys ({@link MAX_KEYS}), the rest in one `other` counter. */
class Table<T> {
  readonly rows = new Map<string, T>();
  other: T | undefined;
  constructor(
    private readonly make: () => T,
    private readonly max: number,
  ) {}
  get(key: string): T {
    let row = this.rows.get(key);
    if (row !== undefined) return row;
    if (this.rows.size >= this.max) return (this.other ??= this.make());
    row = this.make();
    this.rows.set(key, row);
    return row;
  }
}

const byCount = <T extends { findings?: number; requests: number }>(key: (t: T) => string) => {
  return (a: T, b: T) =>
    (b.findings ?? b.requests) - (a.findings ?? a.requests) || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
};

/** Counts results as they stream by; {@link tables} gives the rows, sorted by count then name. */
export class SummaryTally {
  private requests = 0;
  private readonly endpoints: Table<EndpointRow>;
  private readonly rules: Table<RuleRow>;
  private readonly fields: Table<Counted>;

  /** `maxKeys`: {@link MAX_KEYS}; a worker's batch tally keeps every key (its batch is bounded), so that merging them gives the same rows */
  constructor(maxKeys = MAX_KEYS) {
    this.endpoints = new Table(
      () => ({ model: null as string | null, endpoint: null as string | null, requests: 0, invalid: 0, warnings: 0 }),
      maxKeys,
    );
    this.rules = new Table<RuleRow>(() => ({ findings: 0, requests: 0, seen: 0, first: null }), maxKeys);
    this.fields = new Table<Counted>(() => ({ findings: 0, requests: 0, seen: 0 }), maxKeys);
  }

  /** The rows counted so far (an uncapped tally's: nothing is in `other`). */
  data(): TallyData {
    return {
      requests: this.requests,
      endpoints: this.endpoints.rows,
      rules: this.rules.rows,
      fields: this.fields.rows,
    };
  }

  /**
   * Adds the tally of the results that follow those counted so far: the same rows as adding each
   * of them (keys are met in the same order, a rule's first place is the earliest).
   */
  merge(next: TallyData): void {
    this.requests += next.requests;
    for (const [key, row] of next.endpoints) {
      const e = this.endpoints.get(key);
      e.model = row.model;
      e.endpoint = row.endpoint;
      e.requests += row.requests;
      e.invalid += row.invalid;
      e.warnings += row.warnings;
    }
    for (const [key, row] of next.rules) {
      const rule = this.rules.get(key);
      rule.findings += row.findings;
      rule.requests += row.requests;
      rule.first ??= row.first;
    }
    for (const [key, row] of next.fields) {
      const field = this.fields.get(key);
      field.findings += row.findings;
      field.requests += row.requests;
    }
  }

  /**
   * The endpoint table's row of (model, endpoint), found once per pair: a key built per result
   * is a fresh string hashed on every lookup (6% of a `--summary-only` run). The pairs are the
   * catalog's (or null), so they are few; bounded all the same (a row is never dropped from its
   * table, so one looked up again is the same row, or `other` as before).
   */
  private readonly endpointRows = new Map<string | null, Map<string | null, EndpointRow>>();
  private endpointRow(model: string | null, endpoint: string | null): EndpointRow {
    let byEndpoint = this.endpointRows.get(model);
    if (byEndpoint === undefined) {
      if (this.endpointRows.size >= MAX_KEYS) this.endpointRows.clear();
      this.endpointRows.set(model, (byEndpoint = new Map()));
    }
    let row = byEndpoint.get(endpoint);
    if (row === undefined) {
      row = this.endpoints.get(model === null && endpoint === null ? "" : `${model}\u0000${endpoint}`);
      if (byEndpoint.size >= MAX_KEYS) byEndpoint.clear();
      byEndpoint.set(endpoint, row);
    }
    return row;
  }

  /** A pointer's field (fieldOf), remembered: validators hand the same pointer strings back payload after payload. */
  private readonly fieldKeys = new Map<string, string>();
  private fieldKey(pointer: string): string {
    let field = this.fieldKeys.get(pointer);
    if (field === undefined) {
      field = fieldOf(pointer);
      if (this.fieldKeys.size >= 4096) this.fieldKeys.clear();
      this.fieldKeys.set(pointer, field);
    }
    return field;
  }

  add(r: LintResult): void {
    const n = ++this.requests;
    const e = this.endpointRow(r.model, r.endpoint);
    e.model = r.model;
    e.endpoint = r.endpoint;
    e.requests++;
    if (!r.valid) e.invalid++;
    for (const d of r.diagnostics) {
      if (d.severity !== "error") e.warnings++;
      const rule = this.rules.get(d.rule);
      rule.findings++;
      if (rule.seen !== n) ((rule.seen = n), rule.requests++);
      rule.first ??= {
        source: r.source,
        line: d.line ?? r.line,
        ...(d.column === undefined ? {} : { column: d.column }),
        pointer: d.pointer,
      };
      const field = this.fields.get(this.fieldKey(d.pointer));
      field.findings++;
      if (field.seen !== n) ((field.seen = n), field.requests++);
    }
  }

  tables(): SummaryTables {
    const all = this.requests;
    const endpoints: EndpointCount[] = [...this.endpoints.rows.values()].sort(
      byCount((e: EndpointCount) => `${e.model ?? ""}/${e.endpoint ?? ""}`),
    );
    const o = this.endpoints.other;
    if (o !== undefined) endpoints.push({ ...o, model: null, endpoint: null, other: true });
    const share = (requests: number) => (all === 0 ? 0 : requests / all);
    const rules: RuleCount[] = [...this.rules.rows].map(([rule, c]) => ({
      rule,
      findings: c.findings,
      requests: c.requests,
      share: share(c.requests),
      first: c.first,
    }));
    rules.sort(byCount((r: RuleCount) => r.rule ?? ""));
    const ro = this.rules.other;
    if (ro !== undefined)
      rules.push({
        rule: null,
        findings: ro.findings,
        requests: ro.requests,
        share: share(ro.requests),
        first: ro.first,
        other: true,
      });
    const fields: FieldCount[] = [...this.fields.rows].map(([field, c]) => ({
      field,
      findings: c.findings,
      requests: c.requests,
    }));
    fields.sort(byCount((f: FieldCount) => f.field ?? ""));
    const fo = this.fields.other;
    if (fo !== undefined) fields.push({ field: null, findings: fo.findings, requests: fo.requests, other: true });
    return { byEndpoint: endpoints, byRule: rules, byField: fields };
  }
}

/**
 * `--summary` / `--summary-only` around a format's reporter: every result is counted, and handed
 * on unless `only`; the format's `end` gets the totals with {@link SummaryTables}.
 */
export function withSummary(reporter: Reporter, mode: Exclude<SummaryMode, "off">): Reporter {
  const tally = new SummaryTally();
  const wrapped: Reporter = {
    result(r) {
      tally.add(r);
      return mode === "only" ? undefined : reporter.result(r);
    },
    end: (summary) => reporter.end({ ...summary, ...tally.tables() } satisfies DetailedSummary),
  };
  const batch = reporter.batch?.bind(reporter);
  if (batch !== undefined)
    // a worker sends its tally with each batch (WorkerOutput.tally), and no text under --summary-only
    wrapped.batch = (b) => {
      if (b.tally !== undefined) tally.merge(b.tally);
      return mode === "only" ? undefined : batch(b);
    };
  return wrapped;
}

export function hasTables(s: DetailedSummary): s is LintSummary & SummaryTables {
  return s.byEndpoint !== undefined && s.byRule !== undefined && s.byField !== undefined;
}

/** `12.5%`, `<0.1%` for a share above 0 that rounds to 0. */
export function percent(share: number): string {
  if (share > 0 && share < 0.0005) return "<0.1%";
  return `${(share * 100).toFixed(1)}%`;
}

/** `source:line` or `source:line:column`, as the per-result output writes a location. */
export function locationOf(f: FirstSeen): string {
  return `${f.source}:${f.column === undefined ? f.line : `${f.line}:${f.column}`}`;
}

/**
 * An endpoint row's name, its data parts escaped by `data`: `owner/name/endpoint`, the model
 * alone when it names no endpoint it has, or what the row stands for when it has no name.
 */
function endpointLabel(e: EndpointCount, data: (text: string) => string): string {
  if (e.other === true) return "(other endpoints)";
  if (e.model === null && e.endpoint === null) return "(no endpoint: unreadable, or none named)";
  if (e.endpoint === null) return `${data(e.model!)} (unknown endpoint)`;
  if (e.model === null) return `(no model) ${data(e.endpoint)}`;
  return data(`${e.model}/${e.endpoint}`);
}

/** Rows shown and the line saying how many are not, for the human renderings. */
function shown<T>(rows: T[], what: string): { rows: T[]; more: string | undefined } {
  if (rows.length <= SHOWN_ROWS) return { rows, more: undefined };
  return {
    rows: rows.slice(0, SHOWN_ROWS),
    more: `… ${plural(rows.length - SHOWN_ROWS, what)} more (--format json lists every one)`,
  };
}

/**
 * A table for the terminal: numbers right-aligned first, then the names, which are data
 * (escaped, and last, so that no line of the table can start with them: in a GitHub log a line
 * starting `::` would be a workflow command).
 */
function textTable(head: string[], rows: string[][], numbers: number): string[] {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    "  " +
    cells
      .map((c, i) => (i < numbers ? c.padStart(widths[i]!) : i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join("  ");
  return [line(head), ...rows.map(line)];
}

/** The aligned text tables of `--summary` (pretty, and the github format's log), escaped for a terminal. */
export function summaryText(s: LintSummary & SummaryTables): string {
  const out: string[] = ["Summary", ""];
  const endpoints = shown(s.byEndpoint, "endpoint");
  out.push(
    ...textTable(
      ["requests", "invalid", "warnings", "endpoint"],
      endpoints.rows.map((e) => [
        String(e.requests),
        String(e.invalid),
        String(e.warnings),
        endpointLabel(e, terminalText),
      ]),
      3,
    ),
  );
  if (endpoints.more !== undefined) out.push(`  ${endpoints.more}`);
  out.push("");
  if (s.byRule.length === 0) out.push("  no findings");
  else {
    const rules = shown(s.byRule, "rule");
    out.push(
      ...textTable(
        ["findings", "requests", "share", "rule", "first seen"],
        rules.rows.map((r) => [
          String(r.findings),
          String(r.requests),
          percent(r.share),
          r.other === true ? "(other rules)" : terminalText(r.rule!),
          r.first === null ? "" : `${terminalText(locationOf(r.first))}  ${terminalText(r.first.pointer || "/")}`,
        ]),
        3,
      ),
    );
    if (rules.more !== undefined) out.push(`  ${rules.more}`);
    out.push("");
    const fields = shown(s.byField, "field");
    out.push(
      ...textTable(
        ["findings", "requests", "field"],
        fields.rows.map((f) => [
          String(f.findings),
          String(f.requests),
          f.other === true ? "(other fields)" : terminalText(f.field || "/"),
        ]),
        2,
      ),
    );
    if (fields.more !== undefined) out.push(`  ${fields.more}`);
  }
  return out.join("\n") + "\n\n";
}

/** The Markdown tables of `--summary` (`--format markdown`, `$GITHUB_STEP_SUMMARY`), data in code spans. */
export function summaryMarkdown(s: LintSummary & SummaryTables): string[] {
  const out: string[] = [
    "#### By endpoint",
    "",
    "| Endpoint | Requests | Invalid | Warnings |",
    "| --- | ---: | ---: | ---: |",
  ];
  const endpoints = shown(s.byEndpoint, "endpoint");
  for (const e of endpoints.rows)
    out.push(`| ${endpointLabel(e, (t) => markdownCode(t))} | ${e.requests} | ${e.invalid} | ${e.warnings} |`);
  if (endpoints.more !== undefined) out.push(`| ${endpoints.more} | | | |`);
  out.push("");
  if (s.byRule.length === 0) return [...out, "No findings.", ""];
  const rules = shown(s.byRule, "rule");
  out.push(
    "#### By rule",
    "",
    "| Rule | Findings | Requests | Share | First seen | Field |",
    "| --- | ---: | ---: | ---: | --- | --- |",
  );
  for (const r of rules.rows)
    out.push(
      `| ${r.other === true ? "(other rules)" : markdownCode(r.rule!)} | ${r.findings} | ${r.requests} | ${percent(r.share)} | ${r.first === null ? "" : markdownCode(locationOf(r.first))} | ${r.first === null ? "" : markdownCode(r.first.pointer || "/")} |`,
    );
  if (rules.more !== undefined) out.push(`| ${rules.more} | | | | | |`);
  out.push("");
  const fields = shown(s.byField, "field");
  out.push("#### By field", "", "| Field | Findings | Requests |", "| --- | ---: | ---: |");
  for (const f of fields.rows)
    out.push(
      `| ${f.other === true ? "(other fields)" : markdownCode(f.field || "/")} | ${f.findings} | ${f.requests} |`,
    );
  if (fields.more !== undefined) out.push(`| ${fields.more} | | |`);
  out.push("");
  return out;
}
