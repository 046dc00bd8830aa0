/**
 * `vsk drift` end to end when the inputs are hostile or broken: bounds too large to build an
 * example from, a step summary that cannot be written, stdin as `vsk lint` reads it, request
 * files that cannot be read, request schemas Ajv cannot compile. Never a stack trace (exit 70).
 */
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ctx, edit, report, serve, serveChanged, useDriftWorkspace, vsk } from "./harness.js";

useDriftWorkspace();

const setPrompt = (change: (prompt: Record<string, unknown>) => void) =>
  edit("example/model-a", (d) => change(d.components.schemas.TextToVideoInput.properties.prompt));
const snapshotOf = (model: string): string => join(ctx.dir, "schemas-cache", model, "latest.json");
const bare = ["--model", "modelA", "--endpoint", "text-to-video"];

describe("vsk drift never crashes on its inputs", () => {
  it("a snapshot maxLength of 2147483647 lowered to 1000: reported without an example, exit 1", async () => {
    writeFileSync(
      snapshotOf("example/model-a"),
      setPrompt((p) => (p.maxLength = 2147483647)),
    );
    serve(
      "example/model-a",
      setPrompt((p) => (p.maxLength = 1000)),
    );
    const run = await vsk(["--format", "json"], ctx.dir);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(1);
    const changes = report(run).changes;
    expect(changes.map((c: any) => [c.id, c.field, c.pointer.before])).toEqual([
      ["request-property-max-length-decreased", "/prompt", "/properties/prompt/maxLength"],
    ]);
    expect(changes[0].example).toBeUndefined();
  });

  it("a GITHUB_STEP_SUMMARY that cannot be appended to: one line on stderr, the exit code kept", async () => {
    serveChanged();
    const run = await vsk(["--format", "github"], ctx.dir, { GITHUB_STEP_SUMMARY: ctx.dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe("vsk: could not append to GITHUB_STEP_SUMMARY (EISDIR)\n");
    expect(run.stdout).toMatch(/^::error file=/m);
  });
});

describe("--requests reads as vsk lint does", () => {
  const pretty = JSON.stringify({ prompt: "a cat", aspect_ratio: "2:1" }, null, 2);

  it("stdin (-) holds one JSON value, over several lines", async () => {
    serveChanged();
    const run = await vsk(["--requests", "-", ...bare, "--format", "json"], ctx.dir, {}, { text: pretty });
    expect(run.code).toBe(1);
    const r = report(run).requests;
    expect(r).toMatchObject({ checked: 1, rejectedNow: 1, invalidBefore: 0, skipped: [] });
    expect(r.groups.map((g: any) => [g.change.id, g.requests.map((q: any) => `${q.source}:${q.line}`)])).toEqual([
      ["request-property-enum-value-removed", ["<stdin>:1"]],
    ]);
  });

  it("--ndjson reads stdin one payload per line", async () => {
    serveChanged();
    const lines = [{ prompt: "a cat", aspect_ratio: "2:1" }, { prompt: "a dog" }].map((l) => JSON.stringify(l));
    const run = await vsk(
      ["--requests", "-", "--ndjson", ...bare, "--format", "json"],
      ctx.dir,
      {},
      { text: lines.join("\n") + "\n" },
    );
    expect(run.code).toBe(1);
    expect(report(run).requests).toMatchObject({ checked: 2, rejectedNow: 1, skipped: [] });
  });

  it("without --ndjson, several lines on stdin are one bad payload, with lint's hint", async () => {
    const run = await vsk(
      ["--requests", "-", ...bare, "--format", "json"],
      ctx.dir,
      {},
      { text: '{"a":1}\n{"b":2}\n' },
    );
    expect(run.code).toBe(0);
    const r = report(run).requests;
    expect(r.checked).toBe(1);
    expect(r.skipped).toEqual([{ source: "<stdin>", line: 2, message: expect.stringContaining("pass --ndjson") }]);
  });

  it.runIf(process.platform === "linux")("a file that fails while it is read: one line, exit 2", async () => {
    const run = await vsk(["--requests", "/proc/self/mem", ...bare], ctx.dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("vsk: drift: /proc/self/mem: cannot be read (EIO)\n");
  });

  it.skipIf(process.getuid?.() === 0)("a file that may not be read: one line, exit 2", async () => {
    writeFileSync(join(ctx.dir, "secret.json"), "{}");
    chmodSync(join(ctx.dir, "secret.json"), 0o000);
    const run = await vsk(["--requests", "secret.json", ...bare], ctx.dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("vsk: drift: secret.json: cannot be read (EACCES)\n");
  });

  it("a request schema Ajv cannot compile is an error of its model (exit 3), not a crash", async () => {
    serve(
      "example/model-a",
      setPrompt((p) => (p.pattern = "(")),
    );
    writeFileSync(join(ctx.dir, "one.json"), JSON.stringify({ prompt: "x" }));
    const run = await vsk(["--requests", "one.json", ...bare, "--format", "json"], ctx.dir);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(3);
    const r = report(run);
    expect(r.models[0]).toMatchObject({ model: "example/model-a", status: "error" });
    expect(r.models[0].message).toMatch(
      /^example\/model-a: the source's request schema of text-to-video cannot be compiled: Invalid regular expression/,
    );
    expect(r.models.slice(1).map((m: any) => m.status)).toEqual(["unchanged", "unchanged"]);
    expect(r.requests.skipped).toEqual([
      { source: "one.json", line: 1, message: expect.stringContaining("cannot be compiled") },
    ]);
    // the change itself is still reported
    expect(r.changes.map((c: any) => c.id)).toEqual(["request-property-pattern-set"]);
  });

  it("--model of a two-endpoint model without --endpoint is a usage error, as in vsk lint (exit 2)", async () => {
    serveChanged();
    writeFileSync(join(ctx.dir, "one.json"), JSON.stringify({ prompt: "x" }));
    const run = await vsk(["--requests", "one.json", "--model", "modelA"], ctx.dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "vsk: drift: example/model-a has 2 endpoints (keyframes-to-video, text-to-video); add --endpoint NAME to say which one the payloads are for (see `vsk drift --help`)\n",
    );
  });

  it("an envelope whose endpoint is unknown is skipped with vsk lint's words", async () => {
    serveChanged();
    writeFileSync(
      join(ctx.dir, "env.json"),
      JSON.stringify({ model: "modelA", endpoint: "nope", input: { prompt: "x" } }),
    );
    const run = await vsk(["--requests", "env.json", "--format", "json", "--fail-on", "never"], ctx.dir);
    expect(run.code).toBe(0);
    expect(report(run).requests.skipped).toEqual([
      {
        source: "env.json",
        line: 1,
        message: expect.stringMatching(
          /^endpoint: "nope" is not an endpoint of example\/model-a; known: example\/model-a/,
        ),
      },
    ]);
  });

  // ^(x+)+z$ backtracks exponentially on a string of x's: run on the example's 60 of them, it would never end
  const HOSTILE = "^(x+)+z$";
  const NOT_RUN = `the snapshot's request schema has a pattern that can take super-linear time, ${JSON.stringify(HOSTILE)} at /properties/prompt/pattern (a repeated group holds an unbounded repetition (nested quantifiers)), and drift does not run it`;

  it("a super-linear pattern is never run: the change is reported with why it has no example, in every format", async () => {
    writeFileSync(
      snapshotOf("example/model-a"),
      setPrompt((p) => Object.assign(p, { maxLength: 60, pattern: HOSTILE })),
    );
    serve(
      "example/model-a",
      setPrompt((p) => Object.assign(p, { maxLength: 10, pattern: HOSTILE })),
    );
    const run = await vsk(["--format", "json"], ctx.dir);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(1);
    const changes = report(run).changes;
    expect(changes.map((c: any) => [c.id, c.field, c.example, c.noExample])).toEqual([
      ["request-property-max-length-decreased", "/prompt", undefined, `no example: ${NOT_RUN}`],
    ]);
    const text = await vsk([], ctx.dir);
    // under the change's line, where an example would be
    expect(text.stdout).toContain(
      `[request-property-max-length-decreased at /properties/prompt/maxLength]\n${" ".repeat(12)}no example: ${NOT_RUN}\n`,
    );
    const markdown = await vsk(["--format", "markdown"], ctx.dir);
    expect(markdown.stdout).toContain("no example: the snapshot's request schema has a pattern");
    const github = await vsk(["--format", "github"], ctx.dir);
    expect(github.stdout).toContain("%0Ano example: the snapshot's request schema has a pattern");
  });

  it("--requests: a request schema with a super-linear pattern is not run on payloads, an error of its model (exit 3)", async () => {
    serve(
      "example/model-a",
      setPrompt((p) => (p.pattern = HOSTILE)),
    );
    writeFileSync(join(ctx.dir, "one.json"), JSON.stringify({ prompt: "x".repeat(60) }));
    const run = await vsk(["--requests", "one.json", ...bare, "--format", "json"], ctx.dir);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(3);
    const r = report(run);
    expect(r.models[0]).toMatchObject({
      model: "example/model-a",
      status: "error",
      message: `example/model-a: ${NOT_RUN.replace("snapshot's request schema has", "source's request schema of text-to-video has").replace(", and drift does not run it", ": drift does not run it on payloads")}`,
    });
    expect(r.requests.skipped).toEqual([
      { source: "one.json", line: 1, message: expect.stringContaining("super-linear") },
    ]);
    expect(r.changes.map((c: any) => c.id)).toEqual(["request-property-pattern-set"]);
  });

  it.each([[["--ndjson"]], [["--requests", "-", "-", ...bare]]])("usage errors exit 2: %j", async (args) => {
    const run = await vsk(args, ctx.dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^vsk: drift: /);
  });
});
