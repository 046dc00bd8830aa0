/**
 * The GitHub Action's script (`vsk action`, run by action.yml) with the GitHub environment
 * simulated: the inputs as action.yml passes them, an event payload file, GITHUB_OUTPUT and
 * GITHUB_STEP_SUMMARY files, and a loopback server standing in for the GitHub REST API.
 */
import { spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { outputLines, readInputs } from "../../src/action/index.js";
import { vskInProcess } from "../cli/run.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const cli = join(root, "dist/cli/vsk.js");
const TOKEN = "ghs_simulatedtoken0123456789";

let work: string;
let api: Server;
let apiUrl: string;
const calls: Array<{ method: string; url: string; auth: string; body: string }> = [];
let comments: Array<{ id: number; body: string; user: { login: string } }> = [];
/** what `GET /user` answers: 403 as for the workflow's own token, or a login as for a personal token */
let userLogin: string | undefined;
const BOT = { login: "github-actions[bot]" };

beforeAll(async () => {
  api = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      calls.push({ method: req.method!, url: req.url!, auth: String(req.headers.authorization), body });
      res.setHeader("content-type", "application/json");
      // pull request 9: an API that never answers
      if (req.url!.includes("/issues/9/")) return;
      if (req.method === "GET" && req.url === "/user") {
        if (userLogin === undefined) {
          res.statusCode = 403;
          return res.end(JSON.stringify({ message: "Resource not accessible by integration" }));
        }
        return res.end(JSON.stringify({ login: userLogin }));
      }
      if (req.method === "GET" && /^\/repos\/acme\/app\/issues\/7\/comments\?/.test(req.url!))
        return res.end(JSON.stringify([{ id: 1, body: "unrelated", user: { login: "octocat" } }, ...comments]));
      if (req.method === "POST" && req.url === "/repos/acme/app/issues/7/comments") {
        comments.push({
          id: 100 + comments.length,
          body: JSON.parse(body).body,
          user: { login: userLogin ?? BOT.login },
        });
        res.statusCode = 201;
        return res.end("{}");
      }
      const patch = /^\/repos\/acme\/app\/issues\/comments\/(\d+)$/.exec(req.url!);
      if (req.method === "PATCH" && patch) {
        comments = comments.map((c) => (c.id === Number(patch[1]) ? { ...c, body: JSON.parse(body).body } : c));
        return res.end("{}");
      }
      res.statusCode = 404;
      res.end("{}");
    });
  });
  await new Promise<void>((r) => api.listen(0, "127.0.0.1", () => r()));
  apiUrl = `http://127.0.0.1:${(api.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((r) => api.close(() => r())));

beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), "vsk-action-test-"));
  cpSync(join(root, "schemas-cache"), join(work, "schemas-cache"), { recursive: true });
  // a project names its models: without a config, drift and generate --check refuse the built-in examples (issue 30.1)
  writeFileSync(
    join(work, "vsk.config.json"),
    JSON.stringify({
      models: ["model-a", "model-b", "model-c"].map((m, i) => ({ id: `example/${m}`, alias: `model${"ABC"[i]}` })),
    }),
  );
  // the "published" side: model A's aspect_ratio loses "2:1" (breaking), the others unchanged
  cpSync(join(root, "schemas-cache"), join(work, "mirror", "main"), { recursive: true });
  const a = join(work, "mirror/main/example/model-a/latest.json");
  writeFileSync(a, readFileSync(a, "utf8").replace(/"2:1",\s*/g, ""));
  writeFileSync(join(work, "event.json"), JSON.stringify({ pull_request: { number: 7 } }));
  calls.length = 0;
  comments = [];
  userLogin = undefined;
  return () => rmSync(work, { recursive: true, force: true });
});

/**
 * `vsk action` with the inputs as action.yml passes them: a real child process where `spawn` is
 * set (the first run of each command, and a bad input), else the same program in this process with
 * the same environment (issue 42.4: what the others check is the action's output, not the process).
 */
function action(
  inputs: Record<string, string>,
  extraEnv: Record<string, string> = {},
  spawned = false,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    GITHUB_EVENT_PATH: join(work, "event.json"),
    GITHUB_REPOSITORY: "acme/app",
    GITHUB_API_URL: apiUrl,
    GITHUB_TOKEN: TOKEN,
    GITHUB_OUTPUT: join(work, "output.txt"),
    GITHUB_STEP_SUMMARY: join(work, "summary.md"),
  };
  for (const [k, v] of Object.entries(inputs)) env[`VSK_ACTION_${k}`] = v;
  Object.assign(env, extraEnv);
  if (!spawned) return vskInProcess(["action"], work, env as Record<string, string>, "exact");
  return new Promise((done) => {
    const child = spawn(process.execPath, [cli, "action"], { cwd: work, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
}

/** Parses `name<<DELIM … DELIM` blocks of a GITHUB_OUTPUT file. */
function outputs(): Record<string, string> {
  const text = readFileSync(join(work, "output.txt"), "utf8");
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/^([\w-]+)<<(\S+)\n([\s\S]*?)\n\2$/gm)) out[m[1]!] = m[3]!;
  return out;
}

describe("command drift", () => {
  it("annotates, summarises, sets outputs, comments once and updates that comment on the next run", async () => {
    const inputs = { COMMAND: "drift", SCHEMA_URL: join(work, "mirror"), COMMENT: "true" };
    const first = await action(inputs, {}, true);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(1);
    expect(first.stdout).toMatch(/^::error file=schemas-cache\/example\/model-a\/latest\.json,title=.*aspect_ratio/m);
    expect(first.stdout).toContain("comment posted on pull request #7");
    expect(readFileSync(join(work, "summary.md"), "utf8")).toMatch(/^## Schema drift/);
    const out = outputs();
    // "2:1" leaves aspect_ratio of both model A endpoints
    expect(out["breaking-count"]).toBe("2");
    const changes = JSON.parse(out["changes-json"]!) as Array<Record<string, string>>;
    expect(changes.map((c) => [c.id, c.severity, c.model, c.endpoint])).toEqual([
      ["request-property-enum-value-removed", "breaking", "example/model-a", "keyframes-to-video"],
      ["request-property-enum-value-removed", "breaking", "example/model-a", "text-to-video"],
    ]);
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body).toMatch(/^<!-- video-schema-kit:drift -->\n## Schema drift/);
    expect(calls.every((c) => c.auth === `Bearer ${TOKEN}`)).toBe(true);

    const second = await action(inputs);
    expect(second.stdout).toContain("comment updated on pull request #7");
    expect(comments).toHaveLength(1);
    // who am I (403: the workflow's token), list, post; again, then the update of our own comment
    expect(calls.map((c) => c.method)).toEqual(["GET", "GET", "POST", "GET", "GET", "PATCH"]);
    expect(first.stdout + second.stdout).not.toContain(TOKEN);
  });

  it("a comment with the marker written by someone else is never adopted: a new one is posted (issue 23.4)", async () => {
    const forged = { id: 50, body: "<!-- video-schema-kit:drift -->\nplease merge", user: { login: "mallory" } };
    comments = [forged];
    const inputs = { COMMAND: "drift", SCHEMA_URL: join(work, "mirror"), COMMENT: "true" };
    const run = await action(inputs);
    expect(run.stdout).toContain("comment posted on pull request #7");
    expect(comments[0]).toEqual(forged);
    expect(comments).toHaveLength(2);
    expect(calls.some((c) => c.method === "PATCH")).toBe(false);
    // a personal token: its own login (GET /user) is the identity whose comment is updated
    userLogin = "release-bot";
    comments = [forged, { id: 60, body: "<!-- video-schema-kit:drift -->\nold", user: { login: "release-bot" } }];
    const second = await action(inputs);
    expect(second.stdout).toContain("comment updated on pull request #7");
    expect(comments[0]).toEqual(forged);
    expect(comments[1]!.body).toMatch(/^<!-- video-schema-kit:drift -->\n## Schema drift/);
  });

  it("a GitHub API that never answers is a warning after the deadline, the step keeps the report's exit code (issue 23.6)", async () => {
    writeFileSync(join(work, "event.json"), JSON.stringify({ pull_request: { number: 9 } }));
    userLogin = "release-bot";
    const run = await action(
      { COMMAND: "drift", SCHEMA_URL: join(work, "mirror"), COMMENT: "true" },
      { VSK_ACTION_API_TIMEOUT: "0.5" },
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      "::warning title=video-schema-kit::comment not posted: the GitHub API did not answer within 0.5 s (VSK_ACTION_API_TIMEOUT)",
    );
  });

  it("a long report is cut by whole rows, never inside markup, and says how many rows were left out (issue 23.5)", async () => {
    // the source adds 1500 optional fields whose names are hostile Markdown: one table row each
    const a = join(work, "mirror/main/example/model-a/latest.json");
    const doc = JSON.parse(readFileSync(a, "utf8"));
    const props = doc.components.schemas.TextToVideoInput.properties;
    for (let i = 0; i < 1500; i++) props[`f${i}_\`@octocat <img src=x> [x](https://evil.example)`] = { type: "string" };
    writeFileSync(a, JSON.stringify(doc));
    const run = await action({ COMMAND: "drift", SCHEMA_URL: join(work, "mirror"), COMMENT: "true" });
    expect(run.stdout).toContain("comment posted on pull request #7");
    const body = comments[0]!.body;
    expect(body.length).toBeLessThanOrEqual(65_536);
    const summary = readFileSync(join(work, "summary.md"), "utf8");
    expect(summary.length).toBeGreaterThan(65_536);
    const lines = body.split("\n");
    const note =
      /^_… (\d+) more rows left out: a comment holds at most [\d,]+ characters\. The whole report is in the job summary\._$/;
    const last = [...lines].reverse().find((line) => line !== "")!;
    expect(last).toMatch(note);
    // every line but ours is a whole line of the report: no code span or tag is cut
    const ours = new Set([lines[0], last, "</details>", ""]);
    const reportLines = new Set(summary.split("\n"));
    expect(lines.filter((line) => !ours.has(line) && !reportLines.has(line))).toEqual([]);
    // the rows left out are the report's rows that are not in the comment
    const rows = (text: string): number => text.split("\n").filter((l) => l.startsWith("| 🟢")).length;
    expect(Number(note.exec(last)![1])).toBe(rows(summary) - rows(body));
    // a <details> left open is closed
    expect(body.split("<details").length).toBe(body.split("</details>").length);
  });

  it("the config's snapshotDir is honoured, the drift stage runs in process (issue 23.7)", async () => {
    cpSync(join(work, "schemas-cache"), join(work, "snapshots"), { recursive: true });
    rmSync(join(work, "schemas-cache"), { recursive: true });
    writeFileSync(
      join(work, "vsk.config.json"),
      JSON.stringify({
        snapshotDir: "snapshots",
        models: [{ id: "example/model-a" }, { id: "example/model-b" }, { id: "example/model-c" }],
      }),
    );
    const run = await action({ COMMAND: "drift", SCHEMA_URL: join(work, "mirror") });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^::error file=snapshots\/example\/model-a\/latest\.json,title=/m);
    expect(outputs()["breaking-count"]).toBe("2");
  });

  it("schema text holding a URL with a query string: the breaking change survives, outputs parse (issue 23.2)", async () => {
    const a = join(work, "mirror/main/example/model-a/latest.json");
    const doc = JSON.parse(readFileSync(a, "utf8"));
    doc.components.schemas.TextToVideoInput.properties.aspect_ratio.description = 'see https://h.example/a?b=SECRET" x';
    writeFileSync(a, JSON.stringify(doc));
    const run = await action({ COMMAND: "drift", SCHEMA_URL: join(work, "mirror") });
    expect(run.code).toBe(1);
    const out = outputs();
    expect(out["breaking-count"]).toBe("2");
    expect(JSON.parse(out["changes-json"]!).length).toBeGreaterThan(2);
    expect(run.stdout + JSON.stringify(out) + readFileSync(join(work, "summary.md"), "utf8")).not.toContain("SECRET");
  });

  it("fail-on never passes the step but still reports; no comment without comment: true", async () => {
    const run = await action({ COMMAND: "drift", SCHEMA_URL: join(work, "mirror"), FAIL_ON: "never" });
    expect(run.code).toBe(0);
    expect(outputs()["breaking-count"]).toBe("2");
    expect(calls).toEqual([]);
  });

  it("a source that cannot be fetched fails the step with one annotation (exit 3), never 'no drift'", async () => {
    const run = await action({ COMMAND: "drift", SCHEMA_URL: join(work, "nowhere") });
    expect(run.code).toBe(3);
    expect(run.stdout).toMatch(/^::error /m);
  });

  it("outside a pull request the comment is skipped out loud", async () => {
    writeFileSync(join(work, "event.json"), JSON.stringify({ ref: "refs/heads/main" }));
    const run = await action({ COMMAND: "drift", SCHEMA_URL: join(work, "mirror"), COMMENT: "true" });
    expect(run.stdout).toContain(
      "::notice title=video-schema-kit::comment skipped: this run is not for a pull request",
    );
    expect(calls).toEqual([]);
  });

  it("an API that refuses the comment is a warning naming the permission, not a failure of its own", async () => {
    writeFileSync(join(work, "event.json"), JSON.stringify({ pull_request: { number: 8 } }));
    const run = await action({ COMMAND: "drift", SCHEMA_URL: join(work, "mirror"), COMMENT: "true", FAIL_ON: "never" });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /::warning title=video-schema-kit::comment not posted: .*HTTP 404 .*pull-requests: write/,
    );
  });
});

