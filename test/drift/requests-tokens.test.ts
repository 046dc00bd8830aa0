/**
 * `vsk drift --requests` sees changes at the differ's wildcard fields (issue 29, item 4): a
 * change below `additionalProperties` (`extras.{unlisted}`) explains the payloads it rejects.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ctx, edit, report, serve, useDriftWorkspace, vsk } from "./harness.js";

describe("vsk drift --requests: changes at {unlisted}", () => {
  useDriftWorkspace();

  const withExtras = (unlisted: unknown): string =>
    edit("example/model-a", (d) => {
      d.components.schemas.TextToVideoInput.properties.extras = { type: "object", additionalProperties: unlisted };
    });

  it("a bound lowered on the properties an object does not list groups the payloads it rejects", async () => {
    // the snapshot gets an open map of integers (--update), the source lowers their maximum
    serve("example/model-a", withExtras({ type: "integer" }));
    expect((await vsk(["--update"], ctx.dir)).code).toBe(0);
    serve("example/model-a", withExtras({ type: "integer", maximum: 5 }));
    writeFileSync(
      join(ctx.dir, "traffic.ndjson"),
      [
        { prompt: "a cat", extras: { steps: 9 } },
        { prompt: "a dog", extras: { steps: 2 } },
      ]
        .map((input) => JSON.stringify({ model: "modelA", endpoint: "text-to-video", input }))
        .join("\n") + "\n",
    );
    const run = await vsk(["--requests", "traffic.ndjson", "--format", "json", "--fail-on", "never"], ctx.dir);
    expect(run.code, run.stderr).toBe(0);
    const r = report(run).requests;
    expect(r).toMatchObject({ checked: 2, rejectedNow: 1, invalidBefore: 0 });
    expect(r.groups.map((g: any) => [g.change?.id, g.requests.map((q: any) => `${q.line} ${q.pointer}`)])).toEqual([
      ["request-property-max-set", ["1 /input/extras/steps"]],
    ]);
  });
});
