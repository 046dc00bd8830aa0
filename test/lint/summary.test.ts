/**
 * Issue 25.3 through the installed command (bin/vsk.mjs): `--summary`, `--summary-only` and
 * `--format markdown`. On a generated log with known findings (several endpoints, several rules,
 * arrays, unreadable lines, an unknown endpoint), every table of the summary, in json, pretty and
 * Markdown, equals the counts computed from the per-result `--format json` output; Markdown
 * escapes hostile file and field names like the drift report.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const VSK = join(ROOT, "bin/vsk.mjs");
const LOG = "requests-2026-11-24.ndjson.gz";

const validateReport = new Ajv2020({ allErrors: true, strict: true }).compile(
  JSON.parse(readFileSync(join(ROOT, "schemas/lint-report.schema.json"), "utf8")) as object,
);

interface Diagnostic {
  severity: "error" | "warning";
  pointer: string;
  rule: string;
  line?: number;
  column?: number;
}
interface Result {
  source: string;
  line: number;
  model: string | null;
  endpoint: string | null;
  valid: boolean;
  diagnostics: Diagnostic[];
}
interface Tables {
  byEndpoint: Array<{
    model: string | null;
    endpoint: string | null;
    requests: number;
    invalid: number;
    warnings: number;
  }>;
  byRule: Array<{
    rule: string;
    findings: number;
    requests: number;
    share: number;
    first: { source: string; line: number; pointer: string };
  }>;
  byField: Array<{ field: string; findings: number; requests: number }>;
}
interface Report {
  results: Result[];
  summary: { requests: number; valid: number; invalid: number; warnings: number } & Partial<Tables>;
}

/** One request of each kind, in turn: the generated log's known findings per kind. */
const KINDS = [
  { model: "modelA", endpoint: "text-to-video", input: { prompt: "a cat" } }, // valid
  { model: "modelA", endpoint: "text-to-video", input: { prompt: 1 } }, // schema/type at /input/prompt
  {
    model: "modelA",
    endpoint: "keyframes-to-video",
    input: {
      prompt: "p",
      keyframes: [
        { image_url: "https://img.example/a.png?sig=SECRET", frame_index: 0 },
        { image_url: "https://img.example/b.png", frame_index: 500 },
        { image_url: "https://img.example/c.png", frame_index: 600 },
      ],
    },
  }, // frame-index-within-duration at /input/keyframes/1 and /2/frame_index
  { model: "modelC", endpoint: "text-to-video", input: { prompt: "a", colour: "red" } }, // unknown-field warning
  '{"model":', // lint/invalid-json, no endpoint
  { model: "modelA", endpoint: "nope", input: {} }, // lint/unknown-endpoint, endpoint null
];
const LINES = 600;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "vsk-lint-summary-"));
  const lines: string[] = [];
  for (let i = 0; i < LINES; i++) {
    const k = KINDS[i % KINDS.length]!;
    lines.push(typeof k === "string" ? k : JSON.stringify(k));
  }
  writeFileSync(join(dir, LOG), gzipSync(lines.join("\n") + "\n"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function lint(args: string[], env: Record<string, string> = {}) {
  const base = { ...process.env };
  for (const k of ["NO_COLOR", "FORCE_COLOR", "GITHUB_STEP_SUMMARY", "CI"]) delete base[k];
  const run = spawnSync(process.execPath, [VSK, "lint", "--no-color", ...args], {
    cwd: dir,
    encoding: "utf8",
    env: { ...base, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 64 << 20,
  });
  expect(run.stderr).not.toMatch(/^\s+at /m);
  expect(run.stdout + run.stderr).not.toContain("SECRET");
  return { code: run.status, stdout: run.stdout };
}

function report(args: string[]): Report {
  const run = lint([...args, "--format", "json"]);
  const parsed = JSON.parse(run.stdout) as Report;
  expect(validateReport(parsed), JSON.stringify(validateReport.errors)).toBe(true);
  return parsed;
}

/** The tables as computed here from the per-result output, keyed for comparison. */
function countedFrom(results: Result[]) {
  const endpoints = new Map<string, { requests: number; invalid: number; warnings: number }>();
  const rules = new Map<string, { findings: number; requests: number; first: object }>();
  const fields = new Map<string, { findings: number; requests: number }>();
  for (const r of results) {
    const e = endpoints.get(`${r.model}|${r.endpoint}`) ?? { requests: 0, invalid: 0, warnings: 0 };
    endpoints.set(`${r.model}|${r.endpoint}`, e);
    e.requests++;
    if (!r.valid) e.invalid++;
    e.warnings += r.diagnostics.filter((d) => d.severity === "warning").length;
    for (const rule of new Set(r.diagnostics.map((d) => d.rule))) {
      const mine = r.diagnostics.filter((d) => d.rule === rule);
      const first = mine[0]!;
      const row = rules.get(rule) ?? {
        findings: 0,
        requests: 0,
        first: { source: r.source, line: first.line ?? r.line, pointer: first.pointer },
      };
      rules.set(rule, row);
      row.findings += mine.length;
      row.requests++;
    }
    // an envelope's /input is left out: the field of the request body (issue 42.3)
    const folded = r.diagnostics.map((d) =>
      d.pointer
        .replace(/^\/input(?=\/)/, "")
        .split("/")
        .map((s) => (/^\d+$/.test(s) ? "*" : s))
        .join("/"),
    );
    for (const field of new Set(folded)) {
      const row = fields.get(field) ?? { findings: 0, requests: 0 };
      fields.set(field, row);
      row.findings += folded.filter((f) => f === field).length;
      row.requests++;
    }
  }
  return { endpoints, rules, fields };
}

function keyed(tables: Tables) {
  return {
    endpoints: new Map(
      tables.byEndpoint.map((e) => [
        `${e.model}|${e.endpoint}`,
        { requests: e.requests, invalid: e.invalid, warnings: e.warnings },
      ]),
    ),
    rules: new Map(tables.byRule.map((r) => [r.rule, { findings: r.findings, requests: r.requests, first: r.first }])),
    fields: new Map(tables.byField.map((f) => [f.field, { findings: f.findings, requests: f.requests }])),
  };
}

describe("lint --summary", () => {
  it("json: byEndpoint, byRule and byField equal the counts of the per-result output, on a generated gzip log", () => {
    const plain = report([LOG]);
    expect(plain.summary.byRule).toBeUndefined(); // without --summary the report is as before
    const counted = countedFrom(plain.results);
    const per = LINES / KINDS.length;
    // the known findings of the generated log
    expect(counted.rules.get("schema/type")).toMatchObject({ findings: per, requests: per });
    expect(counted.rules.get("frame-index-within-duration")).toMatchObject({ findings: 2 * per, requests: per });
    expect(counted.fields.get("/keyframes/*/frame_index")).toEqual({ findings: 2 * per, requests: per });
    expect(counted.endpoints.size).toBe(5);

    for (const args of [["--summary"], ["--summary-only"], ["--summary", "--errors-only"]]) {
      const withSummary = report([LOG, ...args]);
      const { byEndpoint, byRule, byField, ...totals } = withSummary.summary;
      expect(totals).toEqual(plain.summary);
      expect(keyed({ byEndpoint: byEndpoint!, byRule: byRule!, byField: byField! })).toEqual(counted);
      for (const r of byRule!) expect(r.share).toBe(r.requests / plain.summary.requests);
      // most findings first
      expect(byRule!.map((r) => r.findings)).toEqual([...byRule!.map((r) => r.findings)].sort((a, b) => b - a));
    }
    expect(report([LOG, "--summary"]).results).toEqual(plain.results);
    expect(report([LOG, "--summary-only"]).results).toEqual([]);
  });

  it("json: beyond 1000 fields one `other` row counts the rest, so the findings still add up", () => {
    const input: Record<string, unknown> = { prompt: "p" };
    for (let i = 0; i < 1010; i++) input[`f${i}`] = i;
    writeFileSync(join(dir, "wide.json"), JSON.stringify({ model: "modelA", endpoint: "text-to-video", input }));
    // every finding kept (the default keeps 100 per request, issue 38.2)
    const all = ["--max-findings-per-request", "2000"];
    const { summary, results } = report(["wide.json", "--summary", ...all]);
    const byField = summary.byField! as Array<Tables["byField"][number] & { other?: true }>;
    expect(byField).toHaveLength(1001);
    expect(byField.at(-1)).toEqual({ field: null, findings: 10, requests: 1, other: true });
    expect(byField.reduce((n, f) => n + f.findings, 0)).toBe(results[0]!.diagnostics.length);
    expect(lint(["wide.json", "--summary-only", ...all]).stdout).toContain(
      "… 981 fields more (--format json lists every one)",
    );
  });

  it("pretty: --summary-only prints the aligned tables with the same counts, and no per-result line", () => {
    const { byEndpoint, byRule, byField } = report([LOG, "--summary-only"]).summary as Tables;
    const run = lint([LOG, "--summary-only"]);
    expect(run.code).toBe(1);
    expect(run.stdout).not.toContain(`${LOG}:2  example/model-a/text-to-video  invalid`); // no result of its own
    const rows = run.stdout.split("\n").filter((l) => /^\s+\d/.test(l));
    const cells = (l: string) => l.trim().split(/\s{2,}/);
    const numbers = rows.map((l) => cells(l).filter((c) => /^\d+(\.\d)?%?$/.test(c)).length);
    expect(numbers).toEqual([...byEndpoint.map(() => 3), ...byRule.map(() => 3), ...byField.map(() => 2)]);
    expect(rows.slice(0, byEndpoint.length).map(cells)).toEqual(
      byEndpoint.map((e) => [
        String(e.requests),
        String(e.invalid),
        String(e.warnings),
        e.model === null
          ? "(no endpoint: unreadable, or none named)"
          : e.endpoint === null
            ? `${e.model} (unknown endpoint)`
            : `${e.model}/${e.endpoint}`,
      ]),
    );
    const ruleRows = rows.slice(byEndpoint.length, byEndpoint.length + byRule.length).map(cells);
    expect(ruleRows).toEqual(
      byRule.map((r) => [
        String(r.findings),
        String(r.requests),
        `${(r.share * 100).toFixed(1)}%`,
        r.rule,
        `${r.first.source}:${r.first.line}`,
        r.first.pointer || "/",
      ]),
    );
    expect(rows.slice(byEndpoint.length + byRule.length).map(cells)).toEqual(
      byField.map((f) => [String(f.findings), String(f.requests), f.field || "/"]),
    );
    expect(run.stdout.trimEnd().split("\n").at(-1)).toBe("600 requests: 200 valid, 400 invalid, 100 warnings");
    // --summary: the results, then the same tables
    const after = lint([LOG, "--summary"]).stdout;
    expect(after).toContain(`${LOG}:2  example/model-a/text-to-video  invalid`);
    expect(run.stdout.startsWith("Summary\n")).toBe(true);
    expect(after.slice(after.indexOf("\nSummary\n") + 1)).toBe(run.stdout);
  });

  it("markdown: the results and the summary tables, with the same counts", () => {
    const { byRule, byField } = report([LOG, "--summary-only"]).summary as Tables;
    const run = lint([LOG, "--format", "markdown"]);
    expect(run.code).toBe(1);
    const md = run.stdout;
    expect(md).toMatch(/^### vsk lint: 400 invalid requests\n\n600 requests: 200 valid, 400 invalid, 100 warnings\.\n/);
    expect(md).toContain(`| error | \`${LOG}:2\` | \`/input/prompt\` | prompt: expected string, received integer 1 |`);
    for (const r of byRule)
      expect(md).toContain(
        `| \`${r.rule}\` | ${r.findings} | ${r.requests} | ${(r.share * 100).toFixed(1)}% | \`${r.first.source}:${r.first.line}\` | \`${r.first.pointer || "/"}\` |`,
      );
    for (const f of byField) expect(md).toContain(`| \`${f.field || "/"}\` | ${f.findings} | ${f.requests} |`);
    expect(md).toContain("| `example/model-a` (unknown endpoint) | 100 | 100 | 0 |");
    // --summary-only: the summary without the finding rows
    const only = lint([LOG, "--format", "markdown", "--summary-only"]).stdout;
    expect(only).not.toContain("| severity |");
    expect(only).toContain("#### By rule");
  });

  it("github: the tables in the log as plain lines (none starts a workflow command), and in the step summary", () => {
    const stepSummary = join(dir, "step-summary.md");
    writeFileSync(stepSummary, "");
    const run = lint([LOG, "--format", "github", "--summary", "--max-annotations", "3"], {
      GITHUB_STEP_SUMMARY: stepSummary,
    });
    const log = run.stdout.split("\n");
    expect(log.filter((l) => l.startsWith("::")).map((l) => l.slice(0, l.indexOf(" ")))).toEqual([
      "::error",
      "::error",
      "::error",
      "::notice",
    ]);
    expect(log).toContain("Summary");
    expect(log.some((l) => /^\s+100\s+100\s+16\.7%\s+schema\/type\s/.test(l))).toBe(true);
    const md = readFileSync(stepSummary, "utf8");
    expect(md).toContain("#### By rule");
    expect(md).toContain("| `/keyframes/*/frame_index` | 200 | 100 |");
  });
});

/**
 * Markdown with its code spans removed (CommonMark: a run of N backticks, not backslash-escaped,
 * up to the next run of exactly N), as test/output/hostile-output.test.ts reads it.
 */
function outsideCodeSpans(md: string): string {
  let out = "";
  let i = 0;
  while (i < md.length) {
    const open = /(?<!\\)`+/g;
    open.lastIndex = i;
    const m = open.exec(md);
    if (m === null) break;
    out += md.slice(i, m.index);
    const close = new RegExp(`(?<!\`)${m[0]}(?!\`)`, "g");
    close.lastIndex = m.index + m[0].length;
    const end = close.exec(md);
    if (end === null) {
      out += m[0];
      i = m.index + m[0].length;
    } else i = end.index + m[0].length;
  }
  return out + md.slice(i);
}

describe("lint --format markdown on hostile names", () => {
  it("escapes file and field names like the drift report: no table break, comment, heading, link or URL query", () => {
    const file = "a|b`c<!--x\n## h.ndjson";
    const field = "https://evil.example/p?token=SECRET|`<!--\n## y";
    writeFileSync(
      join(dir, file),
      JSON.stringify({ model: "modelA", endpoint: "text-to-video", input: { prompt: 1, [field]: 1 } }) + "\n",
    );
    const run = lint([file, "--format", "markdown"]);
    expect(run.code).toBe(1);
    const md = run.stdout;
    const lines = md.split("\n");
    // the file name and the field are shown: in code spans, their line breaks as \n
    expect(md).toContain("``a\\|b`c<!--x\\n## h.ndjson:1``");
    expect(md).toContain("#### By field");
    expect(lines.filter((l) => l.includes("evil.example")).length).toBeGreaterThanOrEqual(3);
    // outside code spans: no HTML comment, no bare URL GitHub would link, no query string anywhere
    const text = outsideCodeSpans(md);
    expect(text).not.toContain("<!--");
    expect(text).not.toMatch(/https?:\/\//);
    expect(md).not.toContain("token=");
    // no heading but ours, no line that begins with the data
    for (const line of lines) {
      if (line.startsWith("#")) expect(line).toMatch(/^#{3,4} (vsk lint: |By )/);
      expect(line).not.toMatch(/^(## |a\|b|https)/);
    }
    // every row of every table has its header's number of cells
    let cells = 0;
    for (let n = 0; n < lines.length; n++) {
      const line = lines[n]!;
      const count = line.split(/(?<!\\)\|/).length - 2;
      if (lines[n + 1]?.startsWith("| ---")) cells = count;
      else if (line.startsWith("| ") && !line.startsWith("| ---")) expect(count, line).toBe(cells);
    }
    expect(cells).toBeGreaterThan(0);
  });
});
