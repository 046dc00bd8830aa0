/**
 * The GitHub Action (`action.yml`, composite): runs `vsk drift`, `vsk lint` or
 * `vsk generate --check` in the workflow's checkout, puts annotations in the diff and the Markdown
 * report in the job summary, sets the outputs `breaking-count` and `changes-json`, and posts or
 * updates one pull-request comment (found again by a hidden marker) through the GitHub REST API
 * with the token the workflow provides. Inputs arrive as `VSK_ACTION_*` variables (action.yml).
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { formatGithub, formatMarkdown, type DriftReport } from "../drift/index.js";
import { githubData as escapeData, markdownText } from "../output/index.js";
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
  return {
    command,
    failOn,
    paths,
    ...(get("CONFIG") ? { config: get("CONFIG") } : {}),
    ...(get("SCHEMA_URL") ? { schemaUrl: get("SCHEMA_URL") } : {}),
    comment: comment === "true",
  };
}

const CLI = fileURLToPath(new URL("../cli/main.js", import.meta.url));

/** Runs `vsk <args>` in `cwd`, collecting its output; never throws for a non-zero exit. */
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

async function runDrift(inputs: ActionInputs, cwd: string, env: NodeJS.ProcessEnv): Promise<ActionResult> {
  const args = [
    "drift",
    "--format",
    "json",
    "--fail-on",
    inputs.failOn,
    ...configArgs(inputs),
    ...(inputs.schemaUrl ? ["--schema-url", inputs.schemaUrl] : []),
  ];
  const run = await vsk(args, cwd, env);
  let report: DriftReport;
  try {
    report = JSON.parse(run.stdout) as DriftReport;
  } catch {
    const why = (run.stderr.trim() || run.stdout.trim() || `exit ${run.code}`).split("\n")[0]!;
    return {
      exitCode: run.code === 0 ? 2 : run.code,
      log: `::error title=vsk drift::${escapeData(why)}\n`,
      markdown: `## Schema drift\n\n**vsk drift failed:** ${markdownText(why)}\n`,
      outputs: { "breaking-count": "0", "changes-json": "[]" },
    };
  }
  // annotations point at each model's snapshot file, relative to the checkout
  const files = new Map<string, string>();
  for (const m of report.models) files.set(m.model, relative(cwd, join(cwd, "schemas-cache", m.model, "latest.json")));
  return {
    exitCode: run.code,
    log:
      formatGithub(report, files) + (run.stderr ? `::warning title=vsk drift::${escapeData(run.stderr.trim())}\n` : ""),
    markdown: formatMarkdown(report),
    outputs: {
      "breaking-count": String(report.changes.filter((c) => c.severity === "breaking").length),
      "changes-json": JSON.stringify(report.changes),
    },
  };
}

