/**
 * The Action's run: its inputs, drift, lint and check through the CLI, annotations, the job
 * summary and the one PR comment.
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { Writable } from "node:stream";
import { dirname, join, resolve } from "node:path";
import { PACKAGE_ROOT } from "../config/index.js";
import {
  DriftStageError,
  DriftUsageError,
  formatGithub,
  formatMarkdown,
  formatSarif,
  runDrift as runDriftStage,
  type FailOn,
} from "../drift/index.js";
import { scrubSecrets } from "../fetch/index.js";
import {
  DEFAULT_MAX_ANNOTATIONS,
  LintExit,
  LintUsageError,
  runLint as runLintStage,
  sarifReporter,
  Sink,
  type LintResult,
} from "../lint/index.js";
import { githubData as escapeData, markdownText, sarifRoot, terminalText } from "../escape/index.js";
import { redactUrlsInText } from "../runtime/index.js";

export type ActionCommand = "drift" | "lint" | "check";
const COMMANDS: readonly ActionCommand[] = ["drift", "lint", "check"];
const FAIL_ON = ["breaking", "behavior", "any", "never"];

export interface ActionInputs {
  command: ActionCommand;
  failOn: string;
  paths: string[];
  config?: string;
  schemaUrl?: string;
  comment: boolean;
  /** `sarif-file`: where drift or lint also writes its SARIF 2.1.0 log (for github/codeql-action/upload-sarif) */
  sarifFile?: string;
}

/** What one run printed and decided. */
export interface ActionResult {
  exitCode: number;
  /** lines for the workflow log (annotations and notices) */
  log: string;
  markdown: string;
  outputs: { "breaking-count": string; "changes-json": string };
}

export class ActionInputError extends Error {
  override name = "ActionInputError";
}

/** Reads the inputs action.yml passes; a bad one is an error that names the input. */
export function readInputs(env: NodeJS.ProcessEnv): ActionInputs {
  const get = (name: string): string => (env[`VSK_ACTION_${name}`] ?? "").trim();
  const command = (get("COMMAND") || "drift") as ActionCommand;
  if (!COMMANDS.includes(command))
    throw new ActionInputError(`input command is ${JSON.stringify(command)}; use one of ${COMMANDS.join(", ")}`);
  const failOn = get("FAIL_ON") || "breaking";
  if (!FAIL_ON.includes(failOn))
    throw new ActionInputError(`input fail-on is ${JSON.stringify(failOn)}; use one of ${FAIL_ON.join(", ")}`);
  const comment = (get("COMMENT") || "false").toLowerCase();
  if (!["true", "false"].includes(comment))
    throw new ActionInputError(`input comment is ${JSON.stringify(comment)}; use true or false`);
  const paths = get("PATHS")
    .split(/\r?\n/)
    .map((p) => p.trim())
    .filter((p) => p !== "");
  if (command === "lint" && paths.length === 0)
    throw new ActionInputError("input paths is empty; with command lint, list the request files, one per line");
  if (command !== "lint" && paths.length > 0)
    throw new ActionInputError(`input paths applies to command lint only, not ${command}`);
  const sarifFile = get("SARIF_FILE");
  if (command === "check" && sarifFile !== "")
    throw new ActionInputError("input sarif-file applies to commands drift and lint, not check");
  return {
    command,
    failOn,
    paths,
    ...(get("CONFIG") ? { config: get("CONFIG") } : {}),
    ...(get("SCHEMA_URL") ? { schemaUrl: get("SCHEMA_URL") } : {}),
    comment: comment === "true",
    ...(sarifFile !== "" ? { sarifFile } : {}),
  };
}

// the bundled CLI, as bin/vsk.mjs runs it (scripts/bundle.mjs), from the package's root: this
// file runs from dist/src/action and, bundled into `vsk action`, from dist/cli
const CLI = join(PACKAGE_ROOT, "dist/cli/vsk.js");

/**
 * Runs `vsk <args>` in `cwd`, collecting its output; never throws for a non-zero exit. Only check
 * still goes through it: its orchestration lives in its CLI file (issue 23.7, open for check).
 */
function vsk(
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
    child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? 70, stdout, stderr }));
  });
}

const configArgs = (inputs: ActionInputs): string[] => (inputs.config ? ["--config", inputs.config] : []);

