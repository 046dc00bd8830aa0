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
  DEFAULT_MODELS,
  describeModels,
  findModel,
  loadConfig,
  PACKAGE_ROOT,
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
import { loadModelDocument, otherModelNamed } from "../schema/index.js";
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

type Outcome = { ok: true; fetched: FetchedModel; otherModel?: string } | { ok: false; message: string };
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

/**
 * No schema URL anywhere, and only the example models to pull (a bare `vsk init`'s config, or no
 * config): they are the package's embedded snapshot, so `pull` copies them from there, offline
 * (issue 42.3). A model of your own still needs a schema URL.
 */
function embeddedExamples(args: PullArgs, config: VskConfig, models: readonly ModelRef[]): boolean {
  const unset = (value: string | undefined): boolean => value === undefined || value.trim() === "";
  return (
    unset(args.schemaUrl) &&
    unset(config.schemaUrl) &&
    unset(process.env.VSK_SCHEMA_URL) &&
    models.every((m) => DEFAULT_MODELS.some((d) => d.id === m.id))
  );
}

/** The package's embedded snapshot, as a source: `<package>/schemas-cache/<owner>/<name>/latest.json`. */
const EMBEDDED_DIR = join(PACKAGE_ROOT, "schemas-cache");
const EMBEDDED: SchemaSource = { kind: "directory", dir: EMBEDDED_DIR };

async function pullEmbedded(ref: ModelRef): Promise<Outcome> {
  const file = join(EMBEDDED_DIR, snapshotFile(ref.id));
  try {
    const text = readFileSync(file, "utf8");
    loadModelDocument(JSON.parse(text), { model: ref.id, file });
    // recorded by the package's name, not a path: the same on every machine
    return {
      ok: true,
      fetched: { model: ref.id, text, source: `video-schema-kit/schemas-cache/${snapshotFile(ref.id)}` },
    };
  } catch (error) {
    return {
      ok: false,
      message: `${ref.id}: the embedded example snapshot cannot be read (${(error as Error).message})`,
    };
  }
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
    const otherModel = otherModelNamed(got.document, ref.id);
    return {
      ok: true,
      fetched: { model: ref.id, text: got.text, source: sourceLabel(got.source, baseDir) },
      ...(otherModel === undefined ? {} : { otherModel }),
    };
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
  let models: ModelRef[];
  let embedded = false;
  try {
    config = loadConfig(cwd, args.config);
    // The snapshot written is the project's own schemas-cache/, never the installed package's.
    config = { ...config, snapshotDir: snapshotWriteDir(config, cwd) };
    models = selectModels(config, args.models);
    embedded = embeddedExamples(args, config, models);
    source = embedded ? EMBEDDED : chooseSource(args, config, cwd);
    resolveFetchOptions(); // a bad VSK_FETCH_* / VSK_API_KEY is a usage error, reported before any request
  } catch (error) {
    throw toCliError(error, (message) => `pull: ${message}`);
  }
  if (embedded)
    err(
      `vsk: no schema URL is set, and ${models.length === 1 ? "this is an example model" : "these are the example models"}: copied from video-schema-kit's embedded snapshot (set "schemaUrl" or pass --schema-url to pull published schemas)`,
    );
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
    const baseDir = config.file === undefined ? cwd : dirname(config.file);
    const outcome = embedded
      ? await pullEmbedded(ref)
      : await pullOne(
          source,
          ref,
          { onRetry, ...(args.deadlineMs === undefined ? {} : { deadlineMs: args.deadlineMs }) },
          baseDir,
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

  const succeeded = outcomes as Extract<Outcome, { ok: true }>[];
  // issue 42.3: a document that says it is another model is stored (the ids are yours), with a word
  for (const o of succeeded)
    if (o.otherModel !== undefined)
      err(
        `vsk: warning: ${o.fetched.model}: the document from ${o.fetched.source} names another model: ${o.otherModel}; stored anyway: check the schema URL and the model id (a mirror's copy under the wrong name?)`,
      );
  const fetched = succeeded.map((o) => o.fetched);
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