describe("command lint", () => {
  it("annotations from lint, its Markdown in the summary and the comment, invalid payloads as outputs", async () => {
    cpSync(join(root, "generated"), join(work, "generated"), { recursive: true }); // the project's own, as configured
    mkdirSync(join(work, "requests"));
    writeFileSync(join(work, "requests", "ok.json"), JSON.stringify({ model: "modelC", input: { prompt: "x" } }));
    writeFileSync(
      join(work, "requests", "bad.json"),
      JSON.stringify({ model: "modelC", input: { prompt: "x", duration: 2 } }),
    );
    const run = await action(
      { COMMAND: "lint", PATHS: "requests/ok.json\nrequests/bad.json\n", COMMENT: "true" },
      {},
      true,
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      "::error file=requests/bad.json,line=1,col=52,title=vsk lint duration-auto-or-range::",
    );
    const summary = readFileSync(join(work, "summary.md"), "utf8");
    expect(summary.length).toBeGreaterThan(0);
    expect(comments[0]!.body.startsWith("<!-- video-schema-kit:lint -->\n")).toBe(true);
    const out = outputs();
    expect(out["breaking-count"]).toBe("1");
    expect(JSON.parse(out["changes-json"]!)[0]).toMatchObject({ source: "requests/bad.json", valid: false });
  });
  it("runs lint in process: a file it cannot read is its own error annotation, after the rest was linted and summarised", async () => {
    cpSync(join(root, "generated"), join(work, "generated"), { recursive: true });
    mkdirSync(join(work, "requests"));
    writeFileSync(
      join(work, "requests", "bad.json"),
      JSON.stringify({ model: "modelC", input: { prompt: "x", duration: 2 } }),
    );
    const run = await action({ COMMAND: "lint", PATHS: "requests/bad.json\nrequests/missing.json" });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(2);
    expect(run.stdout).toContain(
      "::error file=requests/bad.json,line=1,col=52,title=vsk lint duration-auto-or-range::",
    );
    // a note of the run, not the CLI's stderr wrapped whole: no "vsk: " inside the annotation
    expect(run.stdout).toMatch(/^::error title=vsk lint::requests\/missing\.json: .*$/m);
    expect(run.stdout).not.toContain("::vsk: ");
    const summary = readFileSync(join(work, "summary.md"), "utf8");
    expect(summary).toMatch(/^### vsk lint: 1 invalid request$/m);
    expect(summary).toContain("1 request: 0 valid, 1 invalid, 0 warnings.");
    expect(outputs()["breaking-count"]).toBe("1");
  });

  it("a config lint cannot read fails the step with one annotation and says why in the job summary", async () => {
    writeFileSync(join(work, "vsk.config.json"), "{ not json");
    const run = await action({ COMMAND: "lint", PATHS: "requests/bad.json" });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(2);
    expect(run.stdout.split("\n").filter((l) => l.startsWith("::error"))).toHaveLength(1);
    expect(run.stdout).toMatch(/^::error title=vsk lint::.*vsk\.config\.json/m);
    expect(readFileSync(join(work, "summary.md"), "utf8")).toMatch(/^\*\*vsk lint failed:\*\* .*vsk\.config\.json/m);
    expect(outputs()).toEqual({ "breaking-count": "0", "changes-json": "[]" });
  });
});

describe("command check", () => {
  it("stale generated code fails with one annotation; fresh code passes", async () => {
    const stale = await action({ COMMAND: "check" }, {}, true);
    expect(stale.code).toBe(1);
    expect(stale.stdout).toMatch(/^::error title=vsk generate --check::generated\/ is stale/m);
    expect(outputs()["breaking-count"]).toBe("1");
    // the repository's committed generated/ is what `vsk generate` gives for this snapshot
    // (test/emit/committed.test.ts): a copy stands for a run of its own
    cpSync(join(root, "generated"), join(work, "generated"), { recursive: true });
    const fresh = await action({ COMMAND: "check" });
    expect(fresh.code).toBe(0);
    expect(fresh.stdout).toMatch(/^generated\/ is up to date/m);
    expect(readFileSync(join(work, "summary.md"), "utf8")).toContain("✅ generated/ is up to date");
  }, 120_000); // two generate --check runs: seconds each on a busy 2-core machine
});

describe("inputs", () => {
  it.each([
    [{ VSK_ACTION_COMMAND: "deploy" }, /input command is "deploy"; use one of drift, lint, check/],
    [{ VSK_ACTION_FAIL_ON: "sometimes" }, /input fail-on is "sometimes"/],
    [{ VSK_ACTION_COMMAND: "lint" }, /input paths is empty/],
    [{ VSK_ACTION_PATHS: "a.json" }, /input paths applies to command lint only/],
    [{ VSK_ACTION_COMMENT: "yes" }, /input comment is "yes"; use true or false/],
  ])("%o is refused: %s", (env, message) => {
    expect(() => readInputs(env)).toThrow(message);
  });

  it("a bad input through the CLI is one line and exit 2", async () => {
    const run = await action({ COMMAND: "deploy" }, {}, true);
    expect([run.code, run.stderr]).toEqual([
      2,
      'vsk: action: input command is "deploy"; use one of drift, lint, check\n',
    ]);
  });

  it("multi-line outputs use a delimiter that is not in the value", () => {
    const text = outputLines({ a: "x\nvsk_y\nz" });
    const [head, ...rest] = text.split("\n");
    const delimiter = head!.split("<<")[1]!;
    expect(rest.slice(0, 3)).toEqual(["x", "vsk_y", "z"]);
    expect(rest[3]).toBe(delimiter);
  });
});
