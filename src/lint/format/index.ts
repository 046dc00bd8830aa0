/**
 * Lint's output formats, one file each, listed in one table: the CLI derives its `--format`
 * choices, its help and its dispatch from `FORMATS`. A new format is one file and one row.
 */
import type { LintResult, Reporter } from "../lint.js";
import { githubReporter } from "./github.js";
export { DEFAULT_MAX_ANNOTATIONS } from "./github.js";
import { jsonRenderer, jsonReporter, jsonResultWriter } from "./json.js";
export { LINT_REPORT_SCHEMA, LINT_REPORT_VERSION } from "./json.js";
import { markdownReporter } from "./markdown.js";
import { prettyRenderer, prettyReporter } from "./pretty.js";
import { sarifReporter } from "./sarif.js";
export { sarifReporter, LINT_FINGERPRINT, type SarifPlace } from "./sarif.js";
import type { Sink } from "./sink.js";

export { Sink } from "./sink.js";
export { summaryLine, withSummary, foldIndices, MAX_KEYS, type SummaryMode, type DetailedSummary } from "./summary.js";
export type { SummaryTables, EndpointCount, RuleCount, FieldCount, TallyData } from "./tables.js";
export { jsonReporter, prettyReporter, githubReporter, markdownReporter };

/** What a format may use besides its sink: set by the CLI from flags, the terminal and the environment, or by the Action. */
export interface FormatContext {
  /** colour the output (pretty only) */
  color: boolean;
  /** `--show-valid` (pretty only) */
  showValid: boolean;
  /** github only: takes the run's Markdown summary (the CLI appends it to `$GITHUB_STEP_SUMMARY`) */
  stepSummary: ((markdown: string) => void) | undefined;
  /** `--max-annotations` (github only) */
  maxAnnotations: number;
}

/** What a format's `render` may use: plain data, posted to `--jobs` worker threads. */
export type RenderContext = Pick<FormatContext, "color" | "showValid">;

export interface LintFormat {
  /** whether the format colours its output on a terminal */
  colors: boolean;
  /**
   * A format whose text per result depends on that result alone: its renderer, which `--jobs`
   * workers run on their batches (src/lint/jobs.ts), and its reporter's `batch` writes that text.
   * Absent (a format that counts or collects across results), workers send results back.
   */
  render?: (context: RenderContext) => (r: LintResult) => string;
  /** How a worker writes `render`'s text, where the format has a faster way than the text (json: bytes made once) */
  writer?: (out: Sink, context: RenderContext) => (r: LintResult) => void | Promise<void>;
  /** `always`: the format shows the summary tables without `--summary` (issue 25.3) */
  summary?: "always";
  reporter(out: Sink, context: FormatContext): Reporter;
}

/** Every `--format`, the default first. */
export const FORMATS = {
  pretty: {
    colors: true,
    render: (c) => prettyRenderer(c.color, c.showValid),
    reporter: (out, c) => prettyReporter(out, c.color, c.showValid),
  },
  json: {
    colors: false,
    render: () => jsonRenderer(),
    writer: (out) => jsonResultWriter(out),
    reporter: (out) => jsonReporter(out),
  },
  github: {
    colors: false,
    reporter: (out, c) => githubReporter(out, c.stepSummary, c.maxAnnotations),
  },
  markdown: {
    colors: false,
    summary: "always",
    reporter: (out) => markdownReporter(out),
  },
  sarif: {
    colors: false,
    reporter: (out) => sarifReporter(out),
  },
} as const satisfies Record<string, LintFormat>;

export type FormatName = keyof typeof FORMATS;

export const FORMAT_NAMES = Object.keys(FORMATS) as FormatName[];

export function isFormat(name: string): name is FormatName {
  return Object.hasOwn(FORMATS, name);
}

/** `pretty (default), json, github or markdown`: the choices as `--help` lists them. */
export function formatChoices(): string {
  const [first, ...rest] = FORMAT_NAMES;
  return `${first} (default), ${rest.slice(0, -1).join(", ")} or ${rest[rest.length - 1]}`;
}

/** `--errors-only`: a reporter that is never handed a valid result (the summary still counts every one). */
export function invalidOnly(reporter: Reporter): Reporter {
  const batch = reporter.batch?.bind(reporter);
  return {
    result: (r) => (r.valid ? undefined : reporter.result(r)),
    end: (summary) => reporter.end(summary),
    // a worker renders no valid result under --errors-only (WorkerOutput.errorsOnly)
    ...(batch === undefined ? {} : { batch }),
  };
}
