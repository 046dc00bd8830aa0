/**
 * `vsk lint [FILES… | -] [--model ID|ALIAS --endpoint NAME] [--format pretty|json|github|markdown] [--summary|--summary-only] [--max-warnings N]
 *   [--preflight [--preflight-allow-host HOST[:PORT]]… [--preflight-timeout SECONDS] [--preflight-concurrency N]]`
 *
 * Arguments are parsed with yargs through cli/args.ts, as for every command (issue 42.5): lint
 * must start fast (the README's Performance target), and yargs, bundled into dist/cli
 * (scripts/bundle.mjs), costs its start ~16 ms where the package loaded from node_modules cost
 * 115–160 ms, which is why lint once used node's `parseArgs` (docs/architecture.md). What
 * `parseArgs` refused is refused still, in the same words (`valueProblem`).
 */
import { appendFileSync } from "node:fs";
import {
  DEFAULT_MAX_LINE_BYTES,
  DEFAULT_MAX_FINDINGS,
  MAX_FINDINGS_LIMIT,
  FORMAT_NAMES,
  FORMATS,
  formatChoices,
  DEFAULT_MAX_ANNOTATIONS,
  defaultJobs,
  DEFAULT_JOBS_CAP,
  INLINE_LINES,
  MAX_JOBS,
  MIN_REMAINING_BYTES,
  AUTO_MIN_REMAINING_BYTES,
  isFormat,
  LintUsageError,
  LintWorkerError,
  progressText,
  runLint as runLintStage,
  type LintNote,
  type LintPreflight,
} from "../lint/index.js";
import { terminalText } from "../escape/index.js";
import { CliError, ExitCode, toCliError } from "./errors.js";
import { exitCodeSoFar } from "./closed-pipe.js";
import { shownArgument } from "./typed.js";
import { commandParser, helpShown } from "./args.js";
import { byteSize, limitSize, plural } from "../words/index.js";
import { ProgressLine, progressWanted } from "./progress.js";
import { mayRunLong, tuneGarbageCollector } from "./gc-tuning.js";
import type { PREFLIGHT_DEFAULTS, PreflightOptions } from "../preflight/index.js";

/** lint's flags and their types: yargs parses them (cli/args.ts, as for every command), and so does {@link valueProblem}. */
const OPTIONS = {
  model: "string",
  endpoint: "string",
  format: "string",
  "max-warnings": "string",
  "max-annotations": "string",
  summary: "boolean",
  "summary-only": "boolean",
  "errors-only": "boolean",
  "max-findings-per-request": "string",
  "max-line-bytes": "string",
  ndjson: "boolean",
  jobs: "string",
  "show-valid": "boolean",
  "allow-empty": "boolean",
  color: "boolean",
  preflight: "boolean",
  "preflight-allow-host": "string",
  "preflight-timeout": "string",
  "preflight-concurrency": "string",
  config: "string",
} as const satisfies Record<string, "string" | "boolean">;
type OptionName = keyof typeof OPTIONS;

/** What the help says of each flag; the preflight's defaults from their one home, loaded only for the help. */
function described(preflight: typeof PREFLIGHT_DEFAULTS | undefined): Record<OptionName, string> {
  return {
    model: "model of bare payloads (e.g. example/model-a or modelA)",
    endpoint: "endpoint of bare payloads (e.g. keyframes-to-video)",
    format: formatChoices(),
    "max-warnings": "exit 1 when there are more than N warnings (default: no limit)",
    "max-annotations": `github: annotate at most N findings (default ${DEFAULT_MAX_ANNOTATIONS}), then one line saying how many more (the summary line counts them all)`,
    summary:
      "after the results: per endpoint (requests, invalid), per rule (findings, share of requests, where first seen) and per field (array indices folded: /input/keyframes/*/frame_index); in json the summary object's byEndpoint, byRule and byField; markdown always has it",
    "summary-only": 'the summary instead of the results (json: "results" is empty)',
    "errors-only":
      "leave valid payloads (also those with only warnings) out of the results; the summary still counts them",
    "max-findings-per-request": `findings kept per payload, from 1 to ${MAX_FINDINGS_LIMIT} (default ${DEFAULT_MAX_FINDINGS}): the first N, then one lint/more-findings saying how many more (the summary counts them all)`,
    "max-line-bytes":
      "longest NDJSON line read, in bytes (default 8388608, 8 MiB); a longer line is reported (lint/line-too-long) and skipped, never buffered whole",
    ndjson:
      "read stdin as NDJSON, one payload per line (without it, stdin whose first line is a whole JSON value followed by another value is read as NDJSON)",
    jobs: `lint NDJSON on N threads (N - 1 workers and this one), output unchanged; a run under ${INLINE_LINES} lines (or a file with under ${limitSize(MIN_REMAINING_BYTES)} left), .json documents and --preflight stay on one thread. Default: the cores, at most ${DEFAULT_JOBS_CAP} (here ${defaultJobs()}), where they pay: a file with ${limitSize(AUTO_MIN_REMAINING_BYTES)} or more left to read (a gzip file: to decompress), or stdin`,
    "show-valid": "pretty: also list the valid payloads",
    "allow-empty":
      "exit 0 when there is nothing to lint (no file named, an empty directory, a glob matching nothing) instead of 2",
    color:
      "pretty: colour (--no-color: none; default: on a terminal; FORCE_COLOR forces it, a non-empty NO_COLOR turns it off)",
    preflight:
      "also fetch the files payloads reference (images, videos, audios, documents, web pages) the way the service will and check them on their bytes (docs/preflight.md); without it lint makes no network request at all",
    "preflight-allow-host":
      "HOST[:PORT]: treat HOST (that port only, with :PORT) as public: a local mirror or a test server; repeatable (without it 127.0.0.1, localhost and private addresses are reported, and nothing is sent to them)",
    "preflight-timeout": `SECONDS per request, its headers and whole body (default ${preflight === undefined ? "" : preflight.timeoutMs / 1000})`,
    "preflight-concurrency": `requests at a time to one host (default ${preflight?.concurrency ?? ""})`,
    config: "config file (default: ./vsk.config.json if present, else the three embedded models)",
  };
}

