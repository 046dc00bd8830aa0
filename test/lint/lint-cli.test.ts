/**
 * `vsk lint`, run as a user runs it: the built CLI (`node dist/cli/vsk.js lint …`) in a child
 * process, with the fixture directory test/fixtures/lint/ as its working directory (nothing is
 * written there; large and generated inputs go to a temp directory). Expected outputs of the
 * mixed NDJSON fixture sit in test/fixtures/lint/expected/ as vitest file snapshots (`npx vitest -u`
 * rewrites them after a deliberate change; review the diff). `--format json` output is validated against the
 * committed schemas/lint-report.schema.json.
 *
 * Every run also checks the two things no input may cause: a stack trace on stderr, and a URL's
 * query string anywhere in the output.
 */
import { spawnSync, type SpawnSyncOptions } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { vskInProcess } from "../cli/run.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const cli = join(root, "dist/cli/vsk.js");
const fixtures = join(root, "test/fixtures/lint");
const expectedDir = join(fixtures, "expected");
const SECRET = "SECRET";
const ANSI = /\u001b\[/;

const ajv = new Ajv2020({ allErrors: true, strict: true });
const validateReport = ajv.compile(
  JSON.parse(readFileSync(join(root, "schemas/lint-report.schema.json"), "utf8")) as object,
);

interface Diagnostic {
  severity: "error" | "warning";
  pointer: string;
  rule: string;
  code: string;
  reason: string;
  retryable: boolean;
  message: string;
}
interface Result {
  source: string;
  line: number;
  model: string | null;
  endpoint: string | null;
  valid: boolean;
  diagnostics: Diagnostic[];
}
interface Report {
  results: Result[];
  summary: { requests: number; valid: number; invalid: number; warnings: number };
}
interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment of a CI job that did not ask for colour. */
function baseEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of ["NO_COLOR", "FORCE_COLOR", "GITHUB_STEP_SUMMARY"]) delete env[key];
  for (const [key, value] of Object.entries(extra))
    if (value === undefined) delete env[key];
    else env[key] = value;
  return env;
}

/**
 * `vsk lint ARGS`: a real child process where the run reads stdin or `spawn` is set (the first run
 * of each behaviour, the 50 MB and 100 000-level inputs), else the same program in this process
 * (test/cli/run.ts's vskInProcess, issue 42.4): what the others check is lint's output.
 */
async function vsk(
  args: string[],
  options: {
    cwd?: string;
    input?: string | Buffer;
    env?: Record<string, string | undefined>;
    spawn?: boolean;
  } = {},
): Promise<Run> {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\` first (npm test does)`);
  let result: Run;
  if (options.input === undefined && options.spawn !== true) {
    const env = Object.fromEntries(
      Object.entries(baseEnv(options.env)).filter((e): e is [string, string] => e[1] !== undefined),
    );
    result = await vskInProcess(["lint", ...args], options.cwd ?? fixtures, env, "exact");
  } else {
    const spawnOptions: SpawnSyncOptions = {
      cwd: options.cwd ?? fixtures,
      encoding: "utf8",
      env: baseEnv(options.env),
      maxBuffer: 64 * 1024 * 1024,
      // stdin is a pipe unless a test gives input; "ignore" keeps it from being a TTY too
      stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      ...(options.input === undefined ? {} : { input: options.input }),
    };
    const run = spawnSync(process.execPath, [cli, "lint", ...args], spawnOptions);
    result = { code: run.status, stdout: String(run.stdout), stderr: String(run.stderr) };
  }
  // no input, however bad, gets a stack trace or leaks a signed URL's query string
  expect(result.stderr).not.toMatch(/^\s+at /m);
  expect(result.stderr).not.toContain("internal error");
  expect(result.stdout + result.stderr).not.toContain(SECRET);
  return result;
}

/** `--format json`: exactly one JSON object on stdout, valid against the committed schema. */
async function lintJson(args: string[], options: Parameters<typeof vsk>[1] = {}): Promise<Run & { report: Report }> {
  const run = await vsk([...args, "--format", "json"], options);
  const report = JSON.parse(run.stdout) as Report; // throws unless stdout is exactly one JSON value
  expect(typeof report === "object" && report !== null && !Array.isArray(report)).toBe(true);
  const ok = validateReport(report);
  expect(ok ? [] : validateReport.errors).toEqual([]);
  // the summary agrees with the results
  const { results, summary } = report;
  expect(summary.requests).toBe(results.length);
  expect(summary.valid).toBe(results.filter((r) => r.valid).length);
  expect(summary.invalid).toBe(results.filter((r) => !r.valid).length);
  expect(summary.warnings).toBe(results.flatMap((r) => r.diagnostics).filter((d) => d.severity === "warning").length);
  for (const r of results) expect(r.valid).toBe(!r.diagnostics.some((d) => d.severity === "error"));
  return { ...run, report };
}

/** The output compared with the file snapshot test/fixtures/lint/expected/<name>, byte for byte. */
async function golden(name: string, actual: string): Promise<void> {
  await expect(actual).toMatchFileSnapshot(join(expectedDir, name));
}

