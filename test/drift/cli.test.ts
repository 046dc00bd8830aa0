/**
 * `vsk drift` end to end against a live HTTP source on 127.0.0.1: unchanged, changed, missing
 * and broken models, the exit codes, and the text / markdown / github / json outputs
 * (json validated against schemas/drift-report.schema.json).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ctx, edit, report, serve, serveChanged, snapshotText, useDriftWorkspace, vsk } from "./harness.js";

useDriftWorkspace();

describe("vsk drift against a live HTTP source", () => {
  it("an unchanged source reports nothing and exits 0", async () => {
    const [json, text] = await Promise.all([vsk(["--format", "json"], ctx.dir), vsk([], ctx.dir)]);
    expect(json.code).toBe(0);
    const r = report(json);
    expect(r.models.map((m: any) => m.status)).toEqual(["unchanged", "unchanged", "unchanged"]);
    expect(r.changes).toEqual([]);
    expect(r.source).toBe(ctx.server.origin + "/");
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/no drift: 3 models unchanged/);
  });

  it("classifies changed schemas, with pointers and an example, and exits 1 on breaking", async () => {
    serveChanged();
    const run = await vsk(["--format", "json"], ctx.dir);
    expect(run.code).toBe(1);
    const r = report(run);
    expect(r.models.map((m: any) => m.status)).toEqual(["changed", "unchanged", "changed"]);
    expect(r.changes.map((c: any) => [c.model, c.endpoint, c.id, c.severity])).toEqual([
      ["example/model-a", "text-to-video", "request-property-enum-value-removed", "breaking"],
      ["example/model-a", "text-to-video", "request-property-default-value-changed", "behavior"],
      ["example/model-c", "text-to-video", "request-property-max-decreased", "breaking"],
    ]);
    expect(r.changes[0]).toMatchObject({
      direction: "request",
      field: "/aspect_ratio",
      pointer: { before: "/properties/aspect_ratio/enum/2", after: "/properties/aspect_ratio/enum" },
      example: { prompt: "…", aspect_ratio: "2:1" },
    });
    expect(r.changes[2].example).toEqual({ prompt: "…", duration: 15 });
    expect(r.summary).toMatchObject({ breaking: 2, behavior: 1, failOn: "breaking", exitCode: 1 });
  });

  it("--fail-on decides the exit code", async () => {
    serve(
      "example/model-a",
      edit("example/model-a", (d) => (d.components.schemas.TextToVideoInput.properties.resolution.default = "1080p")),
    );
    const runs = await Promise.all(
      ["breaking", "behavior", "any", "never"].map((f) => vsk(["--fail-on", f, "--format", "json"], ctx.dir)),
    );
    expect(runs.map((r) => r.code)).toEqual([0, 1, 1, 0]);
    expect(report(runs[1]!).changes.map((c: any) => c.id)).toEqual(["request-property-default-value-changed"]);
  });

  it.each([
    ["404", 404, "application/json", JSON.stringify({ error: "not found" }), "missing"],
    [
      "a plain-text body (CDN edge)",
      200,
      "text/plain",
      "upstream connect error or disconnect/reset before headers",
      "error",
    ],
    ["a JSON body that is not a model", 200, "application/json", JSON.stringify({ hello: "world" }), "error"],
  ])("a source answering %s exits 3, never 'no drift'", async (_name, status, type, body, want) => {
    serve("example/model-b", body, status, type);
    const run = await vsk(["--format", "json"], ctx.dir);
    expect(run.code).toBe(3);
    const r = report(run);
    expect(r.models[1]).toMatchObject({ model: "example/model-b", status: want, sha256: { source: null } });
    expect(r.models[1].message).toContain("example/model-b");
    const text = await vsk([], ctx.dir);
    expect(text.code).toBe(3);
    expect(text.stdout).toMatch(/could not be compared/);
  });

  it("text groups model → endpoint → direction, breaking first, one line each with the pointer", async () => {
    serveChanged();
    const run = await vsk([], ctx.dir);
    expect(run.code).toBe(1);
    const lines = run.stdout.split("\n");
    const at = lines.indexOf("example/model-a › text-to-video › request");
    expect(at).toBeGreaterThan(0);
    expect(lines[at + 1]).toMatch(
      /^ {2}breaking +aspect_ratio: "2:1" is no longer accepted +\[request-property-enum-value-removed at \/properties\/aspect_ratio\/enum\/2 → \/properties\/aspect_ratio\/enum\]$/,
    );
    expect(lines[at + 2]).toMatch(/e\.g\. \{"prompt":"…","aspect_ratio":"2:1"\}/);
    expect(lines[at + 3]).toMatch(/^ {2}behavior +resolution: default changed/);
  });

  it("markdown is one PR comment; github prints annotations and appends the summary", async () => {
    serveChanged();
    const summary = join(ctx.dir, "step-summary.md");
    const [md, gh] = await Promise.all([
      vsk(["--format", "markdown"], ctx.dir),
      vsk(["--format", "github"], ctx.dir, { GITHUB_STEP_SUMMARY: summary }),
    ]);
    expect(md.code).toBe(1);
    expect(md.stdout).toMatch(/^## Schema drift\n/);
    expect(md.stdout).toContain("| `example/model-a` | changed | 1 | 1 | 0 | 0 | 0 | 0 |");
    expect(md.stdout).toContain(
      "<details open><summary><code>example/model-a</code>: 1 breaking, 1 behavior</summary>",
    );
    expect(gh.code).toBe(1);
    expect(gh.stdout).toMatch(
      /^::error file=schemas-cache\/example\/model-a\/latest\.json,title=Schema drift \(breaking\)%3A example\/model-a text-to-video request::aspect_ratio: "2:1" is no longer accepted%0A/m,
    );
    expect(gh.stdout).toMatch(/^::warning file=.*::resolution: default changed/m);
    expect(readFileSync(summary, "utf8")).toBe(md.stdout);
  });
});
