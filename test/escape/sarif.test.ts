/**
 * src/escape/sarif.ts, in process (issue 42.1): the official schema is the one committed and
 * catches what it should, a file name becomes a relative `/` URI that the schema's
 * `uri-reference` accepts, the docs base follows package.json, and every `helpUri` of lint's rule
 * table and drift's sections lands on a heading of the repository's docs/.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DOCS_BASE, sarifRoot, sarifTool, sarifUri } from "../../src/escape/index.js";
import { RULE_HELP, ruleHelp } from "../../src/lint/format/sarif-rules.js";
import { CHANGE_CATALOGUE, formatSarif, type DriftReport } from "../../src/drift/index.js";
import { PREFLIGHT_RULES } from "../../src/preflight/diagnostics.js";
import { RULE_KINDS } from "../../src/rules/kinds.js";
import { anchorsOf, sarifLog, sarifSchema, validateSarif } from "./sarif-schema.js";

const ROOT = join(import.meta.dirname, "../..");
const docs = (page: string): string => readFileSync(join(ROOT, "docs", page), "utf8");

/** A report's summary: no change counted unless given. */
const summary = (more: object = {}): DriftReport["summary"] => ({
  breaking: 0,
  behavior: 0,
  unclassified: 0,
  safe: 0,
  docs: 0,
  accepted: 0,
  models: { unchanged: 0, changed: 0, missing: 0, error: 0 },
  failOn: "breaking",
  exitCode: 0,
  ...more,
});

describe("the official SARIF 2.1.0 schema", () => {
  it("is the 2.1.0 schema (rtm.5), with no keyword whose meaning changed after draft-04", () => {
    expect(sarifSchema.id).toBe(
      "https://raw.githubusercontent.com/schemastore/schemastore/master/src/schemas/json/sarif-2.1.0-rtm.5.json",
    );
    expect((sarifSchema.properties as { version: { enum: string[] } }).version.enum).toEqual(["2.1.0"]);
    const text = JSON.stringify(sarifSchema);
    expect(text).not.toMatch(/"exclusive(Minimum|Maximum)":(true|false)/);
  });

  it("rejects what it should: a level SARIF does not know, a result without a message", () => {
    const log = {
      version: "2.1.0",
      runs: [{ tool: { driver: { name: "vsk" } }, results: [{ ruleId: "x", level: "error", message: { text: "m" } }] }],
    };
    expect(validateSarif(log)).toBe(true);
    expect(
      validateSarif({
        ...log,
        runs: [{ ...log.runs[0], results: [{ ruleId: "x", level: "fatal", message: { text: "m" } }] }],
      }),
    ).toBe(false);
    expect(validateSarif({ ...log, runs: [{ ...log.runs[0], results: [{ ruleId: "x" }] }] })).toBe(false);
    expect(validateSarif({ ...log, version: "2.0.0" })).toBe(false);
  });
});

describe("sarifUri", () => {
  it("is relative, with /, each segment percent-encoded", () => {
    expect(sarifUri("logs/a.ndjson", "/repo")).toBe("logs/a.ndjson");
    expect(sarifUri("./logs//a.ndjson", "/repo")).toBe("logs/a.ndjson");
    expect(sarifUri("/repo/logs/a b#1?.json", "/repo")).toBe("logs/a%20b%231%3F.json");
    expect(sarifUri("requests[1]:x.json", "/repo")).toBe("requests%5B1%5D%3Ax.json");
    expect(sarifUri("logs/day.json", "/repo/app", "/repo")).toBe("app/logs/day.json");
    expect(sarifUri("../other/x.json", "/repo")).toBe("../other/x.json");
    expect(sarifUri("<stdin>", "/repo")).toBe("%3Cstdin%3E");
    for (const uri of ["logs/a%20b%231%3F.json", "requests%5B1%5D%3Ax.json", "%3Cstdin%3E"])
      expect(
        validateSarif({
          version: "2.1.0",
          runs: [{ tool: { driver: { name: "vsk" } }, artifacts: [{ location: { uri } }] }],
        }),
      ).toBe(true);
  });

  it("starts at $GITHUB_WORKSPACE when the directory is inside it", () => {
    expect(sarifRoot("/work/repo/app", { GITHUB_WORKSPACE: "/work/repo" })).toBe("/work/repo");
    expect(sarifRoot("/work/repo", { GITHUB_WORKSPACE: "/work/repo" })).toBe("/work/repo");
    expect(sarifRoot("/elsewhere", { GITHUB_WORKSPACE: "/work/repo" })).toBe("/elsewhere");
    expect(sarifRoot("/work/repository", { GITHUB_WORKSPACE: "/work/repo" })).toBe("/work/repository");
    expect(sarifRoot("/work/repo/app", {})).toBe("/work/repo/app");
  });
});

