/**
 * Names and shapes that used to break `vsk generate` (the real CLI, a child process, in a temp
 * project): a super-linear `pattern`, endpoints `x` and `x.types`, properties named after
 * Object.prototype members, a schema nested 200 levels deep.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { vskInProcess } from "../cli/run.js";
import { findUnsafePattern, superLinearReason } from "../../src/emit/hostile-shapes.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CLI = join(ROOT, "dist/cli/vsk.js");
const TSC = join(ROOT, "node_modules/typescript/bin/tsc");

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function node(args: string[], cwd: string): Promise<Run> {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd, env, encoding: "utf8", timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ status: error === null ? 0 : typeof error.code === "number" ? error.code : null, stdout, stderr });
    });
  });
}

let work = "";
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "vsk-shapes-"));
  symlinkSync(join(ROOT, "node_modules"), join(work, "node_modules"), "dir");
});
afterAll(() => {
  if (work !== "") rmSync(work, { recursive: true, force: true });
});

/** A project with model `t/m` whose endpoints have the given input schemas (as JSON text). */
function project(name: string, inputs: Record<string, string>): string {
  const dir = join(work, name);
  mkdirSync(join(dir, "snapshot/t/m"), { recursive: true });
  const output = '{"type":"object","properties":{"video":{"type":"string"}}}';
  const paths = Object.entries(inputs).map(
    ([ep, input]) =>
      `${JSON.stringify(`/t/m/${ep}`)}:{"post":{"requestBody":{"required":true,"content":{"application/json":{"schema":${input}}}},` +
      `"responses":{"200":{"description":"ok","content":{"application/json":{"schema":${output}}}}}}}`,
  );
  writeFileSync(
    join(dir, "snapshot/t/m/latest.json"),
    `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{${paths.join(",")}}}`,
  );
  writeFileSync(
    join(dir, "vsk.config.json"),
    JSON.stringify({ snapshotDir: "snapshot", outDir: "out", models: [{ id: "t/m" }] }),
  );
  return dir;
}

const generate = (dir: string) => node([CLI, "generate"], dir);
/**
 * `vsk generate` in this process (issue 42.4), where a refusal's exit code and one line were shown
 * by the child process of the first refusal (the ReDoS pattern): the same bundle and output.
 */
