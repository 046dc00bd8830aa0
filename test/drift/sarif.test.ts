/**
 * `vsk drift --format sarif` end to end against a live HTTP source on 127.0.0.1 (issue 42.1), four
 * spawns: valid against the official SARIF 2.1.0 schema; one result per change, in the order of
 * `--format json`'s `changes`, its `ruleId` the change's `id` and its level from the severity;
 * located at the model's snapshot file, relative; the same fingerprints from a copy of the project
 * at another path; the exit codes of the other formats; no query string of a URL in schema text.
 */
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sarifLog } from "../escape/sarif-schema.js";
import { ctx, edit, report, serve, serveChanged, useDriftWorkspace, vsk } from "./harness.js";

useDriftWorkspace();

const LEVEL: Record<string, string> = {
  breaking: "error",
  behavior: "warning",
  unclassified: "warning",
  safe: "note",
  docs: "note",
};

describe("vsk drift --format sarif", () => {
  it("an unchanged source: exit 0, no results, a successful invocation", async () => {
    const run = await vsk(["--format", "sarif"], ctx.dir, { GITHUB_WORKSPACE: "" });
    expect(run.code).toBe(0);
    const log = sarifLog(run.stdout).runs[0]!;
    expect(log.results).toEqual([]);
    expect(log.invocations![0]!.executionSuccessful).toBe(true);
  });

  it("one result per change: the change id, the level of its severity, the snapshot file; fingerprints kept elsewhere", async () => {
    serveChanged();
    // a new enum value of model-a holding a signed URL: schema text, redacted before any format
    serve(
      "example/model-a",
      edit("example/model-a", (d) => {
        const p = d.components.schemas.TextToVideoInput.properties;
        p.aspect_ratio.enum = p.aspect_ratio.enum.filter((v: string) => v !== "2:1");
        p.resolution.default = "1080p";
        p.resolution.enum.push("https://h.example/a?sig=SECRET");
      }),
    );
    const elsewhere = mkdtempSync(join(tmpdir(), "vsk-drift-sarif-"));
    try {
      cpSync(ctx.dir, elsewhere, { recursive: true });
      const env = { GITHUB_WORKSPACE: "" };
      const [json, sarif, again] = await Promise.all([
        vsk(["--format", "json"], ctx.dir, env),
        vsk(["--format", "sarif"], ctx.dir, env),
        vsk(["--format", "sarif"], elsewhere, env),
      ]);
      expect(sarif.code).toBe(1);
      expect(sarif.code).toBe(json.code);
      expect(sarif.stdout).not.toContain("SECRET");
      expect(sarif.stdout).toContain("h.example/a");
      const changes = report(json).changes as Array<{ id: string; severity: string; model: string }>;
      const log = sarifLog(sarif.stdout).runs[0]!;
      expect(log.results.map((r) => [r.ruleId, r.properties.changeId, r.level])).toEqual(
        changes.map((c) => [c.id, c.id, LEVEL[c.severity]]),
      );
      expect(log.results.map((r) => r.level)).toContain("error");
      expect(log.results.map((r) => r.level)).toContain("note");
      for (const [i, r] of log.results.entries())
        expect(r.locations[0]!.physicalLocation.artifactLocation.uri).toBe(
          `schemas-cache/${changes[i]!.model}/latest.json`,
        );
      expect(log.tool.driver.rules.map((r) => r.id).sort()).toEqual([...new Set(changes.map((c) => c.id))].sort());
      for (const rule of log.tool.driver.rules) expect(rule.helpUri).toMatch(/\/docs\/drift-changes\.md#[a-z0-9-]+$/);
      const prints = log.results.map((r) => r.partialFingerprints);
      expect(new Set(prints.map((p) => JSON.stringify(p))).size).toBe(prints.length);
      expect(sarifLog(again.stdout).runs[0]!.results.map((r) => r.partialFingerprints)).toEqual(prints);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});
