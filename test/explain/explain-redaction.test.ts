/**
 * Issue 23.2/23.3 for `vsk explain`: the values of the input (a code, a message, a request id)
 * are redacted as data before either format serializes them, never the finished output. With
 * arbitrary text around URLs whose query string carries a secret, `--format json` always parses
 * and no query string survives; text that is not a URL is printed as it is.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "../..");
const bin = join(root, "bin/vsk.mjs");

function vsk(args: string[], stdin: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  if (!existsSync(join(root, "dist/cli/vsk.js"))) throw new Error("run `npm run build` first (npm test does)");
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [bin, "explain", ...args], { cwd: root, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", fail);
    child.on("close", (code) => done({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

/** A failed prediction whose every free-text field holds `text`. */
const failed = (text: string): string =>
  JSON.stringify({
    request_id: text,
    status: "failed",
    error: { code: text, reason: text, retryable: false, message: text, timestamp: text },
  });

describe("vsk explain: input values are redacted as data (issue 23.2)", () => {
  it.each([
    ["a URL with a query string before a quote", 'see https://h.example/a?b=c" then'],
    ["a URL with a query string before a backslash", "https://h.example/a?sig=SECRET\\"],
  ])("--format json parses and keeps no query string: %s", async (_name, text) => {
    for (const as of ["auto", "webhook", "queue"]) {
      const run = await vsk(["-", "--format", "json", "--as", as], failed(text));
      expect(run.code).toBe(0);
      const parsed = JSON.parse(run.stdout) as Record<string, unknown>;
      expect(parsed.failed).toBe(true);
      expect(run.stdout).not.toMatch(/SECRET|\?b=c/);
    }
  });

  it("text that is not a URL keeps its # (issue 23.3)", async () => {
    const run = await vsk(["-", "--format", "json"], failed("octo-org/octo-repo#2 ## Forged"));
    expect(run.stdout).toContain("octo-org/octo-repo#2 ## Forged");
    const text = await vsk(["-"], failed("octo-org/octo-repo#2 ## Forged"));
    expect(text.stdout).toContain("octo-org/octo-repo#2 ## Forged");
  });

  it("property: arbitrary text around signed URLs in every field, --format json parses, no query string survives", async () => {
    const url = fc.constantFrom(
      "https://h.example/a",
      "//h.example/v.mp4",
      "bucket.example/k.png",
      "HTTP://U:P@H.EXAMPLE/x",
    );
    const glue = fc.string({
      maxLength: 12,
      unit: fc.constantFrom(..."\"\\'`<>?#&=;:/ \n\u2028\u001b\u202eaZ0.@%|[]()".split("")),
    });
    const text = fc
      .tuple(glue, url, fc.constantFrom("?", "#", "?x&"), glue)
      .map(([before, base, mark, after]) => `${before} ${base}${mark}sig=SECRET${after}`);
    await fc.assert(
      fc.asyncProperty(text, fc.constantFrom("json", "text"), async (value, format) => {
        const run = await vsk(["-", "--format", format], failed(value));
        expect(run.code).toBe(0);
        if (format === "json") expect((JSON.parse(run.stdout) as { failed: boolean }).failed).toBe(true);
        expect(run.stdout).not.toContain("SECRET");
      }),
      { numRuns: 8, endOnFailure: true },
    );
  }, 120_000);
});
