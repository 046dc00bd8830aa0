/**
 * `vsk drift [--schema-url URL] [--format text|markdown|json|github|sarif] [--fail-on breaking|behavior|any|never]
 * [--requests FILES… [--ndjson]] [--update]`: what changed in the published schemas (spec 9.1) against the
 * committed snapshot, and what it breaks. Exit 0 nothing at or above --fail-on, 1 drift at or
 * above it, 2 usage, 3 a model could not be fetched or parsed (never "no drift").
 */
import { appendFileSync } from "node:fs";
import {
  ACCEPT_FILE,
  DriftStageError,
  DriftUsageError,
  FAIL_ON,
  FORMAT_NAMES,
  FORMATS,
  formatMarkdown,
  runDrift as runDriftStage,
  type FailOn,
  type FormatName as Format,
} from "../drift/index.js";
import { parseTimeoutSeconds, scrubSecrets } from "../fetch/index.js";
import { terminalText } from "../escape/index.js";
import { commandParser, helpShown } from "./args.js";
import { CliError, ExitCode, toCliError } from "./errors.js";
import { exitCodeSoFar } from "./closed-pipe.js";

interface DriftArgs {
  schemaUrl?: string;
  format: Format;
  failOn: FailOn;
  requests?: string[];
  ndjson: boolean;
  update: boolean;
  config?: string;
  model?: string;
  endpoint?: string;
  /** `--timeout SECONDS`, as milliseconds */
  deadlineMs?: number;
}

/**
 * `--requests a.json - b.json` as `--requests=a.json --requests=- --requests=b.json`: yargs ends
 * an array option's values at the first word starting with `-`, stdin's `-` included, and then
 * rejects `-` as an unknown argument.
 */
function spellOutRequests(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === "--") {
      out.push(...argv.slice(i));
      break;
    }
    if (word !== "--requests") {
      out.push(word);
      continue;
    }
    let values = 0;
    while (i + 1 < argv.length && (argv[i + 1] === "-" || !argv[i + 1]!.startsWith("-"))) {
      out.push(`--requests=${argv[++i]!}`);
      values++;
    }
    if (values === 0) out.push(word);
  }
  return out;
}