const ABOUT = [
  "Checks request payloads the way the service would, before anyone waits for a failed prediction. A .json file holds one payload; .ndjson / .jsonl hold one per line. Directories and globs expand to their .json, .ndjson and .jsonl files (an existing file named like a glob, requests[1].json, is read as itself); - reads stdin (only -: with no file named, lint reads nothing and exits 2). gzip (recognised by its bytes) and brotli (.br) are decompressed as they stream; directories and globs also pick up .json.gz, .ndjson.gz, .jsonl.gz and their .br forms.",
  'A payload is bare (then --model and --endpoint say what it is for) or an envelope {"model": "<owner>/<name>" or alias, "endpoint": "<endpoint>", "input": {…}}.',
  "Exit codes: 0 all valid, 1 some invalid (or too many warnings), 2 usage or I/O error.",
];

/**
 * A flag's value as lint has always read it (issue 28.6, kept when lint moved to yargs, 42.5): a
 * flag that takes a value followed by nothing, or by a word that looks like an option
 * (`--jobs -1`, where yargs would take -1 and could take `--model -x` as two flags), and a
 * `--flag=value` for a flag that takes none, are usage errors that say how to write them. Read
 * left to right up to `--`; an option it does not know is left to yargs, which reports it.
 */
function valueProblem(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === "--") return undefined;
    if (!word.startsWith("--")) {
      if (word.startsWith("-") && word !== "-" && word !== "-h") return undefined;
      continue;
    }
    const eq = word.indexOf("=");
    const name = word.slice(2, eq === -1 ? undefined : eq);
    const known = Object.hasOwn(OPTIONS, name) ? OPTIONS[name as OptionName] : name === "help" ? "boolean" : undefined;
    const type =
      known ?? (name.startsWith("no-") && OPTIONS[name.slice(3) as OptionName] === "boolean" ? "boolean" : undefined);
    if (type === undefined) return undefined;
    if (type === "boolean") {
      if (eq !== -1) return `Option '--${name}' does not take an argument`;
      continue;
    }
    if (eq !== -1) continue;
    const value = argv[i + 1];
    if (value === undefined) return `Option '--${name} <value>' argument missing`;
    // `--jobs -1`: say what to write instead
    if (value.length > 1 && value.startsWith("-"))
      return `--${name} is followed by an option, not its value (a value starting with - is written --${name}=VALUE)`;
    i++;
  }
  return undefined;
}

/** The flags as typed: a flag given more than once is its last value, but `--preflight-allow-host`, which is repeatable. */
type LintValues = {
  [K in OptionName]?: K extends "preflight-allow-host"
    ? string[]
    : (typeof OPTIONS)[K] extends "boolean"
      ? boolean
      : string;
};