/**
 * Writes the SARIF log to `sarif-file` (relative to the working directory; its directory made).
 * Returns an annotation for the log when it could not be written, which fails the step (exit 2):
 * an upload-sarif step after it would fail less clearly.
 */
function writeSarif(inputs: ActionInputs, cwd: string, text: string): string | undefined {
  if (inputs.sarifFile === undefined) return undefined;
  const file = resolve(cwd, inputs.sarifFile);
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    return `::error title=video-schema-kit::${escapeData(terminalText(`could not write sarif-file ${inputs.sarifFile} (${code})`))}\n`;
  }
}

/** Where the SARIF log's URIs start: the repository's checkout when the working directory is inside it (src/escape/sarif.ts). */
const sarifPlace = (cwd: string, env: NodeJS.ProcessEnv) => ({ cwd, root: sarifRoot(cwd, env) });

/**
 * The drift stage in process (src/drift/run.ts), as `vsk drift` runs it: the config's snapshotDir
 * is honoured, the report arrives as data with every value redacted (issue 23.2, 23.7), and no
 * output is parsed back.
 */
async function runDrift(inputs: ActionInputs, cwd: string, env: NodeJS.ProcessEnv): Promise<ActionResult> {
  const notes: string[] = [];
  let run;
  try {
    run = await runDriftStage(
      {
        cwd,
        failOn: inputs.failOn as FailOn,
        ...(inputs.config ? { config: inputs.config } : {}),
        ...(inputs.schemaUrl ? { schemaUrl: inputs.schemaUrl } : {}),
      },
      (line) => notes.push(line),
    );
  } catch (error) {
    if (!(error instanceof DriftUsageError || error instanceof DriftStageError)) throw error;
    // one line of a stage's message, redacted as data before it is escaped for its format
    const why = terminalText(scrubSecrets(error.message).split("\n")[0]!);
    return {
      exitCode: 2,
      log: `::error title=vsk drift::${escapeData(why)}\n`,
      markdown: `## Schema drift\n\n**vsk drift failed:** ${markdownText(why)}\n`,
      outputs: { "breaking-count": "0", "changes-json": "[]" },
    };
  }
  const { report, files } = run;
  const unwritten = writeSarif(inputs, cwd, formatSarif(report, files, sarifPlace(cwd, env)));
  return {
    exitCode: unwritten === undefined ? report.summary.exitCode : 2,
    log:
      formatGithub(report, files) +
      notes.map((note) => `::warning title=vsk drift::${escapeData(terminalText(note))}\n`).join("") +
      (unwritten ?? ""),
    markdown: formatMarkdown(report),
    outputs: {
      "breaking-count": String(report.changes.filter((c) => c.severity === "breaking").length),
      "changes-json": JSON.stringify(report.changes),
    },
  };
}

/** A lint note as the workflow log shows it: an annotation of its level, the text escaped as data. */
const LINT_NOTE_COMMAND = { warning: "warning", note: "notice", error: "error" } as const;

/**
 * The lint stage in process (src/lint/run.ts, issue 23.7), as `vsk lint --format github` runs it:
 * the annotations come from the github format, its Markdown summary arrives as text (for the job
 * summary and the comment), invalid results are observed as data for the outputs, and notes
 * become annotations of their own level. No output is parsed back.
 */