const at = (report: Report, source: string, line: number): Result => {
  const found = report.results.find((r) => r.source === source && r.line === line);
  if (!found)
    throw new Error(
      `no result for ${source}:${line} in ${JSON.stringify(report.results.map((r) => `${r.source}:${r.line}`))}`,
    );
  return found;
};
const rules = (r: Result): string[] => r.diagnostics.map((d) => d.rule);

const KEYFRAMES = ["--model", "modelA", "--endpoint", "keyframes-to-video"];
const TEXT_A = ["--model", "modelA", "--endpoint", "text-to-video"];
const KNOWN_MODELS = ["example/model-a (modelA)", "example/model-b (modelB)", "example/model-c (modelC)"];

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), "vsk-lint-test-"));
});
afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

describe("formats", () => {
  it("pretty: file:line  pointer  message, grouped per payload, a summary line, no ANSI codes when not a TTY or with NO_COLOR", async () => {
    const plain = await vsk(["mixed.ndjson"], { spawn: true });
    const noColor = await vsk(["mixed.ndjson"], { env: { NO_COLOR: "1" } });
    expect(plain.code).toBe(1);
    expect(plain.stdout).not.toMatch(ANSI);
    expect(noColor.stdout).toBe(plain.stdout);
    expect(plain.stdout).toContain("mixed.ndjson:2  /input/duration  duration: 40 is above the maximum 20");
    expect(plain.stdout.trimEnd().split("\n").at(-1)).toBe("11 requests: 2 valid, 9 invalid, 1 warning");
    await golden("mixed.pretty.txt", plain.stdout);
    expect(plain.stderr).toBe("");
  });

  it.skipIf(!existsSync("/usr/bin/script"))(
    "pretty on a terminal (util-linux script as the pty): colour, unless NO_COLOR is set",
    () => {
      const onTty = (env: Record<string, string | undefined>) =>
        spawnSync(
          "/usr/bin/script",
          [
            "-qec",
            `"${process.execPath}" "${cli}" lint payloads/keyframes-frame-past-end.json ${KEYFRAMES.join(" ")}`,
            "/dev/null",
          ],
          { cwd: fixtures, encoding: "utf8", env: baseEnv(env) },
        ).stdout;
      const coloured = onTty({});
      expect(coloured).toMatch(ANSI);
      expect(coloured).toContain("keyframes[1].frame_index: 130 is past the last frame (120)");
      expect(onTty({ NO_COLOR: "1" })).not.toMatch(ANSI);
    },
  );

  it("pretty --show-valid also lists the valid payloads", async () => {
    const run = await vsk(["mixed.ndjson", "--show-valid"]);
    expect(run.stdout).toMatch(/^mixed\.ndjson:1 {2}valid$/m);
  });

  it("json: one object, schema-valid, one result per payload with its line, model and endpoint", async () => {
    const { code, report, stdout, stderr } = await lintJson(["mixed.ndjson"]);
    expect(code).toBe(1);
    expect(stderr).toBe("");
    await golden("mixed.json", stdout);
    expect(report.summary).toEqual({ requests: 11, valid: 2, invalid: 9, warnings: 1 });
    expect(report.results.map((r) => r.line)).toEqual([1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12]); // line 4 is blank
    expect(at(report, "mixed.ndjson", 1)).toEqual({
      source: "mixed.ndjson",
      line: 1,
      model: "example/model-a",
      endpoint: "keyframes-to-video",
      valid: true,
      diagnostics: [],
    });
    const d = at(report, "mixed.ndjson", 12).diagnostics[0]!;
    expect(d).toMatchObject({
      severity: "error",
      pointer: "/input/keyframes/0/frame_index",
      rule: "frame-index-unique",
      code: "invalid_input",
      reason: "input_validation_failed",
      retryable: false,
    });
  });

  it("json with no payload at all is still one valid object", async () => {
    const empty = join(tmp, "no-payloads");
    mkdirSync(empty, { recursive: true });
    // nothing to lint is exit 2 (issue 25.0), yet stdout is still the one object; --allow-empty: 0
    const nothing = await lintJson([empty]);
    expect(nothing.code).toBe(2);
    // it says what it is (issue 30.8): the $id of schemas/lint-report.schema.json and its version
    const none = {
      $schema: "https://video-schema-kit.dev/schemas/lint-report.schema.json",
      schemaVersion: 1,
      results: [],
      summary: { requests: 0, valid: 0, invalid: 0, warnings: 0 },
    };
    expect(nothing.report).toEqual(none);
    const { code, report } = await lintJson([empty, "--allow-empty"]);
    expect(code).toBe(0);
    expect(report).toEqual(none);
  });

  it("github: ::error / ::warning annotations with file and line, and a Markdown summary appended to $GITHUB_STEP_SUMMARY", async () => {
    const summaryFile = join(tmp, "step-summary.md");
    writeFileSync(summaryFile, "## an earlier step\n\n");
    const run = await vsk(["mixed.ndjson", "--format", "github"], {
      env: { GITHUB_STEP_SUMMARY: summaryFile },
      spawn: true,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe("");
    await golden("mixed.github.txt", run.stdout);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines.filter((l) => l.startsWith("::error file=mixed.ndjson,line="))).toHaveLength(11);
    expect(lines.filter((l) => l.startsWith("::warning file=mixed.ndjson,line=7,"))).toHaveLength(1);
    expect(run.stdout).toContain(
      "::error file=mixed.ndjson,line=2,title=vsk lint schema/maximum::duration: 40 is above the maximum 20\n",
    );
    const summary = readFileSync(summaryFile, "utf8");
    expect(summary.startsWith("## an earlier step\n\n### vsk lint: 9 invalid requests\n")).toBe(true);
    expect(summary).toContain("| severity | where | field | message |");
    expect(summary).toContain(
      "| error | `mixed.ndjson:2` | `/input/duration` | duration: 40 is above the maximum 20 |",
    );
    await golden("mixed.summary.md", summary);
  });

  it("github without $GITHUB_STEP_SUMMARY only annotates", async () => {
    const run = await vsk(["payloads/keyframes-frame-past-end.json", ...KEYFRAMES, "--format", "github"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(
      "::error file=payloads/keyframes-frame-past-end.json,line=10,col=22,title=vsk lint frame-index-within-duration::keyframes[1].frame_index: 130 is past the last frame (120) of the default 5 s video (duration × 24, spec 2.2)\n" +
        "1 request: 0 valid, 1 invalid, 0 warnings\n",
    );
  });
});

describe("exit codes", () => {
  it("0 when every payload is valid", async () => {
    const run = await vsk(["payloads/keyframes-valid.json", ...KEYFRAMES], { spawn: true });
    expect(run).toEqual({ code: 0, stdout: "1 request: 1 valid, 0 invalid, 0 warnings\n", stderr: "" });
  });

  it("0 with warnings, 1 when they exceed --max-warnings", async () => {
    const warned = await lintJson(["payloads/keyframes-unknown-field.json", ...KEYFRAMES]);
    expect(warned.code).toBe(0);
    expect(warned.report.results[0]!.diagnostics).toEqual([
      expect.objectContaining({
        severity: "warning",
        pointer: "/negative_promt",
        rule: "unknown-field",
        message: expect.stringContaining("negative_promt: is not a field of this endpoint"),
      }),
    ]);
    expect((await vsk(["payloads/keyframes-unknown-field.json", ...KEYFRAMES, "--max-warnings", "1"])).code).toBe(0);
    const strict = await vsk(["payloads/keyframes-unknown-field.json", ...KEYFRAMES, "--max-warnings", "0"]);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain("1 request: 1 valid, 0 invalid, 1 warning");
  });

  it("1 when a payload is invalid; the message names the field and says expected vs received", async () => {
    const run = await vsk(["payloads/keyframes-frame-past-end.json", ...KEYFRAMES]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      "payloads/keyframes-frame-past-end.json:10:22  /keyframes/1/frame_index  keyframes[1].frame_index: 130 is past the last frame (120)",
    );
  });

  it("2 for an unknown model, listing the known ones", async () => {
    for (const model of ["modelZ", "example/model-z"]) {
      const run = await vsk(["payloads/keyframes-valid.json", "--model", model, "--endpoint", "keyframes-to-video"]);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr).toContain(`unknown model "${model}"`);
      for (const known of KNOWN_MODELS) expect(run.stderr).toContain(known);
    }
  });

  it("2 for an unknown endpoint, listing the known ones", async () => {
    const run = await vsk(["payloads/keyframes-valid.json", "--model", "modelA", "--endpoint", "image-to-video"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'unknown endpoint "image-to-video" for example/model-a; known: keyframes-to-video, text-to-video',
    );
    const alone = await vsk(["payloads/keyframes-valid.json", "--endpoint", "image-to-video"]);
    expect(alone.code).toBe(2);
    for (const known of KNOWN_MODELS) expect(alone.stderr).toContain(known);
    // text-to-video belongs to two models: --model is needed
    const ambiguous = await vsk(["payloads/keyframes-valid.json", "--endpoint", "text-to-video"]);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain("add --model");
  });

  it("--endpoint alone is enough when only one model has it; --model alone when the model has one endpoint", async () => {
    expect((await vsk(["payloads/keyframes-valid.json", "--endpoint", "keyframes-to-video"])).code).toBe(0);
    expect((await vsk(["dir/a-valid.json", "--model", "modelB"])).code).toBe(0); // an envelope: its own model wins
  });

  it("2 for a missing file, after every other file was linted", async () => {
    const { code, report, stderr } = await lintJson(
      ["payloads/keyframes-valid.json", "no-such-file.json", "payloads/keyframes-frame-past-end.json", ...KEYFRAMES],
      { spawn: true },
    );
    expect(code).toBe(2);
    expect(report.results.map((r) => r.source)).toEqual([
      "payloads/keyframes-valid.json",
      "payloads/keyframes-frame-past-end.json",
    ]);
    expect(stderr).toBe("vsk: no-such-file.json: no such file or directory\n");
  });

  it("2 for a bad --format, a bad --max-warnings, an unknown option, stdin named twice", async () => {
    const bad = await vsk(["payloads/keyframes-valid.json", ...KEYFRAMES, "--format", "xml"]);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toContain('--format must be one of pretty, json, github, markdown, sarif, not "xml"');
    expect((await vsk(["payloads/keyframes-valid.json", "--max-warnings", "many"])).code).toBe(2);
    const unknown = await vsk(["payloads/keyframes-valid.json", "--strict"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("--strict");
    expect((await vsk(["-", "-"], { input: "{}" })).code).toBe(2);
  });

  it("--help prints the usage and exits 0", async () => {
    const run = await vsk(["--help"], { spawn: true });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Usage: vsk lint [FILES… | -] [options]");
  });
});

describe("inputs", () => {
  it("envelopes (id or alias) and bare payloads; an envelope's own model and endpoint win over the flags", async () => {
    const { code, report } = await lintJson([
      "payloads/envelope-valid.json",
      "payloads/keyframes-valid.json",
      ...KEYFRAMES,
    ]);
    expect(code).toBe(0);
    expect(report.results.map((r) => [r.source, r.model, r.endpoint])).toEqual([
      ["payloads/envelope-valid.json", "example/model-b", "reference-to-video"],
      ["payloads/keyframes-valid.json", "example/model-a", "keyframes-to-video"],
    ]);
  });

  it("a top-level $schema (a request file's editor schema) is ignored, in bare payloads and envelopes", async () => {
    const request = {
      $schema: "../generated/example/model-a/keyframes-to-video.schema.json",
      prompt: "A paper boat",
      keyframes: [{ image_url: "https://cdn.example.com/0.png", frame_index: 0 }],
    };
    const bare = await lintJson(["-", ...KEYFRAMES], { input: JSON.stringify(request) });
    expect(bare.code).toBe(0);
    expect(bare.report.results.map((r) => [r.valid, r.diagnostics])).toEqual([[true, []]]);
    const envelope = {
      $schema: "./envelope.schema.json",
      model: "modelA",
      endpoint: "keyframes-to-video",
      input: request,
    };
    const wrapped = await lintJson(["-"], { input: JSON.stringify(envelope) });
    expect(wrapped.code).toBe(0);
    // inside an envelope's input, $schema is a field like any other: not what the editor reads
    expect(wrapped.report.results[0]!.diagnostics.map((d) => [d.pointer, d.rule])).toEqual([
      ["/input/$schema", "unknown-field"],
    ]);
    // only the key is ignored: the rest is checked as ever
    const bad = await lintJson(["-", ...KEYFRAMES], { input: JSON.stringify({ ...request, aspect: "1:1" }) });
    expect(bad.report.results[0]!.diagnostics.map((d) => [d.pointer, d.rule])).toEqual([["/aspect", "unknown-field"]]);
  });

  it("a bare payload without --model/--endpoint is reported, not guessed", async () => {
    const { code, report } = await lintJson(["payloads/keyframes-valid.json"]);
    expect(code).toBe(1);
    expect(rules(report.results[0]!)).toEqual(["lint/no-endpoint"]);
  });

  it("mixed endpoints in one NDJSON file: each line against its own endpoint; pointers of envelopes start at /input", async () => {
    const { report } = await lintJson(["mixed.ndjson"]);
    const endpoints = report.results.map((r) => (r.endpoint === null ? null : `${r.model}/${r.endpoint}`));
    expect(endpoints).toEqual([
      "example/model-a/keyframes-to-video",
      "example/model-a/text-to-video",
      null,
      "example/model-b/reference-to-video",
      "example/model-c/text-to-video",
      "example/model-c/text-to-video",
      null,
      null,
      "example/model-a/text-to-video",
      null,
      "example/model-a/keyframes-to-video",
    ]);
    expect(at(report, "mixed.ndjson", 5).diagnostics[0]).toMatchObject({
      pointer: "/input/file_url",
      rule: "file-url-requires-thinking",
    });
    expect(at(report, "mixed.ndjson", 6).diagnostics[0]!.message).toBe(
      "duration: 2 is not allowed; expected -1 (automatic) or 4 to 15 (spec 4.5)",
    );
    expect(at(report, "mixed.ndjson", 7).diagnostics[0]!.message).toContain(
      'durration: is not a field of this endpoint; did you mean "duration"?',
    );
    const unknownModel = at(report, "mixed.ndjson", 8);
    expect(unknownModel).toMatchObject({ model: null, endpoint: null, valid: false });
    expect(unknownModel.diagnostics[0]).toMatchObject({ pointer: "/model", rule: "lint/unknown-endpoint" });
    for (const known of KNOWN_MODELS) expect(unknownModel.diagnostics[0]!.message).toContain(known);
    expect(at(report, "mixed.ndjson", 9)).toMatchObject({
      model: "example/model-a",
      endpoint: null,
      diagnostics: [expect.objectContaining({ pointer: "/endpoint", rule: "lint/unknown-endpoint" })],
    });
  });

  it("a directory expands to its .json, .ndjson and .jsonl files, recursively and sorted, skipping dot files and others", async () => {
    const { code, report } = await lintJson(["dir"]);
    expect(code).toBe(1);
    expect(report.results.map((r) => `${r.source}:${r.line}:${r.valid}`)).toEqual([
      "dir/a-valid.json:1:true",
      "dir/logs/day.jsonl:1:true",
      "dir/logs/day.jsonl:2:false",
      "dir/logs/night.ndjson:1:false",
    ]);
    expect(at(report, "dir/logs/day.jsonl", 2).diagnostics[0]!.message).toBe(
      "prompt: expected string, received integer 5",
    );
    expect(at(report, "dir/logs/night.ndjson", 1).diagnostics[0]!.message).toBe("seed: -1 is below the minimum 0");
  });

  it("a glob expands to its matching payload files; a glob matching nothing exits 2", async () => {
    const { report } = await lintJson(["dir/**/*.{ndjson,jsonl,txt}"]);
    expect([...new Set(report.results.map((r) => r.source))]).toEqual(["dir/logs/day.jsonl", "dir/logs/night.ndjson"]);
    const none = await vsk(["nothing/**/*.json"]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("nothing/**/*.json: no .json, .ndjson or .jsonl file matches this pattern");
  });

  it("an existing file or directory whose name holds glob characters is read as named, not as a pattern", async () => {
    const { code, report } = await lintJson(["brackets/requests[1].json", "brackets/logs{old}"]);
    expect(code).toBe(1);
    expect(report.results.map((r) => `${r.source}:${r.line}:${r.valid}`)).toEqual([
      "brackets/requests[1].json:1:true",
      "brackets/logs{old}/day.ndjson:1:false",
    ]);
    // one that does not exist is still a pattern: [12] matches requests1.json or requests2.json, neither there
    const none = await vsk(["brackets/requests[12].json"]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("brackets/requests[12].json: no .json, .ndjson or .jsonl file matches this pattern");
  });

  it("stdin: - with --ndjson reads one payload per line, as <stdin>", async () => {
    const { code, report } = await lintJson(["-", "--ndjson"], { input: readFileSync(join(fixtures, "mixed.ndjson")) });
    expect(code).toBe(1);
    const fromFile = (await lintJson(["mixed.ndjson"])).report;
    expect(report.results).toEqual(fromFile.results.map((r) => ({ ...r, source: "<stdin>" })));
  });

  it("stdin: - alone reads one JSON payload, or NDJSON when it holds one per line (issue 25.2)", async () => {
    const one = await lintJson(["-", ...KEYFRAMES], {
      input: readFileSync(join(fixtures, "payloads/keyframes-frame-past-end.json")),
    });
    expect(one.code).toBe(1);
    expect(one.report.results[0]).toMatchObject({
      source: "<stdin>",
      line: 1,
      diagnostics: [expect.objectContaining({ pointer: "/keyframes/1/frame_index" })],
    });
    const several = await lintJson(["-", ...TEXT_A], {
      input: readFileSync(join(fixtures, "odd/several-payloads.json")),
    });
    expect(several.report.results.map((r) => [r.source, r.line, r.valid])).toEqual([
      ["<stdin>", 1, true],
      ["<stdin>", 2, true],
    ]);
    // the same text in a .json file is one document still, and the message points at .ndjson / --ndjson
    const file = await lintJson(["odd/several-payloads.json", ...TEXT_A]);
    expect(file.report.results[0]!.diagnostics[0]!.message).toContain("pass --ndjson");
  });

  it("piped stdin without - is not read: no file named is exit 2 (issue 30.3); - reads it", async () => {
    const input = readFileSync(join(fixtures, "payloads/keyframes-valid.json"));
    const unnamed = await vsk([...KEYFRAMES, "--format", "json"], { input });
    expect(unnamed.code).toBe(2);
    expect(unnamed.stdout).toBe("");
    expect(unnamed.stderr).toContain("lint: no input files: name files, directories or globs, or - to read stdin");
    const run = await lintJson(["-", ...KEYFRAMES], { input });
    expect(run.code).toBe(0);
    expect(run.report.results).toEqual([
      {
        source: "<stdin>",
        line: 1,
        model: "example/model-a",
        endpoint: "keyframes-to-video",
        valid: true,
        diagnostics: [],
      },
    ]);
    const piped = await lintJson(["-", "--ndjson"], { input: readFileSync(join(fixtures, "dir/logs/day.jsonl")) });
    expect(piped.report.results.map((r) => r.line)).toEqual([1, 2]);
  });

  it("stdin and files in one run", async () => {
    const { report } = await lintJson(["payloads/keyframes-valid.json", "-", ...KEYFRAMES], {
      input: readFileSync(join(fixtures, "payloads/keyframes-frame-past-end.json")),
    });
    expect(report.results.map((r) => [r.source, r.valid])).toEqual([
      ["payloads/keyframes-valid.json", true],
      ["<stdin>", false],
    ]);
  });
});

describe("bad input gets a clear answer, and nothing else is lost", () => {
  it("a malformed line is reported at its line number as lint/invalid-json; every other line is still linted", async () => {
    const { report } = await lintJson(["mixed.ndjson"]);
    const bad = at(report, "mixed.ndjson", 3);
    expect(bad).toMatchObject({ model: null, endpoint: null, valid: false });
    expect(bad.diagnostics).toHaveLength(1);
    expect(bad.diagnostics[0]).toMatchObject({ severity: "error", pointer: "", rule: "lint/invalid-json" });
    expect(bad.diagnostics[0]!.message).toMatch(
      /^not valid JSON at line 3, column \d+: .+; fix the JSON or remove the line$/,
    );
    expect(report.results.filter((r) => r.line > 3)).toHaveLength(8);
  });

  it("a syntax error in a .json file points at its line and column", async () => {
    const { report } = await lintJson(["odd/crlf.json", ...TEXT_A]);
    expect(report.results[0]).toMatchObject({ source: "odd/crlf.json", line: 3, valid: false });
    expect(report.results[0]!.diagnostics[0]!.message).toMatch(
      /^not valid JSON at line 3, column 17: .+; fix the JSON$/,
    );
  });

  it("a payload that is not an object: a type error at the root, with or without an envelope", async () => {
    const { report } = await lintJson(["odd/not-object.ndjson", ...TEXT_A]);
    expect(report.results.map((r) => r.diagnostics[0]?.message ?? "valid")).toEqual([
      "(request body): expected object, received an array",
      '(request body): expected object, received string "a string"',
      "(request body): expected object, received integer 42",
      "(request body): expected object, received null",
      "(request body): expected object, received boolean true",
      "valid",
    ]);
    for (const r of report.results.slice(0, 5))
      expect(r.diagnostics[0]).toMatchObject({ pointer: "", rule: "schema/type" });
    expect(at((await lintJson(["mixed.ndjson"])).report, "mixed.ndjson", 10).diagnostics[0]).toMatchObject({
      pointer: "/input",
      message: "(request body): expected object, received an array",
    });
  });

  it("a 100 000-level nested array, as the payload and as a field value, in .json and NDJSON", async () => {
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    writeFileSync(join(tmp, "deep.json"), deep);
    writeFileSync(join(tmp, "deep-field.json"), `{"prompt": "x", "aspect_ratio": ${deep}, "extra": ${deep}}`);
    writeFileSync(join(tmp, "deep-keyframes.json"), `{"prompt": "x", "keyframes": ${deep}}`);
    writeFileSync(
      join(tmp, "deep.ndjson"),
      [
        deep,
        `{"model": "modelA", "endpoint": "text-to-video", "input": {"prompt": "x", "duration": ${deep}}}`,
        `{"model": "modelA", "endpoint": "text-to-video", "input": ${deep}}`,
        `{"model": "modelA", "endpoint": "text-to-video", "input": {"prompt": "after"}}`,
      ].join("\n") + "\n",
    );
    const single = await lintJson(["deep.json", "deep-field.json", ...TEXT_A], { cwd: tmp, spawn: true });
    expect(single.code).toBe(1);
    expect(single.report.results[0]!.diagnostics).toEqual([
      expect.objectContaining({ pointer: "", message: "(request body): expected object, received an array" }),
    ]);
    const field = single.report.results[1]!.diagnostics;
    expect(field.map((d) => [d.severity, d.pointer])).toEqual([
      ["error", "/aspect_ratio"],
      ["error", "/aspect_ratio"],
      ["warning", "/extra"],
    ]);
    expect(field[0]!.message).toBe("aspect_ratio: expected string, received an array");
    const keyframes = await lintJson(["deep-keyframes.json", ...KEYFRAMES], { cwd: tmp, spawn: true });
    expect(keyframes.report.results[0]!.diagnostics[0]).toMatchObject({
      pointer: "/keyframes/0",
      message: "keyframes[0]: expected object, received an array",
    });
    const lines = await lintJson(["deep.ndjson", ...TEXT_A], { cwd: tmp, spawn: true });
    expect(lines.report.results.map((r) => [r.line, r.diagnostics[0]?.pointer ?? "valid"])).toEqual([
      [1, ""],
      [2, "/input/duration"],
      [3, "/input"],
      [4, "valid"],
    ]);
  });

  // 150 MB through child processes: on a loaded 2-core machine well past the default 30 s
  it("a 50 MB string: linted, never echoed (messages cut it and name its length)", { timeout: 120_000 }, async () => {
    const fifty = 50 * 1024 * 1024;
    writeFileSync(join(tmp, "big-prompt.json"), JSON.stringify({ prompt: "word ".repeat(fifty / 5), duration: 5 }));
    const prompt = await vsk(["big-prompt.json", ...TEXT_A, "--format", "json"], { cwd: tmp, spawn: true });
    expect(prompt.code).toBe(0);
    expect(prompt.stdout.length).toBeLessThan(1000);
    const big = `https://cdn.example/x.png?X-Amz-Signature=${SECRET}` + "x".repeat(fifty);
    const input = [
      JSON.stringify({ model: "modelC", endpoint: "text-to-video", input: { prompt: "a kite", duration: big } }),
      JSON.stringify({ model: "modelC", endpoint: "text-to-video", input: { prompt: "x".repeat(fifty) } }),
      '{"model": "modelC", "endpoint": "text-to-video", "input": {"prompt": 1}}',
    ].join("\n");
    // lines of 50 MB: over the default 8 MiB cap, so raised for this test
    const lines = await lintJson(["-", "--ndjson", "--max-line-bytes", String(2 * fifty)], { input });
    expect(lines.stdout.length).toBeLessThan(5000);
    expect(lines.report.results.map((r) => [r.line, r.valid])).toEqual([
      [1, false],
      [2, true],
      [3, false],
    ]);
    const message = lines.report.results[0]!.diagnostics[0]!.message;
    expect(message).toBe(
      `duration: expected integer, received string "https://cdn.example/x.png" (${big.length} characters)`,
    );
  });

  it("__proto__ and constructor keys are unknown-field warnings, in payloads and envelopes; an envelope naming them is an unknown model or endpoint", async () => {
    const { report } = await lintJson(["odd/proto.json", "odd/proto.ndjson", ...TEXT_A]);
    const warnings = (r: Result) =>
      r.diagnostics.filter((d) => d.severity === "warning").map((d) => [d.pointer, d.rule]);
    expect(warnings(at(report, "odd/proto.json", 1))).toEqual([
      ["/__proto__", "unknown-field"],
      ["/constructor", "unknown-field"],
    ]);
    expect(at(report, "odd/proto.json", 1).valid).toBe(true);
    expect(at(report, "odd/proto.json", 1).diagnostics[0]!.message).toMatch(
      /^__proto__: is not a field of this endpoint/,
    );
    expect(warnings(at(report, "odd/proto.ndjson", 1))).toEqual([
      ["/input/__proto__", "unknown-field"],
      ["/input/constructor", "unknown-field"],
    ]);
    expect(at(report, "odd/proto.ndjson", 2)).toMatchObject({
      model: null,
      valid: false,
      diagnostics: [
        expect.objectContaining({
          pointer: "/model",
          message: expect.stringMatching(/^model: "__proto__" is not a configured model/),
        }),
      ],
    });
    for (const line of [3, 4])
      expect(at(report, "odd/proto.ndjson", line)).toMatchObject({
        model: "example/model-a",
        endpoint: null,
        valid: false,
        diagnostics: [expect.objectContaining({ rule: "lint/unknown-endpoint", pointer: "/endpoint" })],
      });
  });

  it("__proto__ and constructor keys pollute no prototype (a driver runs main() in-process)", async () => {
    const driver = join(tmp, "pollution-driver.mjs");
    writeFileSync(
      driver,
      `process.argv.length = 1; // keep main.js from running itself on this script's arguments
const { main } = await import(${JSON.stringify(pathToFileURL(cli).href)});
process.chdir(${JSON.stringify(fixtures)});
const code = await main(["lint", "odd/proto.json", "odd/proto.ndjson", "--model", "modelA", "--endpoint", "text-to-video", "--format", "json"]);
process.stderr.write(JSON.stringify({ code, polluted: ({}).polluted ?? null, arrayPolluted: [].polluted ?? null, fnPolluted: (function () {}).polluted ?? null }));
`,
    );
    const run = spawnSync(process.execPath, [driver], { encoding: "utf8", env: baseEnv() });
    expect(run.stderr).not.toMatch(/^\s+at /m);
    expect(JSON.parse(run.stderr)).toEqual({ code: 1, polluted: null, arrayPolluted: null, fnPolluted: null });
    expect((JSON.parse(run.stdout) as Report).summary.requests).toBe(5);
  });

  it("a binary file is reported as lint/binary-file, .json or .ndjson", async () => {
    const { report } = await lintJson(["odd/binary.json", "odd/binary.ndjson", ...TEXT_A]);
    expect(report.results.map((r) => [r.source, r.line, rules(r)])).toEqual([
      ["odd/binary.json", 1, ["lint/binary-file"]],
      ["odd/binary.ndjson", 1, ["lint/binary-file"]],
    ]);
    expect(report.results[0]!.diagnostics[0]!.message).toContain("binary");
  });

  it("UTF-16 text (PowerShell's `>`) is said as UTF-16 to save as UTF-8, not as binary: BOM or not, LE or BE, .json or .ndjson", async () => {
    const payload = '{"model":"modelA","endpoint":"text-to-video","input":{"prompt":"x"}}\n';
    const le = Buffer.from(payload, "utf16le");
    const be = Buffer.from(le).swap16();
    const bomLe = Buffer.concat([Buffer.from([0xff, 0xfe]), le]);
    writeFileSync(join(tmp, "ps.json"), bomLe);
    writeFileSync(join(tmp, "ps.ndjson"), Buffer.concat([bomLe, le]));
    writeFileSync(join(tmp, "be.json"), be);
    const { code, report } = await lintJson(["ps.json", "ps.ndjson", "be.json"], { cwd: tmp });
    expect(code).toBe(1);
    expect(report.results.map((r) => [r.source, r.line, rules(r)])).toEqual([
      ["ps.json", 1, ["lint/invalid-utf8"]],
      ["ps.ndjson", 1, ["lint/invalid-utf8"]],
      ["be.json", 1, ["lint/invalid-utf8"]],
    ]);
    const messages = report.results.map((r) => r.diagnostics[0]!.message);
    expect(messages[0]).toBe(
      'the file is UTF-16 text (little-endian, with a byte order mark, as PowerShell\'s > and Out-File write it), not UTF-8; JSON is read as UTF-8 (RFC 8259): save it as UTF-8 (PowerShell: `… | Out-File -Encoding utf8 FILE`; an editor: "Save with encoding", UTF-8) and lint it again',
    );
    expect(messages[1]).toContain("UTF-16 text (little-endian, with a byte order mark");
    expect(messages[2]).toContain("UTF-16 text (big-endian, without a byte order mark)");
    for (const m of messages) expect(m).not.toContain("binary");
  });

  it("an empty .json or .ndjson file is lint/empty-file (an empty log is more often a truncated export)", async () => {
    const { code, report } = await lintJson(["odd/empty.json", "odd/whitespace.json", "odd/empty.ndjson", ...TEXT_A]);
    expect(code).toBe(1);
    expect(report.results.map((r) => [r.source, rules(r)])).toEqual([
      ["odd/empty.json", ["lint/empty-file"]],
      ["odd/whitespace.json", ["lint/empty-file"]],
      ["odd/empty.ndjson", ["lint/empty-file"]],
    ]);
    expect((await lintJson(["-"], { input: "" })).report.results.map(rules)).toEqual([["lint/empty-file"]]);
  });

  it("a file without a trailing newline: its last line is linted", async () => {
    const { report } = await lintJson(["odd/no-trailing-newline.ndjson", "odd/no-trailing-newline.json", ...TEXT_A]);
    expect(report.results.map((r) => [r.source, r.line, r.diagnostics.map((d) => d.message)])).toEqual([
      ["odd/no-trailing-newline.ndjson", 1, []],
      ["odd/no-trailing-newline.ndjson", 2, ["duration: 3 is below the minimum 5"]],
      ["odd/no-trailing-newline.json", 1, ['resolution: "4k" is not one of "720p", "1080p"']],
    ]);
  });

  it("CRLF line endings: right line numbers, no stray \\r in values", async () => {
    const { report } = await lintJson(["odd/crlf.ndjson", ...TEXT_A]);
    expect(report.results.map((r) => [r.line, rules(r)])).toEqual([
      [1, []],
      [2, ["lint/invalid-json"]],
      [3, ["schema/type"]],
      [4, []],
    ]);
    expect(report.results[1]!.diagnostics[0]!.message).toMatch(/^not valid JSON at line 2, column 2: /);
  });

  it("a UTF-8 byte order mark is skipped, in .json and NDJSON", async () => {
    const { report } = await lintJson(["odd/bom.json", "odd/bom.ndjson", ...TEXT_A]);
    expect(report.results.map((r) => [r.source, r.line, rules(r)])).toEqual([
      ["odd/bom.json", 1, ["schema/maximum"]],
      ["odd/bom.ndjson", 1, []],
      ["odd/bom.ndjson", 2, ["schema/type"]],
    ]);
  });

  it("a URL's query string never appears in any format (checked on every run) and the URL itself is kept", async () => {
    const json = await lintJson(["secrets.ndjson"]);
    expect(json.report.summary.requests).toBe(8);
    expect(at(json.report, "secrets.ndjson", 1).diagnostics[0]!.message).toContain(
      'aspect_ratio: "https://cdn.example/x.png" is not one of',
    );
    expect(at(json.report, "secrets.ndjson", 3).diagnostics[0]!.message).toContain(
      'model: "https://models.example/m" (query string or fragment removed) is not a configured model',
    );
    expect(at(json.report, "secrets.ndjson", 4).diagnostics[0]!.message).toContain(
      'endpoint: "https://models.example/e" (query string or fragment removed) is not an endpoint of example/model-a',
    );
    expect(at(json.report, "secrets.ndjson", 5).diagnostics[0]!.message).toContain(
      "endpoint: expected the endpoint name as a string, received 7",
    );
    expect(at(json.report, "secrets.ndjson", 6).diagnostics.map((d) => d.message)).toContain(
      "keyframes[0].frame_index: 999 is past the last frame (120) of the default 5 s video (duration × 24, spec 2.2)",
    );
    // V8's syntax error quotes the text around the error; that quote is not passed on
    expect(at(json.report, "secrets.ndjson", 7).diagnostics[0]!.message).toBe(
      'not valid JSON at line 7, column 12: unexpected "h", expected a value; fix the JSON or remove the line',
    );
    expect(at(json.report, "secrets.ndjson", 8).diagnostics[0]!.message).toMatch(
      /^not valid JSON at line 8, column 63: /,
    );
    await vsk(["secrets.ndjson"]);
    const summaryFile = join(tmp, "secrets-summary.md");
    await vsk(["secrets.ndjson", "--format", "github"], { env: { GITHUB_STEP_SUMMARY: summaryFile } });
    expect(readFileSync(summaryFile, "utf8")).not.toContain(SECRET);
    await vsk(["-", "--ndjson"], { input: readFileSync(join(fixtures, "secrets.ndjson")) });
  });
});

describe("flags say what went wrong", () => {
  it("--max-warnings: an empty value is a usage error; going over the limit says so", async () => {
    expect(await vsk(["mixed.ndjson", "--max-warnings", ""])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--max-warnings must be a whole number/),
    });
    const over = await vsk(["-", "--model", "modelC", "--max-warnings", "0"], {
      input: '{"prompt":"p","aspect_ratio":"16:9"}',
    });
    expect(over.code).toBe(1);
    expect(over.stderr).toMatch(/1 warning, more than --max-warnings 0/);
  });

  it("a flag value that is a signed URL is echoed without its query string", async () => {
    const run = await vsk(["mixed.ndjson", "--model", "https://a.example/b?sig=SECRET"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/unknown model "https:\/\/a\.example\/b"/);
    expect(run.stderr).not.toContain("SECRET");
  });
});