/** The flags and the inputs, or "help" when yargs printed the help. */
async function parseLintArgs(argv: string[]): Promise<{ values: LintValues; positionals: string[] } | "help"> {
  const help = helpShown(argv);
  if (!help) {
    const problem = valueProblem(argv);
    if (problem !== undefined) usage(problem);
  }
  const texts = described(help ? (await import("../preflight/index.js")).PREFLIGHT_DEFAULTS : undefined);
  const parser = commandParser(argv, "lint", "[FILES… | -] [options]", ABOUT)
    // files are positionals: only options are checked strictly
    .strict(false)
    .strictOptions()
    .parserConfiguration({ "parse-positional-numbers": false });
  for (const [name, type] of Object.entries(OPTIONS))
    parser.option(name, { type, describe: texts[name as OptionName] });
  const parsed = (await parser.parseAsync()) as Record<string, unknown> & { _: Array<string | number> };
  if (help) return "help";
  const values: Record<string, unknown> = {};
  for (const [name, type] of Object.entries(OPTIONS)) {
    const given = [parsed[name] ?? []].flat();
    if (given.length === 0) continue;
    values[name] =
      name === "preflight-allow-host"
        ? given.map(String)
        : type === "boolean"
          ? given.at(-1) === true
          : String(given.at(-1));
  }
  return { values: values as LintValues, positionals: parsed._.map(String) };
}

function usage(message: string): never {
  // a flag's value in the message was redacted before it was quoted (shownArgument), never the message
  throw new CliError(`lint: ${message} (see \`vsk lint --help\`)`, ExitCode.usage);
}

/** A flag's value as a whole number (digits only) that `fits`; else a usage error: `<problem>, not <value>`. */
function wholeNumber(value: string, problem: string, fits: (n: number) => boolean = () => true): number {
  const n = /^\d+$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || !fits(n)) usage(`${problem}, not ${shownArgument(value)}`);
  return n;
}

/**
 * Colour (issue 30.4): `--no-color` / `--color` first (the last given), then a non-empty `NO_COLOR` (no-color.org:
 * an empty one is unset), then `FORCE_COLOR` (GitHub Actions logs; `0` or `false` turns it off),
 * else whether stdout is a terminal.
 */
function wantsColor(flag: boolean | undefined, tty: boolean): boolean {
  if (flag !== undefined) return flag;
  const noColor = process.env.NO_COLOR;
  if (noColor !== undefined && noColor !== "") return false;
  const force = process.env.FORCE_COLOR;
  if (force !== undefined) return !["0", "false"].includes(force.trim().toLowerCase());
  return tty;
}

/** --preflight and its flags as the preflight's options, or undefined without --preflight. */
function preflightOptionsOf(values: {
  preflight?: boolean;
  "preflight-allow-host"?: string[];
  "preflight-timeout"?: string;
  "preflight-concurrency"?: string;
}): PreflightOptions | undefined {
  const given = (["preflight-allow-host", "preflight-timeout", "preflight-concurrency"] as const).filter(
    (f) => values[f] !== undefined,
  );
  if (values.preflight !== true) {
    if (given.length > 0) usage(`--${given[0]} needs --preflight`);
    return undefined;
  }
  const allowHosts = values["preflight-allow-host"] ?? [];
  for (const host of allowHosts)
    if (!/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/i.test(host.trim()))
      usage(`--preflight-allow-host takes HOST or HOST:PORT (e.g. 127.0.0.1:8080), not ${shownArgument(host)}`);
  const options: PreflightOptions = {
    allowHosts: allowHosts.map((h) => h.trim()),
    allowHostsName: "--preflight-allow-host",
  };
  const timeout = values["preflight-timeout"];
  if (timeout !== undefined) {
    const seconds = /^\d+(\.\d+)?$/.test(timeout.trim()) ? Number(timeout) : NaN;
    if (!(seconds > 0) || seconds > 3600)
      usage(`--preflight-timeout must be a number of seconds above 0 (at most 3600), not ${shownArgument(timeout)}`);
    options.timeoutMs = seconds * 1000;
  }
  const concurrency = values["preflight-concurrency"];
  if (concurrency !== undefined) {
    options.concurrency = wholeNumber(
      concurrency,
      "--preflight-concurrency must be a whole number from 1 to 256",
      (n) => n >= 1 && n <= 256,
    );
  }
  return options;
}

/** The preflight's part of the progress line (issue 26). */
function preflightPart(run: LintPreflight): () => string {
  return () => {
    const { urls, requests, bytes } = run.stats();
    return `preflight: ${plural(urls, "file")}, ${plural(requests, "request")}, ${byteSize(bytes)} read`;
  };
}

