/**
 * `vsk lint --format json` writes results by hand, remembering a diagnostic's text by its
 * message: the output must be what JSON.stringify gives, whatever repeats and whatever differs.
 */
import { readFileSync } from "node:fs";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { jsonReporter, Sink, type LintResult } from "../../src/lint/index.js";

const lintReportSchema = JSON.parse(
  readFileSync(new URL("../../schemas/lint-report.schema.json", import.meta.url), "utf8"),
) as { $id: string };

async function written(results: LintResult[]): Promise<string> {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on("data", (c: Buffer) => chunks.push(c));
  const reporter = jsonReporter(new Sink(stream));
  for (const r of results) await reporter.result(r);
  await reporter.end({ requests: results.length, valid: 0, invalid: results.length, warnings: 0 });
  return Buffer.concat(chunks).toString("utf8");
}

const expected = Object.freeze({ kind: "maximum", comparison: "<=", limit: 20 });
const d = (
  pointer: string,
  received: unknown,
  exp: object = expected,
  message = "duration: 25 is above the maximum 20",
) => ({
  severity: "error" as const,
  pointer,
  rule: "schema/maximum",
  code: "invalid_input" as const,
  reason: "input_validation_failed" as const,
  retryable: false as const,
  message,
  expected: exp,
  received,
});
const result = (line: number, diagnostics: ReturnType<typeof d>[]): LintResult =>
  ({
    source: "a\u2028b.ndjson",
    line,
    model: "m/x",
    endpoint: null,
    valid: false,
    diagnostics,
  }) as unknown as LintResult;

describe("the json reporter", () => {
  it("writes what JSON.stringify writes, when a message repeats with another pointer, value or expectation", async () => {
    const results = [
      result(1, [d("/duration", 25)]),
      result(2, [d("/duration", 25)]), // the same again
      result(3, [d("/input/duration", 25)]), // another pointer
      result(4, [d("/duration", 26)]), // another received value, same message text
      result(5, [d("/duration", 25, { ...expected })]), // an equal but other expectation object
      result(6, [d("/duration", 25), d("/x\u202e", "\u2029", expected, "x: \u202e")]),
    ];
    const text = await written(results);
    const parsed = JSON.parse(text) as { $schema: string; schemaVersion: number; results: unknown[] };
    // what the report is, first (issue 30.8): the $id of schemas/lint-report.schema.json and its version
    expect(Object.keys(parsed).slice(0, 2)).toEqual(["$schema", "schemaVersion"]);
    expect(parsed.$schema).toBe(lintReportSchema.$id);
    expect(parsed.schemaVersion).toBe(1);
    expect(parsed.results).toEqual(JSON.parse(JSON.stringify(results)));
    // the same bytes as JSON.stringify, with what it leaves raw escaped (U+2028, U+2029, bidi controls)
    const lines = text
      .split("\n")
      .slice(1, -3)
      .map((l) => l.replace(/,$/, ""));
    expect(lines).toEqual(
      results.map((r) =>
        JSON.stringify(r).replace(/[\u2028\u2029\u202e]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`),
      ),
    );
  });
});

describe("an empty json report", () => {
  it("still says what it is: $schema and schemaVersion, no results", async () => {
    const report = JSON.parse(await written([])) as Record<string, unknown>;
    expect(report).toEqual({
      $schema: lintReportSchema.$id,
      schemaVersion: 1,
      results: [],
      summary: { requests: 0, valid: 0, invalid: 0, warnings: 0 },
    });
  });
});
