/**
 * One `vsk drift` run (spec 9.1), whoever asks (the CLI, the GitHub Action): read the config and
 * the accept file, compare every configured model's source with its snapshot, check `--requests`
 * payloads, build the report and, with `update`, accept the source as the snapshot. Returns the
 * report with every value redacted as data (issue 23.2), ready for any format of `FORMATS`.
 */
import { lstatSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { loadConfig, type VskConfig } from "../config/index.js";
import { chooseSchemaSource, describeSource, mapLimit, resolveFetchOptions, scrubSecrets } from "../fetch/index.js";
import type { SchemaSource } from "../fetch/index.js";
import { redactUrlsInText } from "../runtime/index.js";
import { redactValues } from "../runtime/redact.js";
import { prepareSnapshotRead, snapshotFile } from "../snapshot/index.js";
import { ACCEPT_FILE, applyAccepted, readAcceptFile } from "./accept.js";
import { compareModel } from "./compare.js";
import { DriftStageError, DriftUsageError } from "./errors.js";
import { buildReport, sortChanges } from "./report.js";
import { checkRequests } from "./requests.js";
import type { DriftReport, FailOn, RequestImpact } from "./types.js";
import { updateSnapshot } from "./update.js";

const CONCURRENCY = 4;

export interface DriftOptions {
  /** the directory the run is for: the config is looked for here, paths are shown relative to it */
  cwd: string;
  failOn: FailOn;
  /** `--schema-url`: overrides the config's schemaUrl and $VSK_SCHEMA_URL */
  schemaUrl?: string;
  /** `--config FILE` */
  config?: string;
  /** `--requests`: payload files to check against snapshot and source (`-` is stdin) */
  requests?: string[];
  ndjson?: boolean;
  model?: string;
  endpoint?: string;
  /** each model's fetch deadline */
  deadlineMs?: number;
  /** accept the source as the new snapshot */
  update?: boolean;
}

export interface DriftRun {
  /** every value redacted: URLs lose their query string, the API key never appears */
  report: DriftReport;
  /** model id → its snapshot file relative to `cwd` (where an annotation points) */
  files: Map<string, string>;
  config: VskConfig;
}

/** The report's JSON Pointers (a change's `pointer.before/after` and `field`, a request's `pointer`): redacted token by token. */
const POINTER_KEYS: ReadonlySet<string> = new Set(["pointer", "field"]);

/**
 * Runs drift. `log` gets our one-line notes (retries, `--update`), redacted and not yet escaped.
 * Throws `DriftUsageError` for a usage problem of drift itself and `DriftStageError` for a
 * stage's error met while setting up or updating; anything else is a bug.
 */
export async function runDrift(options: DriftOptions, log: (line: string) => void): Promise<DriftRun> {
  const { cwd } = options;
  // Whatever a note holds, no URL keeps its query string and the key is never printed (spec 5, 7.2).
  const scrub = (text: string): string => scrubSecrets(text);
  const note = (line: string): void => log(scrub(line));

  let config: VskConfig;
  let source: SchemaSource;
  let acceptFile: string;
  let entries;
  try {
    config = loadConfig(cwd, options.config, { requireConfigIn: "drift" });
    source = chooseSchemaSource(
      {
        flag: options.schemaUrl,
        configUrl: config.schemaUrl,
        configFile: config.file,
        env: process.env.VSK_SCHEMA_URL,
      },
      cwd,
    );
    resolveFetchOptions();
    acceptFile = join(config.file === undefined ? cwd : dirname(config.file), ACCEPT_FILE);
    entries = readAcceptFile(acceptFile, config.models);
    prepareSnapshotRead(config.snapshotDir); // finish or undo a write a killed vsk left, before reading
  } catch (error) {
    throw new DriftStageError("setup", error);
  }

  // Nothing to compare the source with: say so before fetching anything (a usage problem, not drift).
  // lstat, not exists: a symlink loop or a FIFO is there, and is named as such when it is read
  const unpulled = config.models.filter(
    (m) => lstatSync(join(config.snapshotDir, snapshotFile(m.id)), { throwIfNoEntry: false }) === undefined,
  );
  if (unpulled.length > 0) {
    const dir = relative(cwd, config.snapshotDir) || ".";
    const all = unpulled.length === config.models.length;
    throw new DriftUsageError(
      all
        ? `no snapshot in ${dir}/ to compare with (${unpulled.map((m) => m.id).join(", ")}); make one with \`vsk pull\` and commit it`
        : `no snapshot of ${unpulled.map((m) => m.id).join(", ")} in ${dir}/ to compare with; fetch ${unpulled.length === 1 ? "it" : "them"} with \`vsk pull ${unpulled.map((m) => `--model ${m.alias ?? m.id}`).join(" ")}\` and commit the snapshot`,
    );
  }

  const comparisons = await mapLimit(config.models, CONCURRENCY, (ref) =>
    compareModel(
      ref,
      config.snapshotDir,
      source,
      (e) =>
        note(
          `vsk: ${e.model}: ${e.problem}; retrying in ${(e.delayMs / 1000).toFixed(1)} s (attempt ${e.attempt + 1})`,
        ),
      options.deadlineMs === undefined ? {} : { deadlineMs: options.deadlineMs },
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
  if (options.requests !== undefined) {
    const checked = await checkRequests(
      options.requests,
      cwd,
      config,
      comparisons,
      all,
      {
        ...(options.model === undefined ? {} : { model: options.model }),
        ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
      },
      { ndjson: options.ndjson === true },
    );
    if (checked.targetProblem !== undefined)
      throw new DriftUsageError(`${redactUrlsInText(checked.targetProblem)} (see \`vsk drift --help\`)`);
    if (checked.inputErrors.length > 0) throw new DriftUsageError(checked.inputErrors.join("; "));
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
    failOn: options.failOn,
    ...(requests === undefined ? {} : { requests }),
  });
  if (options.update === true) updateSnapshot(report, comparisons, config, cwd, note);

  // Every value of the report (schema text, field names, examples, messages) is redacted as data,
  // before any format serializes it: never the finished text, which the redaction could break (issue 23.2).
  return {
    report: redactValues(report, scrub, POINTER_KEYS),
    files: new Map(comparisons.map((c) => [scrub(c.ref.id), scrub(relative(cwd, c.snapshotFile))])),
    config,
  };
}