describe("sarifTool", () => {
  it("points at the repository's docs when package.json names it, else at the documented base", () => {
    expect(
      sarifTool({ version: "1.2.3", repository: { type: "git", url: "git+https://github.com/acme/vsk.git" } }),
    ).toEqual({
      version: "1.2.3",
      informationUri: "https://github.com/acme/vsk",
      docsBase: "https://github.com/acme/vsk/blob/HEAD/docs/",
    });
    expect(sarifTool({ version: "1.0.0", repository: "github:acme/vsk" }).docsBase).toBe(
      "https://github.com/acme/vsk/blob/HEAD/docs/",
    );
    expect(sarifTool({ version: "1.0.0" }).docsBase).toBe(DOCS_BASE);
    // this package names no repository: the documented base (docs/rules.md, README)
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as object;
    expect(sarifTool(pkg).version).toBe((pkg as { version: string }).version);
    expect(docs("rules.md")).toContain(DOCS_BASE);
  });
});

describe("helpUri", () => {
  it("every rule lint reports has help whose anchor is a heading of docs/, with the same text", () => {
    const ids = [
      ...RULE_KINDS.flatMap((k) => k.definitions.map((d) => d.id)),
      "unknown-field",
      ...Object.values(PREFLIGHT_RULES),
      ...["invalid-json", "invalid-utf8", "binary-file", "empty-file", "line-too-long", "duplicate-key"].map(
        (r) => `lint/${r}`,
      ),
      ...["unknown-endpoint", "no-endpoint"].map((r) => `lint/${r}`),
    ];
    for (const id of ids) expect(Object.keys(RULE_HELP), id).toContain(id);
    for (const id of [...Object.keys(RULE_HELP), "schema/maximum", "lint/a-rule-of-a-newer-vsk"]) {
      const { doc, help } = ruleHelp(id);
      const [page, anchor] = doc.split("#") as [string, string];
      expect(anchorsOf(docs(page)), `${id}: docs/${doc}`).toContain(anchor);
      if (page === "rules.md" && Object.hasOwn(RULE_HELP, id)) expect(docs(page), id).toContain(help);
    }
  });

  it("drift's rules point at their id's own row of docs/drift-changes.md", () => {
    const changes = ["endpoint", "request", "response"].map((direction) => {
      const entry = CHANGE_CATALOGUE.find((e) => e.direction === direction)!;
      return {
        id: entry.id,
        severity: entry.severity,
        model: "acme/m",
        endpoint: "e",
        direction: entry.direction,
        pointer: { before: "/a", after: "/a" },
        text: "t",
      };
    });
    const report = {
      source: "s",
      models: [],
      changes,
      accepted: [],
      warnings: [],
      summary: summary(),
    } as unknown as DriftReport;
    const log = JSON.parse(formatSarif(report)) as {
      runs: Array<{ tool: { driver: { rules: Array<{ helpUri: string }> } } }>;
    };
    const anchors = anchorsOf(docs("drift-changes.md"));
    expect(log.runs[0]!.tool.driver.rules).toHaveLength(3);
    for (const rule of log.runs[0]!.tool.driver.rules) {
      const [base, anchor] = rule.helpUri.split("#") as [string, string];
      expect(base).toBe(`${DOCS_BASE}drift-changes.md`);
      expect(anchors).toContain(anchor);
      expect(changes.map((c) => c.id)).toContain(anchor);
    }
  });
});

describe("drift's log, in process", () => {
  it("accepted changes are suppressed results, an uncompared model a failed invocation; valid against the schema", () => {
    const change = {
      id: "request-property-enum-value-removed",
      severity: "breaking",
      model: "acme/m",
      endpoint: "e",
      direction: "request",
      pointer: { before: "/properties/r/enum/1", after: "/properties/r" },
      field: "/r",
      text: 'r: "4k" is no longer accepted',
      example: { r: "4k" },
    } as const;
    const report = {
      source: "https://schemas.example",
      models: [
        { model: "acme/m", status: "changed", sha256: { snapshot: "a", source: "b" } },
        { model: "acme/gone", status: "missing", sha256: { snapshot: "a", source: null }, message: "HTTP 404" },
      ],
      changes: [{ ...change, severity: "safe", id: "request-property-enum-value-added" }],
      accepted: [{ ...change, accepted: { reason: "4k retired, clients told", expires: "2027-01-01" } }],
      warnings: ["an accept entry matches nothing"],
      summary: summary({
        safe: 1,
        accepted: 1,
        models: { unchanged: 0, changed: 1, missing: 1, error: 0 },
        exitCode: 3,
      }),
    } as unknown as DriftReport;
    const log = sarifLog(
      formatSarif(report, new Map([["acme/m", "schemas-cache/acme/m/latest.json"]]), { cwd: "/r", root: "/r" }),
    );
    const run = log.runs[0]!;
    expect(run.results.map((r) => [r.ruleId, r.level, r.suppressions?.[0]?.justification])).toEqual([
      ["request-property-enum-value-added", "note", undefined],
      ["request-property-enum-value-removed", "error", "4k retired, clients told"],
    ]);
    expect(run.results[1]!.locations[0]!.physicalLocation.artifactLocation.uri).toBe(
      "schemas-cache/acme/m/latest.json",
    );
    expect(run.invocations![0]!.executionSuccessful).toBe(false);
    expect(run.invocations![0]!.toolExecutionNotifications[0].message.text).toBe("acme/gone missing: HTTP 404");
    expect(run.invocations![0]!.toolConfigurationNotifications[0].level).toBe("warning");
  });
});
