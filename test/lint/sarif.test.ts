/**
 * `vsk lint --format sarif` through the built CLI (issue 42.1), four spawns: the log is valid
 * against the official SARIF 2.1.0 schema, has one result per finding with the rule, level, file
 * and the line and column `--format json` reports, names every rule it uses with help and docs,
 * keeps its fingerprints when the same inputs are linted from another checkout in another order
 * with absolute paths, exits as the other formats do, and never shows a secret.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sarifLog, type SarifLog, type SarifResult } from "../escape/sarif-schema.js";

const ROOT = join(import.meta.dirname, "../..");
const CLI = join(ROOT, "dist/cli/vsk.js");
const FIXTURES = join(ROOT, "test/fixtures/lint");
const INPUTS = ["mixed.ndjson", "secrets.ndjson", "payloads", "brackets"];

function lint(args: string[], cwd = FIXTURES): { code: number | null; stdout: string; stderr: string } {
  const env = { ...process.env };
  for (const key of ["GITHUB_WORKSPACE", "GITHUB_STEP_SUMMARY", "NO_COLOR", "FORCE_COLOR"]) delete env[key];
  const run = spawnSync(process.execPath, [CLI, "lint", ...args], { cwd, env, encoding: "utf8", maxBuffer: 1 << 26 });
  expect(run.stderr).not.toMatch(/^\s+at /m);
  expect(run.stdout + run.stderr).not.toContain("SECRET");
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

interface JsonReport {
  results: Array<{
    source: string;
    line: number;
    diagnostics: Array<{
      rule: string;
      severity: string;
      pointer: string;
      message: string;
      line?: number;
      column?: number;
    }>;
  }>;
}

const tmp = mkdtempSync(join(tmpdir(), "vsk-sarif-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A result's identity apart from its fingerprint. */
const where = (r: SarifResult): string => {
  const { artifactLocation, region } = r.locations[0]!.physicalLocation;
  return `${artifactLocation.uri}:${region.startLine}:${region.startColumn ?? "-"} ${r.ruleId} ${r.properties.pointer}`;
};

describe("vsk lint --format sarif", () => {
  const sarifRun = lint([...INPUTS, "--format", "sarif"]);
  const jsonRun = lint([...INPUTS, "--format", "json"]);
  let log: SarifLog;

  it("is one SARIF 2.1.0 log, valid against the official schema, exiting as --format json does", () => {
    expect(sarifRun.code).toBe(1);
    expect(jsonRun.code).toBe(1);
    log = sarifLog(sarifRun.stdout);
    expect(log.version).toBe("2.1.0");
    const driver = log.runs[0]!.tool.driver;
    expect(driver.name).toBe("vsk");
    expect(driver.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(driver.informationUri).toMatch(/^https:\/\//);
  });

  it("has one result per finding: rule, level, relative file, and the line and column of --format json", () => {
    const report = JSON.parse(jsonRun.stdout) as JsonReport;
    const findings = report.results.flatMap((r) => r.diagnostics.map((d) => ({ r, d })));
    const results = log.runs[0]!.results;
    expect(results).toHaveLength(findings.length);
    expect(findings.some(({ d }) => d.column !== undefined)).toBe(true);
    expect(findings.some(({ d }) => d.severity === "warning")).toBe(true);
    findings.forEach(({ r, d }, i) => {
      const result = results[i]!;
      expect(result.ruleId).toBe(d.rule);
      expect(result.level).toBe(d.severity === "error" ? "error" : "warning");
      expect(result.message.text).toBe(d.message);
      const { artifactLocation, region } = result.locations[0]!.physicalLocation;
      // relative, with '/', as typed; braces percent-encoded
      expect(decodeURIComponent(artifactLocation.uri)).toBe(r.source);
      expect(artifactLocation.uri).not.toMatch(/^\/|\\|^[a-z]+:/i);
      expect(region.startLine).toBe(d.line ?? r.line);
      expect(region.startColumn).toBe(d.column);
    });
    expect(results.map((r) => r.locations[0]!.physicalLocation.artifactLocation.uri)).toContain(
      "brackets/logs%7Bold%7D/day.ndjson",
    );
  });

  it("lists every rule it uses, with help and a helpUri into docs/", () => {
    const { rules } = log.runs[0]!.tool.driver;
    expect(rules.map((r) => r.id).sort()).toEqual([...new Set(log.runs[0]!.results.map((r) => r.ruleId))].sort());
    for (const rule of rules) {
      expect(rule.help.text.length).toBeGreaterThan(20);
      expect(rule.helpUri).toMatch(/\/docs\/(rules|preflight)\.md#[a-z0-9-]+$/);
    }
    expect(log.runs[0]!.properties!.summary).toEqual((JSON.parse(jsonRun.stdout) as { summary: unknown }).summary);
  });

  it("keeps its fingerprints from another checkout, other input order, absolute paths", () => {
    const copy = join(tmp, "elsewhere", "checkout");
    cpSync(FIXTURES, copy, { recursive: true });
    const again = sarifLog(
      lint(
        [...INPUTS]
          .reverse()
          .map((i) => join(copy, i))
          .concat("--format", "sarif"),
        copy,
      ).stdout,
    );
    const prints = (l: SarifLog): Map<string, string> =>
      new Map(l.runs[0]!.results.map((r) => [where(r), JSON.stringify(r.partialFingerprints)]));
    const first = prints(log);
    expect(first.size).toBe(log.runs[0]!.results.length); // every finding is told apart
    expect(new Set(log.runs[0]!.results.map((r) => JSON.stringify(r.partialFingerprints))).size).toBe(first.size);
    expect(prints(again)).toEqual(first);
  });

  it("a clean run exits 0 with no error or warning result", () => {
    const clean = lint(["payloads/envelope-valid.json", "--format", "sarif"]);
    expect(clean.code).toBe(0);
    const run = sarifLog(clean.stdout).runs[0]!;
    expect(run.results.filter((r) => r.level !== "note")).toEqual([]);
    expect(run.tool.driver.rules).toEqual([]);
  });
});