async function runLint(inputs: ActionInputs, cwd: string, env: NodeJS.ProcessEnv): Promise<ActionResult> {
  // lint writes its Markdown summary where GITHUB_STEP_SUMMARY points: a file of our own, so the
  // same text can go to the comment too
  const dir = mkdtempSync(join(tmpdir(), "vsk-action-"));
  try {
    const summary = join(dir, "summary.md");
    const failArgs = inputs.failOn === "any" || inputs.failOn === "behavior" ? ["--max-warnings", "0"] : [];
    const args = ["lint", "--format", "github", ...failArgs, ...configArgs(inputs), "--", ...inputs.paths];
    const run = await vsk(args, cwd, { ...env, GITHUB_STEP_SUMMARY: summary });
    let markdown = "";
    try {
      markdown = readFileSync(summary, "utf8");
    } catch {
      markdown = `## vsk lint\n\n**vsk lint failed:** ${markdownText(run.stderr.trim().split("\n")[0] ?? "")}\n`;
    }
    const json = await vsk(["lint", "--format", "json", ...configArgs(inputs), "--", ...inputs.paths], cwd, env);
    let invalid: unknown[] = [];
    try {
      invalid = (JSON.parse(json.stdout) as { results: Array<{ valid: boolean }> }).results.filter((r) => !r.valid);
    } catch {
      // the github run above already reported why lint could not run
    }
    const exitCode = inputs.failOn === "never" && run.code === 1 ? 0 : run.code;
    const stderr = run.stderr.trim() ? `::error title=vsk lint::${escapeData(run.stderr.trim())}\n` : "";
    return {
      exitCode,
      log: run.stdout + stderr,
      markdown,
      outputs: { "breaking-count": String(invalid.length), "changes-json": JSON.stringify(invalid) },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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

/** Runs the action's command; pure of GitHub I/O (see `publish`). */
export function runCommand(inputs: ActionInputs, cwd: string, env: NodeJS.ProcessEnv): Promise<ActionResult> {
  if (inputs.command === "drift") return runDrift(inputs, cwd, env);
  if (inputs.command === "lint") return runLint(inputs, cwd, env);
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

/**
 * Posts the report as one pull-request comment, or updates the one that carries the marker.
 * Returns a sentence for the log; the token never appears in it.
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
  const api = (env.GITHUB_API_URL || "https://api.github.com").replace(/\/+$/, "");
  const headers = {
    authorization: `Bearer ${token}`,
    accept: "application/vnd.github+json",
    "content-type": "application/json",
    "x-github-api-version": "2022-11-28",
    "user-agent": "video-schema-kit-action",
  };
  const body = `${marker(command)}\n${markdown}`.slice(0, 65_000);
  const fail = (what: string, status: number) =>
    `::warning title=video-schema-kit::comment not posted: ${what} answered HTTP ${status} (the job needs permissions: pull-requests: write)`;
  try {
    let existing: number | undefined;
    for (let page = 1; page <= 10 && existing === undefined; page++) {
      const list = await fetchImpl(`${api}/repos/${repo}/issues/${number}/comments?per_page=100&page=${page}`, {
        headers,
      });
      if (!list.ok) return fail("listing comments", list.status);
      const comments = (await list.json()) as Array<{ id: number; body?: string }>;
      existing = comments.find((c) => typeof c.body === "string" && c.body.startsWith(marker(command)))?.id;
      if (comments.length < 100) break;
    }
    const response =
      existing === undefined
        ? await fetchImpl(`${api}/repos/${repo}/issues/${number}/comments`, {
            method: "POST",
            headers,
            body: JSON.stringify({ body }),
          })
        : await fetchImpl(`${api}/repos/${repo}/issues/comments/${existing}`, {
            method: "PATCH",
            headers,
            body: JSON.stringify({ body }),
          });
    if (!response.ok)
      return fail(existing === undefined ? "creating the comment" : "updating the comment", response.status);
    return existing === undefined
      ? `comment posted on pull request #${number}`
      : `comment updated on pull request #${number}`;
  } catch (error) {
    const code =
      (error as { cause?: { code?: string } }).cause?.code ?? (error instanceof Error ? error.message : String(error));
    return `::warning title=video-schema-kit::comment not posted: ${escapeData(redactUrlsInText(code).split(token).join("***"))}`;
  }
}

/** The whole action: run, then annotations, summary, outputs and the comment. Returns the exit code. */
export async function runAction(env: NodeJS.ProcessEnv, cwd: string, write: (text: string) => void): Promise<number> {
  const inputs = readInputs(env);
  const result = await runCommand(inputs, cwd, env);
  write(result.log.endsWith("\n") || result.log === "" ? result.log : `${result.log}\n`);
  if (env.GITHUB_STEP_SUMMARY)
    appendFileSync(env.GITHUB_STEP_SUMMARY, result.markdown.endsWith("\n") ? result.markdown : `${result.markdown}\n`);
  else write("::notice title=video-schema-kit::no job summary: GITHUB_STEP_SUMMARY is not set\n");
  if (env.GITHUB_OUTPUT) appendFileSync(env.GITHUB_OUTPUT, outputLines(result.outputs));
  else write("::notice title=video-schema-kit::no outputs: GITHUB_OUTPUT is not set\n");
  if (inputs.comment) write(`${await upsertComment(env, inputs.command, result.markdown)}\n`);
  return result.exitCode;
}
