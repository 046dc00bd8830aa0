/**
 * Issue 23.2/23.3 for `vsk drift`: what the schema text holds (an enum value, a description, a
 * field name) is redacted as a value before any format serializes it, never the finished text.
 * With arbitrary strings around a URL whose query string carries a secret, `--format json`
 * always parses and no query string survives; text that is not a URL is printed as it is.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ctx, edit, report, serve, useDriftWorkspace, vsk } from "./harness.js";

useDriftWorkspace();

/** Source of model-a with each text as a new enum value, a description and a new optional field name. */
function serveWithAll(texts: readonly string[]): void {
  serve(
    "example/model-a",
    edit("example/model-a", (d) => {
      const props = d.components.schemas.TextToVideoInput.properties;
      props.aspect_ratio.description = texts.join(" | ");
      for (const text of texts) {
        props.aspect_ratio.enum.push(text);
        props.resolution.enum = [...(props.resolution.enum ?? []), text];
        props[text] = { type: "string", description: text };
      }
    }),
  );
}
const serveWith = (text: string): void => serveWithAll([text]);

describe("vsk drift: schema text is redacted as data (issue 23.2)", () => {
  it.each([
    ["a URL with a query string before a quote", 'see https://h.example/a?b=c" then'],
    ["a URL with a query string before a backslash", "https://h.example/a?sig=SECRET\\"],
    ["a signed URL without a scheme", "bucket.s3.example/k.png?X-Amz-Signature=SECRET"],
  ])("--format json parses and keeps no query string: %s", async (_name, text) => {
    serveWith(text);
    const run = await vsk(["--format", "json", "--fail-on", "never"], ctx.dir);
    const parsed = report(run);
    expect(run.stdout).not.toMatch(/SECRET|\?b=c|\?sig=|\?X-Amz/);
    // the change is still there, with the URL quoted without its query string
    expect(parsed.changes.length).toBeGreaterThan(0);
  });

  it.each(["text", "markdown", "github"])("--format %s keeps no query string either", async (format) => {
    serveWith('https://h.example/a?sig=SECRET" x');
    const run = await vsk(["--format", format, "--fail-on", "never"], ctx.dir);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain("SECRET");
    expect(run.stdout).toContain("h.example/a");
  });

  it("a field name with user info before a signed URL: every pointer stays a valid JSON Pointer", async () => {
    // found by the property below: the pointer's text was redacted, which cut `1?…@@` out of
    // `~1?…@@~1` and left a lone `~` (report invalid against its schema)
    serveWith('/?\u001b|:[@@/\u202e https://h.example/a#sig=SECRET?.\n"`');
    const run = await vsk(["--format", "json", "--fail-on", "never"], ctx.dir);
    const parsed = report(run);
    expect(run.stdout).not.toContain("SECRET");
    const added = parsed.changes.find((c: { pointer: { after: string | null } }) =>
      c.pointer.after?.includes("h.example"),
    );
    expect(added?.pointer.after).toBe('/properties/~1?\u001b|:[@@~1\u202e https:~1~1h.example~1a.\n"`');
  });

  it("text that is not a URL keeps its # and ? (issue 23.3)", async () => {
    serveWith("octo-org/octo-repo#2");
    const run = await vsk(["--format", "json", "--fail-on", "never"], ctx.dir);
    expect(JSON.stringify(report(run).changes)).toContain("octo-org/octo-repo#2");
  });

  // one run of the CLI per sample, with many arbitrary texts in the schema at once (the CLI is the slow part)
  it("property: arbitrary text around signed URLs in schema text, --format json always parses, no query string survives", async () => {
    const url = fc.constantFrom(
      "https://h.example/a",
      "//h.example/v.mp4",
      "bucket.example/k.png",
      "HTTP://U:P@H.EXAMPLE/x",
      "localhost:8080/p",
    );
    const glue = fc.string({
      maxLength: 12,
      unit: fc.constantFrom(..."\"\\'`<>?#&=;:/ \n\u2028\u001b\u202eaZ0.@%|[]()".split("")),
    });
    const text = fc
      .tuple(glue, url, fc.constantFrom("?", "#", "?x&"), glue)
      .map(([before, base, mark, after]) => `${before} ${base}${mark}sig=SECRET${after}`);
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(text, { minLength: 8, maxLength: 16 }), async (texts) => {
        serveWithAll(texts);
        const run = await vsk(["--format", "json", "--fail-on", "never"], ctx.dir);
        const parsed = report(run);
        expect(parsed.changes.length).toBeGreaterThan(0);
        expect(run.stdout).not.toContain("SECRET");
      }),
      { numRuns: 4, endOnFailure: true, seed: 2311 },
    );
  }, 180_000);
});
