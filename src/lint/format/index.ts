/**
 * Lint's output formats, one file each, listed in one table: the CLI derives its `--format`
 * choices, its help and its dispatch from `FORMATS`. A new format is one file and one row.
 */
import type { Reporter } from "../lint.js";
import { githubReporter } from "./github.js";
export { DEFAULT_MAX_ANNOTATIONS } from "./github.js";
import { jsonReporter } from "./json.js";
export { LINT_REPORT_SCHEMA, LINT_REPORT_VERSION } from "./json.js";
import { markdownReporter } from "./markdown.js";
import { prettyReporter } from "./pretty.js";
import type { Sink } from "./sink.js";

export { Sink } from "./sink.js";
export {
  summaryLine,
  withSummary,
  foldIndices,
  MAX_KEYS,
  type SummaryMode,
  type DetailedSummary,
  type SummaryTables,
  type EndpointCount,
  type RuleCount,
  type FieldCount,
} from "./summary.js";
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

export interface LintFormat {
  /** whether the format colours its output on a terminal */
  colors: boolean;
  /** `always`: the format shows the summary tables without `--summary` (issue 25.3) */
  summary?: "always";
  reporter(out: Sink, context: FormatContext): Reporter;
}

/** Every `--format`, the default first. */
export const FORMATS = {
  pretty: {
    colors: true,
    reporter: (out, c) => prettyReporter(out, c.color, c.showValid),
  },
  json: {
    colors: false,
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
  return { result: (r) => (r.valid ? undefined : reporter.result(r)), end: (summary) => reporter.end(summary) };
}
