/**
 * `vsk pull [--schema-url URL] [--model ID|ALIAS]… [--config FILE]`: refreshes the snapshot
 * from `{schema_url}/main/{owner}/{name}/latest.json` (spec 9.1). All-or-nothing: every
 * selected model is fetched and loaded before anything is written; one failure leaves the
 * snapshot unchanged byte for byte. Exit 0 ok, 2 usage or a snapshot (manifest) that cannot be read
 * or written, 3 fetch or parse failure.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  describeModels,
  findModel,
  loadConfig,
  snapshotWriteDir,
  type ModelRef,
  type VskConfig,
} from "../config/index.js";
import {
  chooseSchemaSource,
  describeSource,
  fetchModelSchema,
  parseTimeoutSeconds,
  mapLimit,
  resolveFetchOptions,
  scrubSecrets,
  type RetryEvent,
  type SchemaSource,
} from "../fetch/index.js";
import { loadModelDocument } from "../schema/index.js";
import {
  prepareSnapshotRead,
  readManifest,
  readSnapshotFile,
  sha256,
  snapshotFile,
  writeSnapshot,
  sourceLabel,
  type FetchedModel,
  type Manifest,
} from "../snapshot/index.js";
import { terminalText } from "../escape/index.js";
import { commandParser } from "./args.js";
import { CliError, ExitCode, stageErrorOf, toCliError } from "./errors.js";
import { plural } from "../words/index.js";

/** How many models are fetched at once. */
const CONCURRENCY = 4;

interface PullArgs {
  schemaUrl?: string;
  models: string[];
  config?: string;
  /** `--timeout SECONDS`, as milliseconds */
  deadlineMs?: number;
}

type Outcome = { ok: true; fetched: FetchedModel } | { ok: false; message: string };
type Change = "new" | "updated" | "unchanged";

async function parseArgs(argv: string[]): Promise<PullArgs | "help"> {
  const parsed = await commandParser(argv, "pull", "[--schema-url URL] [--model ID|ALIAS]… [--config FILE]", [
    "Fetches {schema_url}/main/<owner>/<name>/latest.json for each configured model into the snapshot " +
      "(schemas-cache/). URL is https://…, http://…, file://… or a mirror directory. All-or-nothing: on any " +
      "failure nothing is written.",
    "Exit codes: 0 ok, 2 usage or a snapshot that cannot be read or written, 3 fetch or parse failure.",
  ])
    .option("schema-url", {
      type: "string",
      describe: "where the schemas are published (default: config schemaUrl, then $VSK_SCHEMA_URL)",
    })
    .option("model", {
      type: "string",
      array: true,
      describe: "a model id or alias to pull (repeatable; default: every configured model)",
    })
    .option("config", {
      type: "string",
      describe:
        'config file (default: the first vsk.config.json, or a package.json "vsk" key, here or above up to the package root; else the example models)',
    })
    .option("timeout", {
      type: "string",
      describe:
        "overall deadline of each model's fetch, in seconds (default 60, or $VSK_FETCH_TIMEOUT); exit 3 when it passes",
    })
    .epilogue(
      "Environment: VSK_API_KEY sends 'Authorization: Key <key>' (never printed); VSK_FETCH_TIMEOUT (seconds, as --timeout), VSK_FETCH_TIMEOUT_MS, VSK_FETCH_RETRIES, VSK_RETRY_BASE_MS, VSK_RETRY_MAX_DELAY_MS, VSK_FETCH_MAX_BYTES tune the fetch.",
    )
    .parseAsync();
  if (parsed.help === true) return "help";
  const single = (flag: string, value: unknown): string | undefined => {
    if (value === undefined) return undefined;
    if (typeof value !== "string" || value === "")
      throw new CliError(`pull: --${flag} takes one value (see \`vsk pull --help\`)`, ExitCode.usage);
    return value;
  };
  const models = (parsed.model ?? []).map(String);
  if (parsed.model !== undefined && (models.length === 0 || models.some((m) => m === ""))) {
    throw new CliError("pull: --model needs a model id or alias (see `vsk pull --help`)", ExitCode.usage);
  }
  const schemaUrl = single("schema-url", parsed["schema-url"]);
  const config = single("config", parsed.config);
  const timeout = single("timeout", parsed.timeout);
  let deadlineMs: number | undefined;
  try {
    if (timeout !== undefined) deadlineMs = parseTimeoutSeconds(timeout, "--timeout");
  } catch (error) {
    throw toCliError(error, (message) => `pull: ${message}`);
  }
  return {
    models,
    ...(schemaUrl === undefined ? {} : { schemaUrl }),
    ...(config === undefined ? {} : { config }),
    ...(deadlineMs === undefined ? {} : { deadlineMs }),
  };
}

/** Flag, then config `schemaUrl` (a relative directory is relative to the config file), then `VSK_SCHEMA_URL`. */
function chooseSource(args: PullArgs, config: VskConfig, cwd: string): SchemaSource {
  return chooseSchemaSource(
    { flag: args.schemaUrl, configUrl: config.schemaUrl, configFile: config.file, env: process.env.VSK_SCHEMA_URL },
    cwd,
  );
}

function selectModels(config: VskConfig, wanted: readonly string[]): ModelRef[] {
  if (wanted.length === 0) return config.models;
  const picked = new Map<string, ModelRef>();
  for (const name of wanted) {
    const ref = findModel(config, name);
    if (ref === undefined)
      throw new CliError(`pull: unknown model "${name}"; known: ${describeModels(config)}`, ExitCode.usage);
    picked.set(ref.id, ref);
  }
  return [...picked.values()];
}