async function runLint(
  inputs: ActionInputs,
  cwd: string,
  env: NodeJS.ProcessEnv,
  isStageError: IsStageError,
): Promise<ActionResult> {
  let log = "";
  // the format's output, kept as it is written (a write is taken at once: the sink never waits)
  const out = new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, done) {
      log += String(chunk);
      done();
    },
  });
  let markdown = "";
  const invalid: LintResult[] = [];
  // sarif-file: every result with a finding, handed to the sarif format after the run
  const findings: LintResult[] = [];
  const notes: string[] = [];
  let exitCode: number;
  try {
    const run = await runLintStage(
      {
        cwd,
        inputs: inputs.paths,
        ...(inputs.config ? { config: inputs.config } : {}),
        format: "github",
        context: {
          color: false,
          showValid: false,
          stepSummary: (text) => (markdown += text),
          maxAnnotations: DEFAULT_MAX_ANNOTATIONS,
        },
        out,
        // fail-on any or behavior: a warning fails the step, as --max-warnings 0 does
        ...(inputs.failOn === "any" || inputs.failOn === "behavior" ? { maxWarnings: 0 } : {}),
        observe: (r) => {
          if (!r.valid) invalid.push(r);
          if (inputs.sarifFile !== undefined && r.diagnostics.length > 0) findings.push(r);
        },
      },
      ({ level, text }) =>
        notes.push(`::${LINT_NOTE_COMMAND[level]} title=vsk lint::${escapeData(terminalText(scrubSecrets(text)))}\n`),
    );
    exitCode = run.exitCode;
    if (inputs.sarifFile !== undefined) {
      let sarif = "";
      const sink = new Writable({
        decodeStrings: false,
        write(chunk: string | Buffer, _encoding, done) {
          sarif += String(chunk);
          done();
        },
      });
      const reporter = sarifReporter(new Sink(sink), sarifPlace(cwd, env));
      for (const r of findings) await reporter.result(r);
      await reporter.end(run.summary);
      const unwritten = writeSarif(inputs, cwd, sarif);
      if (unwritten !== undefined) {
        notes.push(unwritten);
        exitCode = LintExit.usage;
      }
    }
  } catch (error) {
    const known =
      error instanceof LintUsageError || isStageError(error) || (error as NodeJS.ErrnoException).code !== undefined;
    if (!known) throw error;
    // one line of the stage's message, redacted as data before it is escaped for its format
    const why = terminalText(scrubSecrets((error as Error).message).split("\n")[0]!);
    return {
      exitCode: LintExit.usage,
      log: `::error title=vsk lint::${escapeData(why)}\n`,
      markdown: `## vsk lint\n\n**vsk lint failed:** ${markdownText(why)}\n`,
      outputs: { "breaking-count": "0", "changes-json": "[]" },
    };
  }
  return {
    exitCode: inputs.failOn === "never" && exitCode === LintExit.findings ? LintExit.ok : exitCode,
    log: log + notes.join(""),
    markdown,
    outputs: { "breaking-count": String(invalid.length), "changes-json": JSON.stringify(invalid) },
  };
}

async function runCheck(inputs: ActionInputs, cwd: string, env: NodeJS.ProcessEnv): Promise<ActionResult> {
  const run = await vsk(["generate", "--check", ...configArgs(inputs)], cwd, env);
  const text = (run.code === 0 ? run.stdout : run.stderr).trim().replace(/^vsk: /, "");
  const stale = run.code === 1;
  return {
    exitCode: inputs.failOn === "never" && stale ? 0 : run.code,
    log: run.code === 0 ? `${text}\n` : `::error title=vsk generate --check::${escapeData(text)}\n`,
    markdown: `## Generated code\n\n${run.code === 0 ? "✅" : "❌"} ${markdownText(text)}\n`,
    outputs: { "breaking-count": stale ? "1" : "0", "changes-json": "[]" },
  };
}

/**
 * Whether `error` is one a stage throws for its user (a wrong config, an unreadable snapshot, …),
 * said in one annotation, rather than a bug, which is thrown on. The command that runs the action
 * passes the CLI's table (src/cli/errors.ts `stageErrorOf`): the action is a stage below cli/ and
 * imports nothing of it (docs/architecture.md, "The floors").
 */
export type IsStageError = (error: unknown) => boolean;

/** Runs the action's command; pure of GitHub I/O (see `publish`). */
export function runCommand(
  inputs: ActionInputs,
  cwd: string,
  env: NodeJS.ProcessEnv,
  isStageError: IsStageError,
): Promise<ActionResult> {
  if (inputs.command === "drift") return runDrift(inputs, cwd, env);
  if (inputs.command === "lint") return runLint(inputs, cwd, env, isStageError);
  return runCheck(inputs, cwd, env);
}

/** `name=value` lines for `$GITHUB_OUTPUT`, multi-line values with a delimiter that cannot occur in them. */
export function outputLines(outputs: Record<string, string>): string {
  return Object.entries(outputs)
    .map(([name, value]) => {
      let delimiter = `vsk_${randomUUID()}`;
      while (value.includes(delimiter)) delimiter = `vsk_${randomUUID()}`;
      return `${name}<<${delimiter}\n${value}\n${delimiter}\n`;
    })
    .join("");
}