async function parseArgs(argv: string[]): Promise<DriftArgs | "help"> {
  const parsed = await commandParser(
    spellOutRequests(argv),
    "drift",
    `[--schema-url URL] [--format ${FORMAT_NAMES.join("|")}] [--fail-on ${FAIL_ON.join("|")}] [--requests FILES… [--ndjson]] [--update]`,
  )
    .epilogue(
      "Compares each configured model's {schema_url}/main/<owner>/<name>/latest.json with the snapshot (schemas-cache/).\n" +
        "Exit codes: 0 nothing at or above --fail-on, 1 drift at or above it, 2 usage, 3 a model could not be fetched or parsed.\n" +
        `Accepted changes: ${ACCEPT_FILE} (beside vsk.config.json, else in the current directory). See docs/drift.md.`,
    )
    .option("schema-url", {
      type: "string",
      describe:
        "where the schemas are published: https://…, http://…, file://… or a mirror directory (default: config schemaUrl, then $VSK_SCHEMA_URL)",
    })
    .option("format", {
      choices: FORMAT_NAMES,
      default: "text" as Format,
      describe: `report format: ${FORMAT_NAMES.map((name) => `${name} (${FORMATS[name].describe})`).join(", ")}`,
    })
    .option("fail-on", {
      choices: FAIL_ON,
      default: "breaking" as FailOn,
      describe: "lowest severity that exits 1 (behavior includes unclassified)",
    })
    .option("requests", {
      type: "string",
      array: true,
      describe:
        "payload files (JSON, NDJSON/JSONL, envelopes; - for stdin) to check against snapshot and source, as vsk lint reads them",
    })
    .option("ndjson", {
      type: "boolean",
      default: false,
      describe: "with --requests -: read stdin as NDJSON, one payload per line (as vsk lint --ndjson)",
    })
    .option("model", { type: "string", describe: "with --requests: the model of payloads that are not envelopes" })
    .option("endpoint", {
      type: "string",
      describe: "with --requests: the endpoint of payloads that are not envelopes",
    })
    .option("update", {
      type: "boolean",
      default: false,
      describe: "accept the source as the new snapshot (atomically, like pull) and exit 0",
    })
    .option("config", { type: "string", describe: "config file (default: ./vsk.config.json if present)" })
    .option("timeout", {
      type: "string",
      describe:
        "overall deadline of each model's fetch, in seconds (default 60, or $VSK_FETCH_TIMEOUT); exit 3 when it passes",
    })
    .parseAsync();
  if (helpShown(argv) || parsed.help === true) return "help";
  const single = (flag: string, value: unknown): string | undefined => {
    if (value === undefined) return undefined;
    if (typeof value !== "string" || value === "")
      throw new CliError(`drift: --${flag} takes one value\nRun \`vsk drift --help\` for the options.`, ExitCode.usage);
    return value;
  };
  const requests = parsed.requests?.map(String);
  if (requests !== undefined && requests.length === 0)
    throw new CliError(
      "drift: --requests needs at least one file\nRun `vsk drift --help` for the options.",
      ExitCode.usage,
    );
  if (requests !== undefined && requests.filter((r) => r === "-").length > 1)
    throw new CliError("drift: stdin (-) can be read only once", ExitCode.usage);
  const args: DriftArgs = {
    format: parsed.format as Format,
    failOn: parsed["fail-on"] as FailOn,
    ndjson: parsed.ndjson === true,
    update: parsed.update === true,
  };
  const schemaUrl = single("schema-url", parsed["schema-url"]);
  const config = single("config", parsed.config);
  const model = single("model", parsed.model);
  const endpoint = single("endpoint", parsed.endpoint);
  if ((model !== undefined || endpoint !== undefined) && requests === undefined)
    throw new CliError("drift: --model and --endpoint only apply with --requests", ExitCode.usage);
  if (args.ndjson && requests === undefined)
    throw new CliError("drift: --ndjson only applies with --requests", ExitCode.usage);
  const timeout = single("timeout", parsed.timeout);
  let deadlineMs: number | undefined;
  try {
    if (timeout !== undefined) deadlineMs = parseTimeoutSeconds(timeout, "--timeout");
  } catch (error) {
    throw toCliError(error, (message) => `drift: ${message}`);
  }
  return {
    ...args,
    ...(deadlineMs === undefined ? {} : { deadlineMs }),
    ...(schemaUrl === undefined ? {} : { schemaUrl }),
    ...(config === undefined ? {} : { config }),
    ...(requests === undefined ? {} : { requests }),
    ...(model === undefined ? {} : { model }),
    ...(endpoint === undefined ? {} : { endpoint }),
  };
}

/** A drift error as the CLI words it: `drift: …` or `drift --update: …`, the exit code from the stage table. */
function cliErrorOf(error: unknown): unknown {
  if (error instanceof DriftUsageError) return new CliError(`drift: ${error.message}`, ExitCode.usage);
  if (error instanceof DriftStageError)
    return toCliError(error.cause, (message) =>
      error.phase === "update" ? `drift --update: ${scrubSecrets(message)}` : `drift: ${message}`,
    );
  return error;
}

/** Runs `vsk drift`: arguments in, the report out in the chosen format; the run itself is `src/drift/run.ts`. */
export async function runDrift(argv: string[]): Promise<number> {
  const args = await parseArgs(argv);
  if (args === "help") return ExitCode.ok;
  // our notes are redacted by the run, then escaped for the terminal here
  const err = (line: string): void => void process.stderr.write(terminalText(line) + "\n");
  let run;
  try {
    run = await runDriftStage({ cwd: process.cwd(), ...args }, err);
  } catch (error) {
    throw cliErrorOf(error);
  }
  // the report decides the code before it is written: a reader that stops early (`| head`) still fails
  exitCodeSoFar(() => run.report.summary.exitCode);
  process.stdout.write(FORMATS[args.format].render(run.report, run.files));
  const summaryFile = process.env.GITHUB_STEP_SUMMARY;
  if (args.format === "github" && summaryFile) {
    try {
      appendFileSync(summaryFile, formatMarkdown(run.report));
    } catch (error) {
      // as `vsk lint` does: one line, and the exit code stays the report's
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      err(`vsk: could not append to GITHUB_STEP_SUMMARY (${code})`);
    }
  }
  return run.report.summary.exitCode;
}
