/**
 * Issue 23.2 for `vsk lint`: values are redacted before they are serialized, never the
 * serialized text. Arbitrary strings around a signed URL, placed wherever a payload can carry
 * them (a field's value, a field's name, a repeated key, the envelope's model and endpoint, a
 * line that is not JSON), through the installed command (bin/vsk.mjs): `--format json` always
 * parses (and matches its schema), and no query string survives in any format.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { vskInProcess } from "../cli/run.js";

const ROOT = resolve(import.meta.dirname, "../..");
const VSK = join(ROOT, "bin/vsk.mjs");
const validateReport = new Ajv2020({ allErrors: true, strict: true }).compile(
  JSON.parse(readFileSync(join(ROOT, "schemas/lint-report.schema.json"), "utf8")) as object,
);
const SECRET = "SECRETtok3n";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "vsk-lint-redaction-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function lint(format: string) {
  const run = spawnSync(process.execPath, [VSK, "lint", "log.ndjson", "--format", format], {
    cwd: dir,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1", GITHUB_STEP_SUMMARY: "" },
  });
  return run;
}

/** {@link lint} run in this process (issue 42.4): the same program, its output captured. */
async function lintInProcess(format: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const run = await vskInProcess(["lint", "log.ndjson", "--format", format], dir);
  return { status: run.code, stdout: run.stdout, stderr: run.stderr };
}

/** One NDJSON log that places `value` everywhere a payload can carry a string. */
function linesFor(value: string): string[] {
  const v = JSON.stringify(value);
  const envelope = (input: string, model = '"modelA"', endpoint = '"text-to-video"') =>
    `{"model":${model},"endpoint":${endpoint},"input":${input}}`;
  return [
    envelope(`{"prompt":${v}}`),
    envelope(`{"prompt":"x","aspect_ratio":${v}}`),
    envelope(`{"prompt":"x",${v}:1}`),
    envelope(`{"prompt":"x",${v}:1,${v}:2}`),
    envelope(`{"prompt":1,"duration":${v}}`),
    envelope(`{"prompt":"x"}`, v),
    envelope(`{"prompt":"x"}`, '"modelA"', v),
    `{"model":${v},,}`,
  ];
}

const around = fc.string({ unit: "binary", maxLength: 40 });

describe("vsk lint output with signed URLs inside arbitrary strings", () => {
  it("--format json always parses, and no format shows a query string", { timeout: 240_000 }, async () => {
    // the first sample through the installed command (a child process per format), the others
    // in process: the output is what is checked, and it is the same program's
    let samples = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(around, around), { minLength: 1, maxLength: 6 }), async (pairs) => {
        const run = samples++ === 0 ? (format: string) => Promise.resolve(lint(format)) : lintInProcess;
        const lines = pairs.flatMap(([before, after], i) =>
          linesFor(`${before}https://h.example/v.mp4?X-Sig=${SECRET}${i}&b="c${after}`),
        );
        writeFileSync(join(dir, "log.ndjson"), lines.join("\n") + "\n");
        const json = await run("json");
        expect(json.status).toBe(1);
        const report = JSON.parse(json.stdout) as { results: unknown[] };
        expect(validateReport(report) ? [] : validateReport.errors).toEqual([]);
        expect(report.results).toHaveLength(lines.length);
        for (const output of [json, await run("github"), await run("pretty")]) {
          expect(output.stderr).not.toMatch(/^\s+at /m);
          expect(output.stdout + output.stderr).not.toContain(SECRET);
          expect(output.stdout + output.stderr).not.toContain("X-Sig");
        }
      }),
      { numRuns: 6, seed: 2311 },
    );
  });

  it("quotes a repeated key as its redacted value, not the redacted quoted text", () => {
    writeFileSync(
      join(dir, "log.ndjson"),
      '{"model":"modelA","endpoint":"text-to-video","input":{"prompt":"x","https://h.example/p?sig=1\\"q":1,"https://h.example/p?sig=1\\"q":2}}\n',
    );
    const report = JSON.parse(lint("json").stdout) as { results: { diagnostics: { message: string }[] }[] };
    // the key loses its query string; the quote inside what remains stays escaped as JSON
    expect(report.results[0]!.diagnostics[0]!.message).toMatch(
      /^"https:\/\/h\.example\/p\\"q" appears again at line 1/,
    );
  });

  it("redacts a field name inside a pointer as the name it is: the pointer stays valid and names the field the message names", () => {
    // the pointer's text was redacted: `a~1x:[@@~1https:…` lost `a~1x:[@@` (user info to a URL
    // reader), so the pointer named `/https://…` while the message named `a//https://…`
    writeFileSync(
      join(dir, "log.ndjson"),
      '{"model":"modelA","endpoint":"text-to-video","input":{"prompt":"x","a/x:[@@/https://h.example/v?sig=SECRET":1}}\n',
    );
    const report = JSON.parse(lint("json").stdout) as {
      results: { diagnostics: { pointer: string; message: string }[] }[];
    };
    expect(validateReport(report) ? [] : validateReport.errors).toEqual([]);
    const [finding] = report.results[0]!.diagnostics;
    expect(finding!.pointer).toBe("/input/a~1~1https:~1~1h.example~1v");
    expect(finding!.message).toMatch(/^\["a\/\/https:\/\/h\.example\/v"\]: is not a field/);
  });

  it("quotes a flag's value redacted, then quoted", () => {
    const run = spawnSync(process.execPath, [VSK, "lint", "-", "--format", 'https://h.example/?sig=1"x'], {
      cwd: dir,
      encoding: "utf8",
      stdio: ["pipe", "pipe", "pipe"],
      input: "{}",
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('not "https://h.example/\\"x" (see `vsk lint --help`)');
    expect(run.stderr).not.toContain("sig=1");
  });
});
