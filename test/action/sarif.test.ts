/**
 * The Action's `sarif-file` input (issue 42.1), in process (`runCommand`, as `vsk action` runs
 * it): drift and lint write a SARIF 2.1.0 log, valid against the official schema, for
 * github/codeql-action/upload-sarif, its URIs relative to the repository's checkout
 * (`GITHUB_WORKSPACE`) when the working directory is a folder of it; a file that cannot be
 * written fails the step with one annotation; check refuses the input.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readInputs, runCommand } from "../../src/action/index.js";
import { stageErrorOf } from "../../src/cli/errors.js";
import { sarifLog } from "../escape/sarif-schema.js";

const ROOT = join(import.meta.dirname, "../..");
/** what `vsk action` passes (src/cli/action.ts) */
const isStageError = (error: unknown): boolean => stageErrorOf(error) !== undefined;
let workspace: string;
let app: string;

beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), "vsk-action-sarif-"));
  app = join(workspace, "app");
  cpSync(join(ROOT, "schemas-cache"), join(app, "schemas-cache"), { recursive: true });
  writeFileSync(
    join(app, "vsk.config.json"),
    JSON.stringify({
      models: ["model-a", "model-b", "model-c"].map((m, i) => ({ id: `example/${m}`, alias: `model${"ABC"[i]}` })),
    }),
  );
});
afterEach(() => rmSync(workspace, { recursive: true, force: true }));

const env = (): NodeJS.ProcessEnv => ({ GITHUB_WORKSPACE: workspace });

describe("sarif-file", () => {
  it("is read from VSK_ACTION_SARIF_FILE, for drift and lint only", () => {
    expect(readInputs({ VSK_ACTION_SARIF_FILE: " out/vsk.sarif " }).sarifFile).toBe("out/vsk.sarif");
    expect(readInputs({}).sarifFile).toBeUndefined();
    expect(() => readInputs({ VSK_ACTION_COMMAND: "check", VSK_ACTION_SARIF_FILE: "x.sarif" })).toThrow(
      "input sarif-file applies to commands drift and lint, not check",
    );
  });

  it("action.yml declares it and passes it on; the README's inputs table lists it", () => {
    const yml = readFileSync(join(ROOT, "action.yml"), "utf8");
    expect(yml).toMatch(/^  sarif-file:\n    description: .*upload-sarif/m);
    expect(yml).toContain("VSK_ACTION_SARIF_FILE: ${{ inputs.sarif-file }}");
    expect(readFileSync(join(ROOT, "README.md"), "utf8")).toMatch(/^\| `sarif-file` \|/m);
  });

  it("drift writes one result per change, URIs from the checkout's root", async () => {
    cpSync(join(ROOT, "schemas-cache"), join(app, "mirror", "main"), { recursive: true });
    const a = join(app, "mirror/main/example/model-a/latest.json");
    writeFileSync(a, readFileSync(a, "utf8").replace(/"2:1",\s*/g, ""));
    const inputs = { ...readInputs({ VSK_ACTION_SARIF_FILE: "out/drift.sarif" }), schemaUrl: join(app, "mirror") };
    const result = await runCommand(inputs, app, env(), isStageError);
    expect(result.exitCode).toBe(1);
    const run = sarifLog(readFileSync(join(app, "out/drift.sarif"), "utf8")).runs[0]!;
    const changes = JSON.parse(result.outputs["changes-json"]) as Array<{ id: string }>;
    expect(run.results.map((r) => r.ruleId)).toEqual(changes.map((c) => c.id));
    expect(run.results[0]!.level).toBe("error");
    expect(run.results[0]!.locations[0]!.physicalLocation.artifactLocation.uri).toBe(
      "app/schemas-cache/example/model-a/latest.json",
    );
  });

  it("lint writes every finding, warnings too, beside its annotations; an unwritable path fails the step", async () => {
    cpSync(join(ROOT, "generated"), join(app, "generated"), { recursive: true });
    mkdirSync(join(app, "requests"));
    writeFileSync(
      join(app, "requests", "bad.json"),
      JSON.stringify({ model: "modelC", input: { prompt: "x", duration: 2, colour: 1 } }),
    );
    writeFileSync(join(app, "requests", "ok.json"), JSON.stringify({ model: "modelC", input: { prompt: "x" } }));
    const inputs = readInputs({
      VSK_ACTION_COMMAND: "lint",
      VSK_ACTION_PATHS: "requests/bad.json\nrequests/ok.json",
      VSK_ACTION_SARIF_FILE: "vsk.sarif",
    });
    const result = await runCommand(inputs, app, env(), isStageError);
    expect(result.exitCode).toBe(1);
    expect(result.log).toContain("::error file=requests/bad.json,line=1,col=");
    const run = sarifLog(readFileSync(join(app, "vsk.sarif"), "utf8")).runs[0]!;
    expect(run.results.map((r) => [r.ruleId, r.level, r.locations[0]!.physicalLocation.artifactLocation.uri])).toEqual([
      ["duration-auto-or-range", "error", "app/requests/bad.json"],
      ["unknown-field", "warning", "app/requests/bad.json"],
    ]);
    expect(run.properties!.summary).toMatchObject({ requests: 2, valid: 1, invalid: 1, warnings: 1 });

    // the file's directory is a file: the step fails with one annotation
    writeFileSync(join(app, "blocked"), "");
    const blocked = await runCommand({ ...inputs, sarifFile: "blocked/vsk.sarif" }, app, env(), isStageError);
    expect(blocked.exitCode).toBe(2);
    expect(blocked.log).toMatch(
      /::error title=video-schema-kit::could not write sarif-file blocked\/vsk\.sarif \((EEXIST|ENOTDIR)\)/,
    );
  });
});
