/**
 * Issue S2: `--format github` annotations name their file relative to the repository's checkout
 * (`$GITHUB_WORKSPACE`), as SARIF's URIs do, so that run from a subdirectory or a monorepo
 * package (or given an absolute path) they still land on the PR's diff. Without the workspace,
 * or for a file outside it, the path is as given.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { githubFile, workspacePath } from "../../src/escape/index.js";
import { vskInProcess } from "../cli/run.js";

let workspace: string;
beforeAll(() => {
  workspace = mkdtempSync(join(tmpdir(), "vsk-workspace-"));
  mkdirSync(join(workspace, "packages/app/requests"), { recursive: true });
});
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

describe("annotation paths relative to $GITHUB_WORKSPACE", () => {
  it("rebases a relative or absolute path inside the workspace; keeps others as given", () => {
    const env = { GITHUB_WORKSPACE: "/w" };
    expect(workspacePath("requests/a.json", "/w/packages/app", env)).toBe("packages/app/requests/a.json");
    expect(workspacePath("/w/packages/app/a.json", "/tmp", env)).toBe("packages/app/a.json");
    expect(workspacePath("../../x.json", "/w/packages/app", env)).toBe("x.json");
    expect(workspacePath("/elsewhere/a.json", "/w", env)).toBe("/elsewhere/a.json");
    expect(workspacePath("requests/a.json", "/w/packages/app", {})).toBe("requests/a.json");
    expect(workspacePath("requests/a.json", "/w/packages/app", { GITHUB_WORKSPACE: "relative" })).toBe(
      "requests/a.json",
    );
    expect(workspacePath("<stdin>", "/w", env)).toBe("<stdin>");
    expect(githubFile("requests/a,b.json", "/", "/w/pkg", env)).toBe("pkg/requests/a%2Cb.json");
  });

  it("vsk lint --format github from a subdirectory annotates the file by its path in the repository", async () => {
    const app = join(workspace, "packages/app");
    writeFileSync(
      join(app, "requests/log.ndjson"),
      '{"model":"modelC","endpoint":"text-to-video","input":{"prompt":"x","duration":"long"}}\n',
    );
    const run = await vskInProcess(["lint", "requests/log.ndjson", "--format", "github"], app, {
      GITHUB_WORKSPACE: workspace,
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^::error file=packages\/app\/requests\/log\.ndjson,line=1,/m);
    const absolute = await vskInProcess(["lint", join(app, "requests/log.ndjson"), "--format", "github"], workspace, {
      GITHUB_WORKSPACE: workspace,
    });
    expect(absolute.stdout).toMatch(/^::error file=packages\/app\/requests\/log\.ndjson,line=1,/m);
  });
});