/** Fetch, then load (stage 2) so that a document that is not a model is caught before any write. */
async function pullOne(
  source: SchemaSource,
  ref: ModelRef,
  options: { onRetry: (event: RetryEvent) => void; deadlineMs?: number },
  baseDir: string,
): Promise<Outcome> {
  try {
    const got = await fetchModelSchema(source, ref.id, options);
    loadModelDocument(got.document, { model: ref.id, file: got.source });
    return { ok: true, fetched: { model: ref.id, text: got.text, source: sourceLabel(got.source, baseDir) } };
  } catch (error) {
    // a source that cannot be fetched or parsed (exit 3) is reported with the other models' outcomes
    if (stageErrorOf(error)?.exitCode === ExitCode.source) return { ok: false, message: (error as Error).message };
    throw error;
  }
}

function changeOf(snapshotDir: string, fetched: FetchedModel): Change {
  const file = join(snapshotDir, snapshotFile(fetched.model));
  if (!existsSync(file)) return "new";
  try {
    return readSnapshotFile(file).sha256 === sha256(fetched.text) ? "unchanged" : "updated";
  } catch {
    return "updated"; // unreadable (a FIFO or a directory in the way, EACCES): writing it says what is wrong
  }
}

export async function runPull(argv: string[]): Promise<number> {
  const cwd = process.cwd();
  // Belt and braces: whatever a message holds, no URL keeps its query string and the key is never printed (spec 5).
  const scrub = (text: string): string => scrubSecrets(text);
  const out = (line: string): void => void process.stdout.write(scrub(terminalText(line)) + "\n");
  const err = (line: string): void => void process.stderr.write(scrub(terminalText(line)) + "\n");

  const args = await parseArgs(argv);
  if (args === "help") return ExitCode.ok;
  let config: VskConfig;
  let source: SchemaSource;
  try {
    config = loadConfig(cwd, args.config);
    // The snapshot written is the project's own schemas-cache/, never the installed package's.
    config = { ...config, snapshotDir: snapshotWriteDir(config, cwd) };
    source = chooseSource(args, config, cwd);
    resolveFetchOptions(); // a bad VSK_FETCH_* / VSK_API_KEY is a usage error, reported before any request
  } catch (error) {
    throw toCliError(error, (message) => `pull: ${message}`);
  }
  const models = selectModels(config, args.models);
  // Read before any request: a corrupt manifest is reported at once, never rewritten without the other models.
  let manifest: Manifest;
  try {
    prepareSnapshotRead(config.snapshotDir); // finish or undo a write a killed vsk left
    manifest = readManifest(config.snapshotDir);
  } catch (error) {
    throw toCliError(error, (message) => `pull: ${scrub(message)}`);
  }

  const progress = process.stderr.isTTY === true;
  let done = 0;
  const showProgress = (note = ""): void => {
    if (progress)
      process.stderr.write(
        scrub(`\r\x1b[2Kvsk pull: ${done}/${models.length} fetched from ${describeSource(source)}${note}`),
      );
  };
  const onRetry = (e: RetryEvent): void => {
    const note = `${e.model}: ${e.problem}; retrying in ${(e.delayMs / 1000).toFixed(1)} s (attempt ${e.attempt + 1})`;
    if (progress) showProgress(`, ${note}`);
    else err(`vsk: ${note}`);
  };
  showProgress();
  const outcomes = await mapLimit(models, CONCURRENCY, async (ref) => {
    const outcome = await pullOne(
      source,
      ref,
      { onRetry, ...(args.deadlineMs === undefined ? {} : { deadlineMs: args.deadlineMs }) },
      config.file === undefined ? cwd : dirname(config.file),
    );
    done++;
    showProgress();
    return outcome;
  });
  if (progress) process.stderr.write("\r\x1b[2K");

  const failures = outcomes.filter((o): o is Extract<Outcome, { ok: false }> => !o.ok);
  if (failures.length > 0) {
    for (const f of failures) err(`vsk: ${f.message}`);
    err(
      `vsk: pull failed for ${failures.length} of ${plural(models.length, "model")}; ${config.snapshotDir} left unchanged`,
    );
    return ExitCode.source;
  }

  const fetched = outcomes.map((o) => (o as Extract<Outcome, { ok: true }>).fetched);
  const changes = fetched.map((f) => changeOf(config.snapshotDir, f));
  // Unchanged files whose manifest entry already says so are left alone: a no-op pull leaves the tree clean.
  const toWrite = fetched.filter((f, i) => {
    const entry = manifest.models[f.model];
    return (
      changes[i] !== "unchanged" || entry === undefined || entry.sha256 !== sha256(f.text) || entry.source !== f.source
    );
  });
  try {
    if (toWrite.length > 0) writeSnapshot(config.snapshotDir, toWrite);
  } catch (error) {
    throw toCliError(error, (message) => `pull: ${scrub(message)}`);
  }

  const width = Math.max(...fetched.map((f) => f.model.length));
  fetched.forEach((f, i) =>
    out(`${f.model.padEnd(width)}  ${changes[i]!.padEnd(9)}  sha256:${sha256(f.text).slice(0, 8)}…  ${f.source}`),
  );
  const count = (c: Change): number => changes.filter((x) => x === c).length;
  out(
    `${plural(fetched.length, "model")} in ${config.snapshotDir}: ${count("new")} new, ${count("updated")} updated, ${count("unchanged")} unchanged`,
  );
  return ExitCode.ok;
}
