/**
 * Issue 24.1, 24.2, 24.17 through the installed command (bin/vsk.mjs): a `.json` finding points
 * at its field's line and column in every format; a `.json` array of envelopes is read element
 * by element, each at its own line; a bare file whose `$schema` names an endpoint's editor schema
 * needs no --model/--endpoint; `--format github` caps its annotations and says how many more;
 * `--errors-only` leaves valid results out.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const VSK = join(ROOT, "bin/vsk.mjs");
const validateReport = new Ajv2020({ allErrors: true, strict: true }).compile(
  JSON.parse(readFileSync(join(ROOT, "schemas/lint-report.schema.json"), "utf8")) as object,
);

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "vsk-lint-documents-"));
  mkdirSync(join(dir, "requests"));
  writeFileSync(
    join(dir, "requests/one.json"),
    '{\n  "model": "modelA",\n  "endpoint": "text-to-video",\n  "input": {\n    "prompt": 1,\n    "duration": "x"\n  }\n}\n',
  );
  writeFileSync(
    join(dir, "requests/list.json"),
    [
      "[",
      '  {"model": "modelA", "endpoint": "text-to-video", "input": {"prompt": "ok"}},',
      '  {"model": "modelA", "endpoint": "text-to-video",',
      '   "input": {"prompt": 2}}',
      "]",
    ].join("\n") + "\n",
  );
  const schema = relative(join(dir, "requests"), join(ROOT, "generated/example/model-a/text-to-video.schema.json"));
  writeFileSync(join(dir, "requests/bare.json"), `{\n  "$schema": ${JSON.stringify(schema)},\n  "prompt": 5\n}\n`);
  // issue 42.3: findings come from the validator in rule order, not in the file's
  writeFileSync(
    join(dir, "requests/unsorted.json"),
    [
      "{",
      '  "model": "modelA",',
      '  "endpoint": "keyframes-to-video",',
      '  "input": {',
      '    "prompt": "x",',
      '    "keyframes": [',
      '      {"image_url": "a", "frame_index": 0},',
      '      {"image_url": "b", "frame_index": 200},',
      '      {"image_url": "c", "frame_index": 0}',
      "    ],",
      '    "aspectratio": "16:9",',
      '    "resolution": "4K"',
      "  }",
      "}",
    ].join("\n") + "\n",
  );
  const keyframes = relative(
    join(dir, "requests"),
    join(ROOT, "generated/example/model-a/keyframes-to-video.schema.json"),
  );
  writeFileSync(
    join(dir, "requests/bare-keyframes.json"),
    `{\n  "$schema": ${JSON.stringify(keyframes)},\n  "prompt": "x",\n  "keyframes": [{"image_url": "a", "frame_index": 500}]\n}\n`,
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function lint(args: string[]) {
  const run = spawnSync(process.execPath, [VSK, "lint", ...args], {
    cwd: dir,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1", GITHUB_STEP_SUMMARY: "" },
  });
  expect(run.stderr).not.toMatch(/^\s+at /m);
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe("vsk lint on .json documents", () => {
  it("locates each finding at its field's line and column, in every format", () => {
    const json = lint(["requests/one.json", "--format", "json"]);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout);
    expect(validateReport(report) ? [] : validateReport.errors).toEqual([]);
    expect(
      report.results[0].diagnostics.map((d: { pointer: string; line: number; column: number }) => [
        d.pointer,
        d.line,
        d.column,
      ]),
    ).toEqual([
      ["/input/prompt", 5, 15],
      ["/input/duration", 6, 17],
    ]);
    const pretty = lint(["requests/one.json"]);
    expect(pretty.stdout).toContain("  error   requests/one.json:5:15  /input/prompt  prompt: expected string");
    expect(pretty.stdout).toContain("  error   requests/one.json:6:17  /input/duration  ");
    const github = lint(["requests/one.json", "--format", "github"]);
    expect(github.stdout).toContain("::error file=requests/one.json,line=5,col=15,title=vsk lint schema/type::");
    expect(github.stdout).toContain("::error file=requests/one.json,line=6,col=17,title=vsk lint schema/enum::");
  });

  it("reads an array of envelopes element by element, each at its line", () => {
    const { code, stdout } = lint(["requests/list.json", "--format", "json"]);
    expect(code).toBe(1);
    const report = JSON.parse(stdout);
    expect(validateReport(report) ? [] : validateReport.errors).toEqual([]);
    expect(report.results.map((r: { line: number; valid: boolean }) => [r.line, r.valid])).toEqual([
      [2, true],
      [3, false],
    ]);
    expect(report.results[1].diagnostics[0]).toMatchObject({ pointer: "/input/prompt", line: 4, column: 24 });
  });

  it("takes a bare file's endpoint from its $schema, the endpoint's editor schema", () => {
    const { code, stdout } = lint(["requests/bare.json"]);
    expect(code).toBe(1);
    expect(stdout).toContain("requests/bare.json:1  example/model-a/text-to-video  invalid");
    expect(stdout).toContain("requests/bare.json:3:13  /prompt  prompt: expected string, received integer 5");
  });
});

describe("the first hour (issue 42.3)", () => {
  it("a request's findings by line; --summary's fields are the body's, an envelope's and a bare payload's alike", () => {
    const run = lint(["requests/unsorted.json", "requests/bare-keyframes.json", "--format", "json", "--summary"]);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(validateReport(report) ? [] : validateReport.errors).toEqual([]);
    expect(report.results[0].diagnostics.map((d: { line: number; column: number }) => `${d.line}:${d.column}`)).toEqual(
      ["7:41", "8:41", "9:41", "11:20", "12:19"],
    );
    expect(report.summary.byField).toContainEqual({ field: "/keyframes/*/frame_index", findings: 4, requests: 2 });
    expect(report.summary.byField.map((f: { field: string }) => f.field)).not.toContain(
      "/input/keyframes/*/frame_index",
    );
  });

  it("a $schema-named request piped to `vsk lint -` says why it names no endpoint", () => {
    // as written in a file of requests/ beside the project's generated/: from stdin it resolves from the cwd
    const text = '{\n  "$schema": "../generated/example/model-a/text-to-video.schema.json",\n  "prompt": 5\n}\n';
    const run = spawnSync(process.execPath, [VSK, "lint", "-"], {
      cwd: dir,
      encoding: "utf8",
      input: text,
      env: { ...process.env, NO_COLOR: "1", GITHUB_STEP_SUMMARY: "" },
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(
      /cannot tell which endpoint this payload is for: its \$schema names \S*generated\/example\/model-a\/text-to-video\.schema\.json \(resolved from the current directory: standard input has no directory of its own\), which is not one of the editor schemas vsk generated \(\S*generated\/<owner>\/<name>\/<endpoint>\.schema\.json\); wrap it as \{"model", "endpoint", "input"\} or pass --model and --endpoint  lint\/no-endpoint/,
    );
  });
  it("a $schema with a query string is named without it (a token in a copied link is never printed)", () => {
    const text = '{"$schema": "../generated/example/model-a/nope.schema.json?token=SCHEMATOK#frag", "prompt": "x"}';
    const run = spawnSync(process.execPath, [VSK, "lint", "-"], {
      cwd: dir,
      encoding: "utf8",
      input: text,
      env: { ...process.env, NO_COLOR: "1", GITHUB_STEP_SUMMARY: "" },
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/its \$schema names \S*generated\/example\/model-a\/nope\.schema\.json \(/);
    expect(run.stdout + run.stderr).not.toContain("SCHEMATOK");
    expect(run.stdout + run.stderr).not.toContain("frag");
  });
});

describe("big runs", () => {
  it("--format github annotates at most --max-annotations findings (default 50), then says how many more", () => {
    const line = '{"model":"modelA","endpoint":"text-to-video","input":{"prompt":1}}';
    writeFileSync(join(dir, "many.ndjson"), Array(60).fill(line).join("\n") + "\n");
    const byDefault = lint(["many.ndjson", "--format", "github"]);
    expect(byDefault.stdout.match(/^::error /gm)).toHaveLength(50);
    expect(byDefault.stdout).toContain(
      "::notice title=vsk lint::10 more findings not annotated (--max-annotations 50); --format json lists every finding\n60 requests: 0 valid, 60 invalid, 0 warnings\n",
    );
    const three = lint(["many.ndjson", "--format", "github", "--max-annotations", "3"]);
    expect(three.stdout.match(/^::error /gm)).toHaveLength(3);
    expect(three.stdout).toContain("::notice title=vsk lint::57 more findings not annotated (--max-annotations 3)");
  });

  it("--errors-only leaves valid results out of --format json; the summary counts them all", () => {
    const { code, stdout } = lint(["requests/list.json", "requests/one.json", "--format", "json", "--errors-only"]);
    expect(code).toBe(1);
    const report = JSON.parse(stdout);
    expect(validateReport(report) ? [] : validateReport.errors).toEqual([]);
    expect(report.results.map((r: { source: string; line: number }) => `${r.source}:${r.line}`)).toEqual([
      "requests/list.json:3",
      "requests/one.json:1",
    ]);
    expect(report.summary).toEqual({ requests: 3, valid: 1, invalid: 2, warnings: 0 });
  });
});
