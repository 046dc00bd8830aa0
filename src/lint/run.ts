/**
 * One `vsk lint` run (spec 7.2), whoever asks (the CLI, the GitHub Action, issue 23.7): read the
 * config, open the generated validators, expand the inputs, lint every payload into one format of
 * `FORMATS`, and decide the exit code. The caller parses its own flags and says where output and
 * notes go; nothing here spawns a process or parses output back.
 */
import { loadConfig } from "../config/index.js";
import { readableDirectory } from "../durable/index.js";
// the reader alone, not the index: the index also loads the schema stage, which lint never needs
import { prepareSnapshotRead } from "../snapshot/read.js";
import { plural } from "../words/index.js";
import {
  FORMATS,
  invalidOnly,
  Sink,
  withSummary,
  type FormatContext,
  type FormatName,
  type LintFormat,
  type SummaryMode,
} from "./format/index.js";
import { lintPreflight, type LintPreflight } from "./preflight.js";
import type { PreflightOptions } from "../preflight/index.js";
import { expandInputs } from "./inputs.js";
import { inputBytes, ReadMeter, type LintProgress } from "./progress.js";
import { decompressionProblem } from "./compressed.js";
import { Linter, type LintResult, type LintSummary, type Reporter } from "./lint.js";
import { openRegistry, RegistryError, type ValidatorRegistry } from "./registry.js";
import { resolveTarget } from "./resolve.js";
import { coolLintWorkers, defaultJobs, LintJobs, warmForInputs } from "./jobs.js";
import { FILE_CHANGED } from "./ranges.js";
import type { WorkerOutput } from "./batch.js";
import { DEFAULT_MAX_LINE_BYTES } from "./decode.js";

/** A usage problem of lint itself (an unknown model or endpoint, nothing to lint, stdin twice); exit 2. */
export class LintUsageError extends Error {
  override name = "LintUsageError";
}

/** Exit codes of a lint run: the CLI's and the Action's. */
export const LintExit = { ok: 0, findings: 1, usage: 2 } as const;

export interface LintOptions {
  /** where the config is looked for and relative paths start */
  cwd: string;
  /** files, directories, globs, `-` for stdin */
  inputs: string[];
  /** `--config FILE` */
  config?: string;
  model?: string;
  endpoint?: string;
  format: FormatName;
  context: FormatContext;
  /** where the format writes (stdout for the CLI) */
  out: NodeJS.WritableStream;
  errorsOnly?: boolean;
  /** `--summary` (`after` the results) or `--summary-only` (instead of them); default `off` (issue 25.3) */
  summary?: SummaryMode;
  ndjson?: boolean;
  maxLineBytes?: number;
  /** `--max-findings-per-request`: findings kept per payload, the rest counted in one (default 100, DEFAULT_MAX_FINDINGS) */
  maxFindings?: number;
  allowEmpty?: boolean;
  /** exit 1 with more warnings than this (default: no limit) */
  maxWarnings?: number;
  /** sees every result, valid or not, before the format does (the Action's outputs) */
  observe?: (result: LintResult) => void;
  /** `--preflight`: the files each payload references are fetched and checked (src/lint/preflight.ts); absent, no request is made */
  preflight?: PreflightOptions;
  /**
   * `--jobs N`: NDJSON lines linted on N worker threads once a run has more than a few thousand
   * (src/lint/jobs.ts); `"auto"` (the CLI's default): the cores, at most 4, and workers only for an
   * input large enough that they pay. Default 1, all on this thread. Not with `preflight`, which
   * stays on this thread.
   */
  jobs?: number | "auto";
  /** started when the preflight runs (a progress line, say); the function it returns is called at the end */
  onPreflight?: (run: LintPreflight) => () => void;
  /** started once the inputs are known (a progress line, issue 25.5), polling how far the run got; the function it returns is called at the end */
  onProgress?: (stats: () => LintProgress) => () => void;
  /**
   * given, once the inputs are known, a function returning the exit code the run would end with
   * from what it has linted so far (`LintExit`): the CLI exits with it when the reader of its
   * output goes away early (`vsk lint … | head -1`, src/cli/closed-pipe.ts)
   */
  exitSoFar?: (code: () => number) => void;
}

