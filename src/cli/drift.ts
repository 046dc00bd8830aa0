/**
 * `vsk drift [--schema-url URL] [--format text|markdown|json|github] [--fail-on breaking|behavior|any|never]
 * [--requests FILES… [--ndjson]] [--update]`: what changed in the published schemas (spec 9.1) against the
 * committed snapshot, and what it breaks. Exit 0 nothing at or above --fail-on, 1 drift at or
 * above it, 2 usage, 3 a model could not be fetched or parsed (never "no drift").
 */
import { appendFileSync, existsSync, lstatSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { loadConfig, snapshotWriteDir, type VskConfig } from "../config/index.js";
import {
  ACCEPT_FILE,
  applyAccepted,
  buildReport,
  checkRequests,
  compareModel,
  FAIL_ON,
  formatGithub,
  formatMarkdown,
  formatText,
  readAcceptFile,
  sortChanges,
  type DriftReport,
  type FailOn,
  type RequestImpact,
} from "../drift/index.js";
import {
  chooseSchemaSource,
  describeSource,
  mapLimit,
  parseTimeoutSeconds,
  resolveFetchOptions,
  scrubSecrets,
  type SchemaSource,
} from "../fetch/index.js";
import { jsonText, terminalText } from "../output/index.js";
import {
  prepareSnapshotRead,
  sha256,
  readManifest,
  snapshotFile,
  sourceLabel,
  writeSnapshot,
} from "../snapshot/index.js";
import { commandParser, helpShown } from "./args.js";
import { CliError, ExitCode, toCliError } from "./errors.js";
import { plural } from "../text/index.js";
import { redactUrlsInText } from "../runtime/index.js";

const FORMATS = ["text", "markdown", "json", "github"] as const;
type Format = (typeof FORMATS)[number];
const CONCURRENCY = 4;

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
    "[--schema-url URL] [--format text|markdown|json|github] [--fail-on breaking|behavior|any|never] [--requests FILES… [--ndjson]] [--update]",
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
    .option("format", { choices: FORMATS, default: "text" as Format, describe: "report format" })
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

function render(report: DriftReport, format: Format, files: ReadonlyMap<string, string>): string {
  if (format === "json") return jsonText(JSON.stringify(report, null, 2)) + "\n";
  if (format === "markdown") return formatMarkdown(report);
  if (format === "github") return formatGithub(report, files);
  return formatText(report);
}

export async function runDrift(argv: string[]): Promise<number> {
  const cwd = process.cwd();
  // Whatever a message holds, no URL keeps its query string and the key is never printed (spec 5, 7.2).
  const scrub = (text: string): string => scrubSecrets(text);
  const err = (line: string): void => void process.stderr.write(scrub(terminalText(line)) + "\n");

  const args = await parseArgs(argv);
  if (args === "help") return ExitCode.ok;
  let config: VskConfig;
  let source: SchemaSource;
  let acceptFile: string;
  let entries;
  try {
    config = loadConfig(cwd, args.config, { requireConfigIn: "drift" });
    source = chooseSchemaSource(
      { flag: args.schemaUrl, configUrl: config.schemaUrl, configFile: config.file, env: process.env.VSK_SCHEMA_URL },
      cwd,
    );
    resolveFetchOptions();
    acceptFile = join(config.file === undefined ? cwd : dirname(config.file), ACCEPT_FILE);
    entries = readAcceptFile(acceptFile, config.models);
    prepareSnapshotRead(config.snapshotDir); // finish or undo a write a killed vsk left, before reading
  } catch (error) {
    throw toCliError(error, (message) => `drift: ${message}`);
  }

  // Nothing to compare the source with: say so before fetching anything (a usage problem, not drift).
  // lstat, not exists: a symlink loop or a FIFO is there, and is named as such when it is read
  const unpulled = config.models.filter(
    (m) => lstatSync(join(config.snapshotDir, snapshotFile(m.id)), { throwIfNoEntry: false }) === undefined,
  );
  if (unpulled.length > 0) {
    const dir = relative(cwd, config.snapshotDir) || ".";
    const all = unpulled.length === config.models.length;
    throw new CliError(
      all
        ? `drift: no snapshot in ${dir}/ to compare with (${unpulled.map((m) => m.id).join(", ")}); make one with \`vsk pull\` and commit it`
        : `drift: no snapshot of ${unpulled.map((m) => m.id).join(", ")} in ${dir}/ to compare with; fetch ${unpulled.length === 1 ? "it" : "them"} with \`vsk pull ${unpulled.map((m) => `--model ${m.alias ?? m.id}`).join(" ")}\` and commit the snapshot`,
      ExitCode.usage,
    );
  }

  const comparisons = await mapLimit(config.models, CONCURRENCY, (ref) =>
    compareModel(
      ref,
      config.snapshotDir,
      source,
      (e) =>
        err(`vsk: ${e.model}: ${e.problem}; retrying in ${(e.delayMs / 1000).toFixed(1)} s (attempt ${e.attempt + 1})`),
      args.deadlineMs === undefined ? {} : { deadlineMs: args.deadlineMs },
    ),
  );
  const all = sortChanges(
    comparisons.flatMap((c) => c.changes),
    config.models.map((m) => m.id),
  );
  const today = new Date().toISOString().slice(0, 10);
  const shownAcceptFile = relative(cwd, acceptFile) || ACCEPT_FILE;
  const { changes, accepted, warnings } = applyAccepted(all, entries, today, shownAcceptFile);

  let requests: RequestImpact | undefined;
  if (args.requests !== undefined) {
    const checked = await checkRequests(
      args.requests,
      cwd,
      config,
      comparisons,
      all,
      {
        ...(args.model === undefined ? {} : { model: args.model }),
        ...(args.endpoint === undefined ? {} : { endpoint: args.endpoint }),
      },
      { ndjson: args.ndjson },
    );
    if (checked.targetProblem !== undefined)
      throw new CliError(
        `drift: ${redactUrlsInText(checked.targetProblem)} (see \`vsk drift --help\`)`,
        ExitCode.usage,
      );
    if (checked.inputErrors.length > 0) throw new CliError(`drift: ${checked.inputErrors.join("; ")}`, ExitCode.usage);
    requests = checked.impact;
    // A request schema Ajv cannot compile: that model could not be compared (exit 3).
    for (const problem of checked.modelProblems) {
      const comparison = comparisons.find((c) => c.ref.id === problem.model);
      if (comparison !== undefined)
        comparison.report = { ...comparison.report, status: "error", message: problem.message };
    }
  }

  const report = buildReport({
    source: describeSource(source),
    models: comparisons.map((c) => c.report),
    changes,
    accepted,
    warnings,
    failOn: args.failOn,
    ...(requests === undefined ? {} : { requests }),
  });

  if (args.update) {
    // a source with no queue-shaped endpoint (spec 4.1) would be a snapshot generate and lint cannot read
    const unusable = comparisons.filter((c) => c.report.status === "changed" && c.after?.endpoints.length === 0);
    if (report.summary.exitCode === ExitCode.source) {
      err(
        `vsk: drift --update: nothing written; ${config.snapshotDir} left unchanged because a model could not be compared`,
      );
    } else if (unusable.length > 0) {
      err(
        `vsk: drift --update: nothing written; ${config.snapshotDir} left unchanged because ${unusable.map((c) => c.ref.id).join(", ")} has no queue-shaped endpoint at the source (vsk generate and vsk lint could not read it)`,
      );
    } else {
      // The snapshot written is the project's own schemas-cache/, never the installed package's.
      const dir = snapshotWriteDir(config, cwd);
      let manifest;
      try {
        manifest = readManifest(dir);
      } catch (error) {
        throw toCliError(error, (message) => `drift --update: ${scrub(message)}`);
      }
      const base = config.file === undefined ? cwd : dirname(config.file);
      const toWrite = comparisons
        .map((c) => ({ ...c.fetched!, source: sourceLabel(c.fetched!.source, base) }))
        .filter((f) => {
          const entry = manifest.models[f.model];
          return (
            entry === undefined ||
            entry.sha256 !== sha256(f.text) ||
            entry.source !== f.source ||
            dir !== config.snapshotDir
          );
        });
      try {
        if (toWrite.length > 0) writeSnapshot(dir, toWrite, new Date(), "drift --update");
      } catch (error) {
        throw toCliError(error, (message) => `drift --update: ${scrub(message)}`);
      }
      report.summary.exitCode = 0;
      report.summary.updated = toWrite.map((f) => f.model);
      err(
        `vsk: drift --update: ${plural(toWrite.length, "model")} written to ${dir}${toWrite.length > 0 ? ` (${toWrite.map((f) => f.model).join(", ")})` : ""}`,
      );
    }
  }

  const files = new Map(comparisons.map((c) => [c.ref.id, relative(cwd, c.snapshotFile)]));
  process.stdout.write(scrub(render(report, args.format, files)));
  const summaryFile = process.env.GITHUB_STEP_SUMMARY;
  if (args.format === "github" && summaryFile) {
    try {
      appendFileSync(summaryFile, scrub(formatMarkdown(report)));
    } catch (error) {
      // as `vsk lint` does: one line, and the exit code stays the report's
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      err(`vsk: could not append to GITHUB_STEP_SUMMARY (${code})`);
    }
  }
  return report.summary.exitCode;
}