/** The pull request the workflow runs for, from the event payload; undefined for other events. */
export function pullRequestNumber(env: NodeJS.ProcessEnv): number | undefined {
  if (!env.GITHUB_EVENT_PATH) return undefined;
  try {
    const event = JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, "utf8")) as {
      pull_request?: { number?: unknown };
      number?: unknown;
    };
    const n = event.pull_request?.number ?? (event.pull_request ? event.number : undefined);
    return typeof n === "number" && Number.isInteger(n) && n > 0 ? n : undefined;
  } catch {
    return undefined;
  }
}

/** The hidden marker that finds the comment again, one per command. */
export const marker = (command: ActionCommand): string => `<!-- video-schema-kit:${command} -->`;

/** GitHub's limit on a comment body is 65,536 characters; ours stays below it, the marker included. */
export const COMMENT_LIMIT = 65_000;

/** Each GitHub API call (headers and body) must be answered within this many seconds; VSK_ACTION_API_TIMEOUT overrides it. */
export const API_TIMEOUT_SECONDS = 30;

/** The identity `GITHUB_TOKEN` acts as: it cannot read `GET /user`, so that answers 403 for it. */
const ACTIONS_BOT = "github-actions[bot]";

/** A separator row of a Markdown table (`|---|---:|`). */
const SEPARATOR_ROW = /^\|(?:\s*:?-+:?\s*\|)+$/;

/**
 * The report cut to `limit` characters by whole lines (issue 23.5): a table row, a list item or a
 * heading is kept whole or left out, never cut inside a code span or an HTML tag; a `<details>`
 * left open is closed; a last line says how many rows and list items were left out. Our reports
 * keep every piece of markup on one line, so a whole line never leaves markup open.
 */
export function truncateMarkdown(markdown: string, limit: number): string {
  if (markdown.length <= limit) return markdown;
  const lines = markdown.split("\n");
  const note = (rows: number, open: number): string =>
    `${"\n</details>".repeat(open)}\n\n_… ${rows} more row${rows === 1 ? "" : "s"} left out: a comment holds at most ${limit.toLocaleString("en-US")} characters. The whole report is in the job summary._\n`;
  // the note's longest form: every row left out, every <details> open
  const reserve = note(lines.length, lines.length).length;
  const kept: string[] = [];
  let size = 0;
  for (const line of lines) {
    if (size + line.length + 1 > limit - reserve) break;
    kept.push(line);
    size += line.length + 1;
  }
  const left = lines.slice(kept.length);
  // rows of data: table rows but separators and header rows (those followed by a separator), and list items
  const rows = left.filter(
    (line, k) =>
      (line.startsWith("|") && !SEPARATOR_ROW.test(line) && !SEPARATOR_ROW.test(left[k + 1] ?? "")) ||
      /^\s*- /.test(line),
  ).length;
  const open =
    kept.filter((line) => line.startsWith("<details")).length - kept.filter((line) => line === "</details>").length;
  return kept.join("\n") + note(rows, Math.max(0, open));
}

/** Who the token is: `GET /user`'s login, or `github-actions[bot]` for the workflow's own token (which cannot read it). */
async function tokenIdentity(
  request: (url: string, init?: RequestInit) => Promise<Response>,
  api: string,
): Promise<string> {
  const response = await request(`${api}/user`);
  if (!response.ok) {
    await response.body?.cancel();
    return ACTIONS_BOT;
  }
  const user = (await response.json()) as { login?: unknown };
  return typeof user.login === "string" ? user.login : ACTIONS_BOT;
}

/**
 * Posts the report as one pull-request comment, or updates the one that carries the marker and
 * was written by the token's own identity (issue 23.4: a marker in someone else's comment is
 * theirs, never adopted). Every API call has a deadline (issue 23.6). Returns a sentence for the
 * log; the token never appears in it.
 */