const generateInProcess = async (dir: string): Promise<{ status: number | null; stdout: string; stderr: string }> => {
  const run = await vskInProcess(["generate"], dir);
  return { status: run.code, stdout: run.stdout, stderr: run.stderr };
};
const oneLineNoStack = (text: string) => {
  expect(text.trimEnd().split("\n")).toHaveLength(1);
  expect(text).not.toMatch(/^\s+at .+[(:]\d+/m);
};

describe("super-linear patterns", () => {
  it.each([
    ["^(a+)+$", true],
    ["(x*)*y", true],
    ["^(?:[a-z]+\\.)*[a-z]+$", false],
    ["^([a-z]+\\s?)+$", true],
    ["^(\\d{1,3}\\.){3}\\d{1,3}$", false],
    ["^(ab)+$", false],
    ["^[(a+)+]$", false],
    ["^(a)\\1$", true],
    ["^\\(a+\\)+$", false],
    ["^(\\w+-\\w+)*$", true],
    ["^(a+a)*$", true],
    ["^((ab)+)+$", true],
    ["^(?<x>a+)+$", true],
    ["^(a+b?)+$", true],
    ["^(a+b)*$", false],
    ["^(-\\d+)+$", false],
    ["^(a|b)*$", false],
    ["^[a-z0-9]+(?:-[a-z0-9]+)*$", false],
  ])("%s: refused %s", (pattern, refused) => {
    expect(superLinearReason(pattern) !== undefined).toBe(refused);
  });

  it("finds them under patternProperties keys too, with the JSON Pointer", () => {
    expect(
      findUnsafePattern({ type: "object", properties: { a: { patternProperties: { "^(b+)+$/x": {} } } } }),
    ).toMatchObject({ pointer: "/properties/a/patternProperties/^(b+)+$~1x" });
  });

  it("generate refuses ^(a+)+$: exit 2, one line naming the endpoint and the pointer, nothing written", async () => {
    const dir = project("redos", {
      "text-to-video": '{"type":"object","properties":{"prompt":{"type":"string","pattern":"^(a+)+$"}}}',
    });
    const run = await generate(dir);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('t/m/text-to-video input: the pattern "^(a+)+$" at /properties/prompt/pattern');
    oneLineNoStack(run.stderr);
    expect(existsSync(join(dir, "out"))).toBe(false);
  });
});

it("endpoints x and x.types: exit 2 naming both, nothing written", async () => {
  const input = '{"type":"object","properties":{"prompt":{"type":"string"}}}';
  const dir = project("clash", { x: input, "x.types": input });
  const run = await generateInProcess(dir);
  expect(run.status).toBe(2);
  expect(run.stderr).toContain("t/m/x.types and t/m/x would both write t/m/x.types.mts");
  oneLineNoStack(run.stderr);
  expect(existsSync(join(dir, "out"))).toBe(false);
});

it("a schema nested 200 levels deep: exit 2 with one line, no stack trace", async () => {
  let deep = '{"type":"string"}';
  for (let i = 0; i < 200; i++) deep = `{"type":"object","properties":{"n":${deep}}}`;
  const run = await generateInProcess(project("deep", { "text-to-video": deep }));
  expect(run.status).toBe(2);
  expect(run.stderr).toContain("t/m/text-to-video input: the schema is nested more than 64 levels deep");
  oneLineNoStack(run.stderr);
});

describe("properties named __proto__, constructor, hasOwnProperty, toString", () => {
  let dir = "";
  beforeAll(async () => {
    dir = project("proto", {
      "text-to-video":
        '{"type":"object","required":["prompt","hasOwnProperty"],"properties":{"prompt":{"type":"string"},' +
        '"__proto__":{"type":"string","minLength":2},"constructor":{"type":"integer"},"hasOwnProperty":{"type":"string"},' +
        '"toString":{"type":"boolean"}}}',
    });
    const run = await generate(dir);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });

  it("the output type-checks (strict, exactOptionalPropertyTypes) and names every field", async () => {
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          lib: ["ES2022"],
          module: "NodeNext",
          moduleResolution: "NodeNext",
          types: [],
          strict: true,
          exactOptionalPropertyTypes: true,
          noUncheckedIndexedAccess: true,
          skipLibCheck: true,
        },
        include: ["out/**/*.mts"],
      }),
    );
    const run = await node([TSC, "-p", "tsconfig.json", "--pretty", "false"], dir);
    expect(run.stdout + run.stderr).toBe("");
    expect(run.status).toBe(0);
    // the builder runs under plain node and validates __proto__ like any field
    writeFileSync(
      join(dir, "run.mjs"),
      `import { safeBuildMTextToVideo } from "./out/t/m/text-to-video.mjs";
const ok = safeBuildMTextToVideo(JSON.parse('{"prompt":"p","hasOwnProperty":"h","__proto__":"ab","constructor":1,"toString":true}'));
const bad = safeBuildMTextToVideo(JSON.parse('{"prompt":"p","hasOwnProperty":"h","__proto__":"a"}'));
console.log(JSON.stringify({ ok: ok.ok, bad: bad.ok ? [] : bad.error.diagnostics.map((d) => d.pointer) }));`,
    );
    const built = await node(["run.mjs"], dir);
    expect(built.stderr).toBe("");
    expect(JSON.parse(built.stdout)).toEqual({ ok: true, bad: ["/__proto__"] });
  });

  it("lint validates each of them", async () => {
    writeFileSync(
      join(dir, "p.ndjson"),
      [
        '{"prompt":"x","hasOwnProperty":"h","__proto__":"a"}',
        '{"prompt":"x","hasOwnProperty":1,"constructor":"no","toString":3}',
        '{"prompt":"x"}',
        '{"prompt":"x","hasOwnProperty":"h","__proto__":"ab","constructor":2,"toString":true}',
      ].join("\n") + "\n",
    );
    const run = await node([CLI, "lint", "p.ndjson", "--model", "t/m", "--format", "json"], dir);
    expect(run.status).toBe(1);
    const report = JSON.parse(run.stdout) as { results: Array<{ diagnostics: Array<{ pointer: string }> }> };
    expect(report.results.map((r) => r.diagnostics.map((d) => d.pointer).sort())).toEqual([
      ["/__proto__"],
      ["/constructor", "/hasOwnProperty", "/toString"],
      ["/hasOwnProperty"],
      [],
    ]);
  });
});

it("an optional __proto__ as the only such name is validated as well", async () => {
  const dir = project("proto-only", {
    "text-to-video":
      '{"type":"object","properties":{"prompt":{"type":"string"},"__proto__":{"type":"string","minLength":2}}}',
  });
  expect((await generateInProcess(dir)).status).toBe(0);
  writeFileSync(
    join(dir, "p.ndjson"),
    '{"prompt":"x","__proto__":"a"}\n{"prompt":"x","__proto__":"ab"}\n{"prompt":"x"}\n',
  );
  const run = await node([CLI, "lint", "p.ndjson", "--model", "t/m", "--format", "json"], dir);
  const report = JSON.parse(run.stdout) as { results: Array<{ diagnostics: Array<{ pointer: string }> }> };
  expect(report.results.map((r) => r.diagnostics.map((d) => d.pointer))).toEqual([["/__proto__"], [], []]);
  expect(run.status).toBe(1);
});
