/**
 * `vsk drift` end to end on endpoint changes (see harness.ts): a success status, media type or
 * method changed is breaking drift (exit 1), never a model error (exit 3), and a model with no
 * queue-shaped endpoint left is reported as such.
 */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ctx, edit, report, serve, snapshotText, useDriftWorkspace, vsk } from "./harness.js";

useDriftWorkspace();

describe("vsk drift: endpoint changes", () => {
  it("status 200 → 201 on model A, multipart on model C, PUT for model B's only endpoint: exit 1, not 3", async () => {
    serve(
      "example/model-a",
      edit("example/model-a", (d) => {
        const r = d.paths["/example/model-a/text-to-video"].post.responses;
        r["201"] = r["200"];
        delete r["200"];
      }),
    );
    serve(
      "example/model-b",
      edit("example/model-b", (d) => {
        const item = Object.values(d.paths)[0] as Record<string, unknown>;
        item.put = item.post;
        delete item.post;
      }),
    );
    serve(
      "example/model-c",
      edit("example/model-c", (d) => {
        const c = (Object.values(d.paths)[0] as any).post.requestBody.content;
        c["multipart/form-data"] = c["application/json"];
        delete c["application/json"];
      }),
    );
    const run = await vsk(["--format", "json"], ctx.dir);
    expect(run.code).toBe(1);
    const r = report(run);
    expect(r.changes.map((c: any) => [c.model, c.endpoint, c.direction, c.id, c.severity])).toEqual([
      ["example/model-a", "text-to-video", "endpoint", "endpoint-response-status-changed", "breaking"],
      ["example/model-b", "reference-to-video", "endpoint", "endpoint-method-changed", "breaking"],
      ["example/model-c", "text-to-video", "endpoint", "endpoint-request-media-type-changed", "breaking"],
    ]);
    expect(r.changes[0].text).toBe(
      'POST /v1/queue/example/model-a/text-to-video: success status changed from "200" to "201": clients that expect "200" will treat it as a failure',
    );
    const b = r.models.find((m: any) => m.model === "example/model-b");
    expect(b.status).toBe("changed");
    expect(b.message).toMatch(/^the source has no queue-shaped endpoint left/);
    const text = await vsk([], ctx.dir);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain("example/model-b  changed: the source has no queue-shaped endpoint left");
  });

  it("--update writes nothing when a model has no queue-shaped endpoint left at the source", async () => {
    serve(
      "example/model-b",
      edit("example/model-b", (d) => {
        const item = Object.values(d.paths)[0] as Record<string, unknown>;
        item.put = item.post;
        delete item.post;
      }),
    );
    const run = await vsk(["--update"], ctx.dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /drift --update: nothing written; .* example\/model-b has no queue-shaped endpoint at the source/,
    );
    expect(readFileSync(join(ctx.dir, "schemas-cache/example/model-b/latest.json"), "utf8")).toBe(
      snapshotText("example/model-b"),
    );
  });
});
