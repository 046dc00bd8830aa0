/** `vsk drift` end to end: the accept file, --update, --requests and usage errors (see harness.ts). */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ctx, edit, report, serve, serveChanged, snapshotText, useDriftWorkspace, vsk } from "./harness.js";

useDriftWorkspace();

describe("vsk drift workflows: accept file, --update, --requests, usage", () => {
  it("the accept file silences a known change; an expired entry warns and fails again", async () => {
    serveChanged();
    const accept = (expires: string): void =>
      writeFileSync(
        join(ctx.dir, ".vsk-drift-accept.json"),
        JSON.stringify({
          accept: [
            {
              model: "example/model-a",
              id: "request-property-enum-value-removed",
              pointer: "/properties/aspect_ratio/enum/2",
              reason: "we never send 2:1",
              expires,
            },
            {
              model: "example/model-c",
              id: "request-property-max-decreased",
              pointer: "/properties/duration/maximum",
              reason: "we cap at 10 s",
            },
          ],
        }),
      );
    accept("2999-12-31");
    const ok = await vsk(["--format", "json"], ctx.dir);
    expect(ok.code).toBe(0);
    const r = report(ok);
    expect(r.changes.map((c: any) => c.id)).toEqual(["request-property-default-value-changed"]);
    expect(r.accepted.map((c: any) => [c.id, c.accepted.reason])).toEqual([
      ["request-property-enum-value-removed", "we never send 2:1"],
      ["request-property-max-decreased", "we cap at 10 s"],
    ]);
    accept("2000-01-01");
    const expired = await vsk(["--format", "json"], ctx.dir);
    expect(expired.code).toBe(1);
    expect(report(expired).warnings).toEqual([expect.stringContaining("expired on 2000-01-01")]);
    writeFileSync(join(ctx.dir, ".vsk-drift-accept.json"), "{ not json");
    expect((await vsk([], ctx.dir)).code).toBe(2);
  });

  it("--update accepts the source as the snapshot; a failure writes nothing", async () => {
    serveChanged();
    const before = readFileSync(join(ctx.dir, "schemas-cache/example/model-a/latest.json"));
    serve("example/model-b", "not json", 200, "text/plain");
    const failed = await vsk(["--update"], ctx.dir);
    expect(failed.code).toBe(3);
    expect(readFileSync(join(ctx.dir, "schemas-cache/example/model-a/latest.json")).equals(before)).toBe(true);

    serve("example/model-b", snapshotText("example/model-b"));
    const updated = await vsk(["--update", "--format", "json"], ctx.dir);
    expect(updated.code).toBe(0);
    // model-b: same bytes, but the manifest records the new source (as `vsk pull` does)
    expect(report(updated).summary.updated).toEqual(["example/model-a", "example/model-b", "example/model-c"]);
    const manifest = JSON.parse(readFileSync(join(ctx.dir, "schemas-cache/manifest.json"), "utf8"));
    expect(manifest.models["example/model-a"].source).toBe(`${ctx.server.origin}/main/example/model-a/latest.json`);
    const again = await vsk(["--format", "json"], ctx.dir);
    expect(again.code).toBe(0);
    expect(report(again).models.map((m: any) => m.status)).toEqual(["unchanged", "unchanged", "unchanged"]);
  });

  it("--update says it accepted the drift; a corrupt manifest is one line, exit 2, nothing written", async () => {
    serveChanged();
    const text = await vsk(["--update"], ctx.dir);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/accepted with --update, the snapshot now matches the source/);
    expect(text.stdout).not.toMatch(/nothing at or above --fail-on/);

    serveChanged();
    writeFileSync(join(ctx.dir, "schemas-cache/manifest.json"), "{ broken");
    const before = readFileSync(join(ctx.dir, "schemas-cache/example/model-a/latest.json"));
    const corrupt = await vsk(["--update"], ctx.dir);
    expect(corrupt.code).toBe(2);
    expect(corrupt.stderr).toMatch(/^vsk: drift --update: .*manifest\.json/m);
    expect(corrupt.stderr).not.toMatch(/\n\s+at /);
    expect(readFileSync(join(ctx.dir, "schemas-cache/example/model-a/latest.json")).equals(before)).toBe(true);
  });

  it("--requests: valid before and rejected now, grouped by the change that rejects them", async () => {
    serveChanged();
    const lines = [
      { model: "modelA", endpoint: "text-to-video", input: { prompt: "a cat", aspect_ratio: "2:1" } },
      { model: "example/model-a", endpoint: "text-to-video", input: { prompt: "a dog", aspect_ratio: "16:9" } },
      { model: "example/model-a", endpoint: "text-to-video", input: { aspect_ratio: "16:9" } },
      { model: "example/model-c", endpoint: "text-to-video", input: { prompt: "rain", duration: 14 } },
    ];
    writeFileSync(join(ctx.dir, "traffic.ndjson"), lines.map((l) => JSON.stringify(l)).join("\n") + "\n{broken\n");
    writeFileSync(join(ctx.dir, "one.json"), JSON.stringify({ prompt: "x", aspect_ratio: "2:1" }));
    const run = await vsk(
      [
        "--requests",
        "traffic.ndjson",
        "one.json",
        "--model",
        "modelA",
        "--endpoint",
        "text-to-video",
        "--format",
        "json",
        "--fail-on",
        "never",
      ],
      ctx.dir,
    );
    expect(run.code).toBe(0);
    const r = report(run).requests;
    expect(r).toMatchObject({ checked: 6, rejectedNow: 3, invalidBefore: 1 });
    expect(r.skipped).toEqual([expect.objectContaining({ source: "traffic.ndjson", line: 5 })]);
    expect(
      r.groups.map((g: any) => [g.change?.id, g.requests.map((q: any) => `${q.source}:${q.line} ${q.pointer}`)]),
    ).toEqual([
      ["request-property-enum-value-removed", ["traffic.ndjson:1 /input/aspect_ratio", "one.json:1 /aspect_ratio"]],
      ["request-property-max-decreased", ["traffic.ndjson:4 /input/duration"]],
    ]);
    const gate = await vsk(
      ["--requests", "one.json", "--model", "modelA", "--endpoint", "text-to-video", "--fail-on", "behavior"],
      ctx.dir,
    );
    expect(gate.code).toBe(1);
    expect(gate.stdout).toMatch(/requests: 1 checked, 1 valid before and rejected now/);
  });

  it.each([
    [["--format", "xml"]],
    [["--fail-on", "sometimes"]],
    [["--bogus"]],
    [["--model", "modelA"]],
    [["--schema-url", "ftp://example.invalid/x"]],
  ])("usage errors exit 2: %j", async (args) => {
    const run = await vsk(args, ctx.dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^vsk: /);
  });
});