export async function upsertComment(
  env: NodeJS.ProcessEnv,
  command: ActionCommand,
  markdown: string,
  fetchImpl: typeof fetch = fetch,
): Promise<string> {
  const number = pullRequestNumber(env);
  if (number === undefined)
    return "::notice title=video-schema-kit::comment skipped: this run is not for a pull request";
  const token = env.GITHUB_TOKEN;
  if (!token)
    return "::warning title=video-schema-kit::comment skipped: no GITHUB_TOKEN (pass github-token, and give the job pull-requests: write)";
  const repo = env.GITHUB_REPOSITORY ?? "";
  if (!/^[\w.-]+\/[\w.-]+$/.test(repo))
    return "::warning title=video-schema-kit::comment skipped: GITHUB_REPOSITORY is not owner/name";
  const timeoutText = (env.VSK_ACTION_API_TIMEOUT ?? "").trim();
  const seconds = timeoutText === "" ? API_TIMEOUT_SECONDS : Number(timeoutText);
  if (!/^\d+(\.\d+)?$/.test(timeoutText || "0") || !(seconds > 0))
    return `::warning title=video-schema-kit::comment skipped: VSK_ACTION_API_TIMEOUT is ${escapeData(terminalText(JSON.stringify(timeoutText)))}; give a number of seconds above 0`;
  const api = (env.GITHUB_API_URL || "https://api.github.com").replace(/\/+$/, "");
  const headers = {
    authorization: `Bearer ${token}`,
    accept: "application/vnd.github+json",
    "content-type": "application/json",
    "x-github-api-version": "2022-11-28",
    "user-agent": "video-schema-kit-action",
  };
  // one deadline per call, covering its body too (the body is read before the next call starts)
  const request = (url: string, init: RequestInit = {}): Promise<Response> =>
    fetchImpl(url, { ...init, headers, signal: AbortSignal.timeout(seconds * 1000) });
  const head = `${marker(command)}\n`;
  const body = head + truncateMarkdown(markdown, COMMENT_LIMIT - head.length);
  const fail = (what: string, status: number) =>
    `::warning title=video-schema-kit::comment not posted: ${what} answered HTTP ${status} (the job needs permissions: pull-requests: write)`;
  try {
    const identity = await tokenIdentity(request, api);
    let existing: number | undefined;
    for (let page = 1; page <= 10 && existing === undefined; page++) {
      const list = await request(`${api}/repos/${repo}/issues/${number}/comments?per_page=100&page=${page}`);
      if (!list.ok) return fail("listing comments", list.status);
      const comments = (await list.json()) as Array<{ id: number; body?: string; user?: { login?: string } | null }>;
      existing = comments.find(
        (c) => typeof c.body === "string" && c.body.startsWith(marker(command)) && c.user?.login === identity,
      )?.id;
      if (comments.length < 100) break;
    }
    const response =
      existing === undefined
        ? await request(`${api}/repos/${repo}/issues/${number}/comments`, {
            method: "POST",
            body: JSON.stringify({ body }),
          })
        : await request(`${api}/repos/${repo}/issues/comments/${existing}`, {
            method: "PATCH",
            body: JSON.stringify({ body }),
          });
    await response.body?.cancel();
    if (!response.ok)
      return fail(existing === undefined ? "creating the comment" : "updating the comment", response.status);
    return existing === undefined
      ? `comment posted on pull request #${number}`
      : `comment updated on pull request #${number}`;
  } catch (error) {
    if ((error as Error).name === "TimeoutError")
      return `::warning title=video-schema-kit::comment not posted: the GitHub API did not answer within ${seconds} s (VSK_ACTION_API_TIMEOUT)`;
    const code =
      (error as { cause?: { code?: string } }).cause?.code ?? (error instanceof Error ? error.message : String(error));
    return `::warning title=video-schema-kit::comment not posted: ${escapeData(terminalText(redactUrlsInText(String(code)).split(token).join("***")))}`;
  }
}

/** The whole action: run, then annotations, summary, outputs and the comment. Returns the exit code. */
export async function runAction(
  env: NodeJS.ProcessEnv,
  cwd: string,
  write: (text: string) => void,
  isStageError: IsStageError,
): Promise<number> {
  const inputs = readInputs(env);
  const result = await runCommand(inputs, cwd, env, isStageError);
  write(result.log.endsWith("\n") || result.log === "" ? result.log : `${result.log}\n`);
  if (env.GITHUB_STEP_SUMMARY)
    appendFileSync(env.GITHUB_STEP_SUMMARY, result.markdown.endsWith("\n") ? result.markdown : `${result.markdown}\n`);
  else write("::notice title=video-schema-kit::no job summary: GITHUB_STEP_SUMMARY is not set\n");
  if (env.GITHUB_OUTPUT) appendFileSync(env.GITHUB_OUTPUT, outputLines(result.outputs));
  else write("::notice title=video-schema-kit::no outputs: GITHUB_OUTPUT is not set\n");
  if (inputs.comment) write(`${await upsertComment(env, inputs.command, result.markdown)}\n`);
  return result.exitCode;
}