/** A note of the run, not yet escaped for any output: `warning` and `note` never change the exit code. */
export type LintNote = { level: "warning" | "note" | "error"; text: string };

export interface LintRun {
  summary: LintSummary;
  exitCode: number;
}

/** Resolves the config's models and generated validators (finishing what a killed `pull` or `generate` left). */
function openProject(cwd: string, config: string | undefined): { registry: ValidatorRegistry; snapshotDir: string } {
  const loaded = loadConfig(cwd, config);
  // finish or undo what a killed `pull` or `generate` left, before reading (docs/pull.md)
  prepareSnapshotRead(loaded.snapshotDir);
  return {
    registry: openRegistry({ ...loaded, outDir: readableDirectory(loaded.outDir) }),
    snapshotDir: loaded.snapshotDir,
  };
}

/**
 * Runs lint. Throws `LintUsageError` for a usage problem, the config's and the registry's own
 * errors when the project cannot be read (the caller words them); a file that cannot be read is a
 * note of level `error` and exit 2, after everything readable was linted.
 */
export async function runLint(options: LintOptions, log: (note: LintNote) => void): Promise<LintRun> {
  // the worker threads a large NDJSON file will need load their modules while this thread reads
  // the project (src/lint/jobs.ts `warmLintWorkers`); those no pool took are ended with the run
  if (options.preflight === undefined)
    warmForInputs(
      options.inputs,
      options.cwd,
      options.jobs === "auto" ? defaultJobs() : (options.jobs ?? 1),
      options.jobs === "auto",
    );
  try {
    return await lintRun(options, log);
  } finally {
    await coolLintWorkers();
  }
}