export async function runLint(argv: string[]): Promise<number> {
  const parsed = await parseLintArgs(argv);
  if (parsed === "help") return ExitCode.ok;
  const { values, positionals } = parsed;
  const format = values.format ?? FORMAT_NAMES[0]!;
  if (!isFormat(format)) usage(`--format must be one of ${FORMAT_NAMES.join(", ")}, not ${shownArgument(format)}`);
  let maxWarnings = Infinity;
  if (values["max-warnings"] !== undefined) {
    maxWarnings = /^-?\d+$/.test(values["max-warnings"].trim()) ? Number(values["max-warnings"]) : NaN;
    if (!Number.isInteger(maxWarnings) || maxWarnings < -1)
      usage(`--max-warnings must be a whole number, not ${shownArgument(values["max-warnings"])}`);
    if (maxWarnings === -1) maxWarnings = Infinity;
  }
  const maxLineBytes =
    values["max-line-bytes"] === undefined
      ? DEFAULT_MAX_LINE_BYTES
      : wholeNumber(values["max-line-bytes"], "--max-line-bytes must be a whole number of bytes >= 1", (n) => n >= 1);
  const maxFindings =
    values["max-findings-per-request"] === undefined
      ? DEFAULT_MAX_FINDINGS
      : wholeNumber(
          values["max-findings-per-request"],
          `--max-findings-per-request must be a whole number from 1 to ${MAX_FINDINGS_LIMIT}`,
          (n) => n >= 1 && n <= MAX_FINDINGS_LIMIT,
        );
  const maxAnnotations =
    values["max-annotations"] === undefined
      ? DEFAULT_MAX_ANNOTATIONS
      : wholeNumber(values["max-annotations"], "--max-annotations must be a whole number");
  const jobs =
    values.jobs === undefined
      ? ("auto" as const)
      : wholeNumber(values.jobs, `--jobs must be a whole number from 1 to ${MAX_JOBS}`, (n) => n >= 1 && n <= MAX_JOBS);
  const preflight = preflightOptionsOf(values);
  const color = FORMATS[format].colors && wantsColor(values.color, process.stdout.isTTY === true);
  const stepSummary = process.env.GITHUB_STEP_SUMMARY;
  // one progress line on a terminal's stderr, never on a pipe or in CI (src/cli/progress.ts)
  const progress = progressWanted(process.stderr, process.env) ? new ProgressLine(process.stderr) : undefined;
  // V8's collector tuned for lint's stream (src/cli/gc-tuning.ts), where the run may be long; with
  // one thread all along (no worker can start) the young generation is held at its size too
  const oneThread = preflight !== undefined || (jobs === "auto" ? defaultJobs() : jobs) === 1;
  const untune = mayRunLong(positionals, process.cwd()) ? tuneGarbageCollector({ hold: oneThread }) : () => {};
  let run;
  try {
    run = await runLintStage(
      {
        cwd: process.cwd(),
        inputs: positionals,
        ...(values.config === undefined ? {} : { config: values.config }),
        ...(values.model === undefined ? {} : { model: values.model }),
        ...(values.endpoint === undefined ? {} : { endpoint: values.endpoint }),
        format,
        context: {
          color,
          showValid: values["show-valid"] === true,
          stepSummary: stepSummary ? (markdown) => appendStepSummary(stepSummary, markdown) : undefined,
          maxAnnotations,
        },
        out: progress?.stdout(process.stdout) ?? process.stdout,
        errorsOnly: values["errors-only"] === true,
        summary: values["summary-only"] === true ? "only" : values.summary === true ? "after" : "off",
        ndjson: values.ndjson === true,
        maxLineBytes,
        maxFindings,
        allowEmpty: values["allow-empty"] === true,
        maxWarnings,
        jobs,
        exitSoFar: exitCodeSoFar,
        ...(preflight === undefined ? {} : { preflight }),
        ...(progress === undefined
          ? {}
          : {
              onProgress: (stats) => progress.add(() => progressText(stats(), progress.seconds())),
              onPreflight: (run) => progress.add(preflightPart(run)),
            }),
      },
      writeNote,
    );
  } catch (error) {
    if (error instanceof LintUsageError) usage(error.message);
    if (error instanceof LintWorkerError) throw new CliError(`lint: ${error.message}`, ExitCode.usage);
    const failure = toCliError(error);
    if (failure instanceof CliError) throw failure;
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== undefined) throw new CliError(`cannot recover an interrupted write (${code})`, ExitCode.usage);
    throw error;
  } finally {
    untune();
  }
  return run.exitCode;
}

/** A note of the run on stderr, escaped for the terminal. */
function writeNote({ level, text }: LintNote): void {
  process.stderr.write(`vsk: ${level === "warning" ? "warning: " : ""}${terminalText(text)}\n`);
}

/** `--format github`: the Markdown summary appended to `$GITHUB_STEP_SUMMARY`; a failure is said, not fatal. */
function appendStepSummary(file: string, markdown: string): void {
  try {
    appendFileSync(file, markdown);
  } catch (error) {
    process.stderr.write(
      `vsk: could not append to GITHUB_STEP_SUMMARY (${(error as NodeJS.ErrnoException).code ?? String(error)})\n`,
    );
  }
}
