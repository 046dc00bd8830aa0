/**
 * Issue 41 through the installed command (bin/vsk.mjs): `vsk udf` once per warehouse, and
 * `--check` failing on a stale file; the rest (flags refused, `--check` up to date) in process.
 */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import vm from "node:vm";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { runUdf } from "../../src/cli/udf.js";
import { ROOT, tempDir, vsk, vskAsync, type Run } from "../cli/run.js";

let project: string;
let runs: { bigquery: Run; snowflake: Run };
const LIBRARY = "gs://acme-logs/udf/vsk_lint.js";

beforeAll(async () => {
  project = tempDir("vsk-udf-");
  cpSync(join(ROOT, "vsk.config.json"), join(project, "vsk.config.json"));
  cpSync(join(ROOT, "schemas-cache"), join(project, "schemas-cache"), { recursive: true });
  const [bigquery, snowflake] = await Promise.all([
    vskAsync(["udf", "--target", "bigquery", "--library", LIBRARY, "--out", "warehouse"], project),
    vskAsync(["udf", "--target", "snowflake", "--model", "modelC", "--function", "lint_c", "--out", "snow"], project),
  ]);
  runs = { bigquery: bigquery, snowflake: snowflake };
}, 120_000);

describe("vsk udf", () => {
  it("--target bigquery writes vsk_lint.js and the SQL that loads it from --library", () => {
    expect({ code: runs.bigquery.code, stderr: runs.bigquery.stderr }).toEqual({ code: 0, stderr: "" });
    expect(runs.bigquery.stdout).toMatch(
      /^Wrote warehouse\/vsk_lint\.bigquery\.sql \(\d+ bytes\), warehouse\/vsk_lint\.js \(\d+ bytes\) for 4 endpoints of 3 models/,
    );
    expect(runs.bigquery.stdout).toContain(`upload vsk_lint.js to ${LIBRARY}`);
    const sql = readFileSync(join(project, "warehouse/vsk_lint.bigquery.sql"), "utf8");
    expect(sql).toContain(`OPTIONS (library = ['${LIBRARY}'])`);
    const context = vm.createContext({});
    vm.runInContext(readFileSync(join(project, "warehouse/vsk_lint.js"), "utf8"), context);
    const lint = context.vskLint as (e: string, p: unknown) => Array<{ rule: string; pointer: string }>;
    expect(lint("example/model-a/text-to-video", '{"prompt": "a", "duration": 40}')).toEqual([
      expect.objectContaining({ rule: "schema/maximum", pointer: "/duration" }),
    ]);
  });

  it("--target snowflake --model modelC --function lint_c writes that function with that model's endpoints alone", () => {
    expect({ code: runs.snowflake.code, stderr: runs.snowflake.stderr }).toEqual({ code: 0, stderr: "" });
    expect(runs.snowflake.stdout).toMatch(
      /^Wrote snow\/vsk_lint\.snowflake\.sql \(\d+ bytes\) for 1 endpoint of 1 model/,
    );
    const sql = readFileSync(join(project, "snow/vsk_lint.snowflake.sql"), "utf8");
    expect(sql).toContain("-- ENDPOINT: example/model-c/text-to-video\n");
    expect(sql).toContain("\nCREATE OR REPLACE FUNCTION lint_c(ENDPOINT VARCHAR, PAYLOAD VARIANT)\n");
    expect(sql).not.toContain('"example/model-a/');
  });

  it("--check exits 1 on a stale file, saying which and what to run", () => {
    const file = join(project, "warehouse/vsk_lint.js");
    writeFileSync(file, readFileSync(file, "utf8").replace("vskLint", "vskLint "));
    const run = vsk(["udf", "--target", "bigquery", "--library", LIBRARY, "--out", "warehouse", "--check"], project);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(
      "vsk: warehouse/ is stale: 1 file differs from what the snapshot gives (vsk_lint.js); run `vsk udf --target bigquery` with the same flags and commit the result.\n",
    );
  });
});

describe("vsk udf, in process", () => {
  const cwd = process.cwd();
  afterEach(() => {
    process.chdir(cwd);
    vi.restoreAllMocks();
  });

  it("--check: up to date with what another process wrote (the bytes do not depend on the run)", async () => {
    const out = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    process.chdir(project);
    expect(
      await runUdf([
        "--target",
        "snowflake",
        "--model",
        "example/model-c",
        "--function",
        "lint_c",
        "--out",
        "snow",
        "--check",
      ]),
    ).toBe(0);
    expect(out.mock.calls.map((c) => String(c[0])).join("")).toBe(
      "snow/ is up to date (vsk_lint.snowflake.sql; 1 endpoint).\n",
    );
  }, 60_000);

  it.each([
    [
      ["--target", "bigquery", "--model", "modelZ"],
      /^udf: --model "modelZ" is not a configured model; configured: example\/model-a \(modelA\)/,
    ],
    [
      ["--target", "bigquery", "--endpoint", "image-to-video"],
      /^udf: --endpoint "image-to-video" is not an endpoint of .*; known: keyframes-to-video, text-to-video, reference-to-video$/,
    ],
    [["--target", "snowflake", "--library", LIBRARY], /^udf: --library is for --target bigquery only$/],
    [
      ["--target", "bigquery", "--library", "https://storage.example/x.js?sig=SECRET"],
      /^udf: --library "https:\/\/storage\.example\/x\.js" is not a Cloud Storage URI \(gs:\/\/bucket\/path\/vsk_lint\.js\)$/,
    ],
    [["--target", "oracle"], /^udf: --target must be one of bigquery, snowflake, not "oracle"/],
    [["--target", "snowflake", "--function", "vsk-lint"], /^udf: --function "vsk-lint" is not a plain SQL name/],
    [[], /^udf: Missing required argument: target/],
  ])("refuses %j as a usage error", async (args, message) => {
    vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const thrown = await runUdf(args).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(thrown).toMatchObject({ exitCode: 2 });
    expect((thrown as Error).message).toMatch(message);
  });
});