async function lintRun(options: LintOptions, log: (note: LintNote) => void): Promise<LintRun> {
  const { cwd, inputs } = options;
  const { registry, snapshotDir } = openProject(cwd, options.config);
  const target = resolveTarget(registry, options.model, options.endpoint);
  if ("problem" in target) throw new LintUsageError(target.problem);
  const allowEmpty = options.allowEmpty === true;
  // stdin is read only when named (issue 30.3): `vsk lint $(git diff --name-only …)` with an
  // empty list must neither hang on an open pipe nor pass having checked nothing
  if (inputs.length === 0 && !allowEmpty)
    throw new LintUsageError(
      "no input files: name files, directories or globs, or - to read stdin (--allow-empty: exit 0 when there are none)",
    );
  if (inputs.filter((i) => i === "-").length > 1) throw new LintUsageError("stdin (-) can be read only once");

  const stale = registry.staleness(snapshotDir);
  if (stale !== undefined) log({ level: "warning", text: stale });

  const formatted = FORMATS[options.format].reporter(new Sink(options.out), options.context);
  let reporter: Reporter = options.errorsOnly === true ? invalidOnly(formatted) : formatted;
  // the summary tables count every result, before --errors-only leaves any out (src/lint/format/summary.ts)
  const tables = options.summary ?? "off";
  if (tables !== "off" || (FORMATS[options.format] as LintFormat).summary === "always")
    reporter = withSummary(reporter, tables === "only" ? "only" : "after");
  const observe = options.observe;
  if (observe !== undefined) {
    const inner = reporter;
    reporter = { result: (r) => (observe(r), inner.result(r)), end: (s) => inner.end(s) };
  }
  const meter = options.onProgress === undefined ? undefined : new ReadMeter();
  if (meter !== undefined) reporter = meter.counting(reporter);
  // loaded only with --preflight, so that a plain lint neither loads the media parsers nor makes a request
  const preflight = options.preflight === undefined ? undefined : await lintPreflight(registry, options.preflight);
  // workers render the format's text themselves where the format and every wrapper can take it (src/lint/jobs.ts)
  const output: WorkerOutput =
    reporter.batch !== undefined && (FORMATS[options.format] as LintFormat).render !== undefined
      ? {
          kind: "rendered",
          format: options.format,
          context: { color: options.context.color, showValid: options.context.showValid },
          errorsOnly: options.errorsOnly === true,
          hideResults: tables === "only",
          tally: tables !== "off",
        }
      : { kind: "results" };
  const threads = options.jobs === "auto" ? defaultJobs() : (options.jobs ?? 1);
  // --preflight is network work, paced per host on this thread: with it, no worker is started
  const jobs =
    preflight === undefined && threads > 1
      ? new LintJobs(
          threads,
          registry,
          target,
          options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
          output,
          (text) => log({ level: "warning", text }),
          options.jobs === "auto",
        )
      : undefined;
  const linter = new Linter(
    registry,
    target,
    reporter,
    { ...(options.maxLineBytes === undefined ? {} : { maxLineBytes: options.maxLineBytes }) },
    preflight?.check,
    jobs,
  );
  linter.warn = (text) => log({ level: "warning", text });
  if (options.maxFindings !== undefined) {
    linter.maxFindings = options.maxFindings;
    if (jobs !== undefined) jobs.maxFindings = options.maxFindings;
  }
  // --summary-only shows no finding: unless a caller observes the results, none is worded
  if (tables === "only" && observe === undefined) {
    linter.words = false;
    if (jobs !== undefined) jobs.words = false;
  }
  const { files, errors } = await expandInputs(inputs, cwd, { allowEmpty });
  const maxWarnings = options.maxWarnings ?? Infinity;
  options.exitSoFar?.(() => exitCodeOf(linter.summary, errors.length, maxWarnings));
  const stopPreflight = preflight === undefined ? undefined : options.onPreflight?.(preflight);
  let stopProgress: (() => void) | undefined;
  if (meter !== undefined) {
    meter.totalBytes = await inputBytes(files, cwd);
    linter.opened = meter.opened;
    stopProgress = options.onProgress?.(meter.stats);
  }
  try {
    for (const file of files) {
      try {
        await linter.file(file, cwd, options.ndjson === true);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === undefined) throw error;
        errors.push(
          new RegistryError(
            code === FILE_CHANGED
              ? `${file}: ${(error as Error).message}; the requests read before it are reported`
              : (decompressionProblem(file, code) ??
                  `${file}: cannot be read (${code === "EISDIR" ? "a directory" : code})`),
          ),
        );
      }
    }
    // --preflight keeps a window of payloads in flight (src/lint/lint.ts): the last ones reported
    await linter.drain();
  } finally {
    stopProgress?.();
    stopPreflight?.();
    await preflight?.close();
    await jobs?.close();
  }
  await reporter.end(linter.summary);
  const refused = registry.cacheWarning();
  if (refused !== undefined) log({ level: "warning", text: refused });
  const note = registry.compiledNote();
  if (note !== undefined) log({ level: "note", text: note });
  for (const e of errors) log({ level: "error", text: e.message });
  const { summary } = linter;
  const exitCode = exitCodeOf(summary, errors.length, maxWarnings);
  if (errors.length === 0 && summary.invalid === 0 && exitCode !== LintExit.ok)
    log({ level: "error", text: `${plural(summary.warnings, "warning")}, more than --max-warnings ${maxWarnings}` });
  return { summary, exitCode };
}

/** The exit code of a run that linted `summary` and could not read `errors` inputs (so far, or in the end). */
function exitCodeOf(summary: LintSummary, errors: number, maxWarnings: number): number {
  if (errors > 0) return LintExit.usage;
  if (summary.invalid > 0 || summary.warnings > maxWarnings) return LintExit.findings;
  return LintExit.ok;
}
