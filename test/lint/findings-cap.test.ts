/**
 * Issue 38.2 and 38.3: findings are capped per payload. Through the CLI, `--max-findings-per-request`
 * keeps the first N and one `more-findings` with the exact count (json: `findings` totals; the
 * summary counts every one); the generated `~standard.validate` gives at most 100 issues and one
 * that counts the rest, on a body of 100 000 non-object keyframes.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, vsk } from "../cli/run.js";

let dir: string;
beforeAll(() => (dir = mkdtempSync(join(tmpdir(), "vsk-cap-"))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("findings per request", () => {
  it("lint keeps the first N and one more-findings with the exact count", () => {
    const input = { prompt: "p", keyframes: Array(300).fill(1) };
    writeFileSync(
      join(dir, "bad.ndjson"),
      JSON.stringify({ model: "modelA", endpoint: "keyframes-to-video", input }) + "\n",
    );
    const run = vsk(["lint", "bad.ndjson", "--format", "json", "--max-findings-per-request", "5"], dir);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    const [result] = report.results;
    expect(result.diagnostics).toHaveLength(6);
    expect(result.diagnostics[5]).toMatchObject({
      rule: "more-findings",
      severity: "error",
      message: "… and 295 more findings (295 errors), not shown: only the first 5 findings of a request are kept",
    });
    expect(result.findings).toEqual({ total: 300, errors: 300, warnings: 0 });
    expect(report.summary).toMatchObject({ requests: 1, invalid: 1 });
  });

  it("~standard.validate gives at most 100 issues and one counting the rest", async () => {
    const { modelAKeyframesToVideoStandardSchema: schema } = await import(
      join(ROOT, "dist/generated/example/model-a/keyframes-to-video.mjs")
    );
    const result = schema["~standard"].validate({ prompt: "p", keyframes: Array(100_000).fill(1) });
    expect(result.issues).toHaveLength(101);
    expect(result.issues[100].message).toBe(
      "… and 99900 more findings (99900 errors), not shown: only the first 100 findings of a request are kept",
    );
    // a valid body with many unknown fields: no issue (warnings are not issues)
    const wide: Record<string, unknown> = { prompt: "p", keyframes: [] };
    for (let i = 0; i < 50_000; i++) wide[`f${i}`] = i;
    expect(schema["~standard"].validate(wide)).toEqual({ value: wide });
  });
});
