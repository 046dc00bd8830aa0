/**
 * `vsk drift` end to end on a `dependentRequired` / `dependentSchemas` narrowed for a trigger the
 * snapshot already had (issue 29.2): the example holds the trigger and its old dependents and
 * leaves the new one out, and `--requests` explains the payloads it rejects now.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ctx, edit, report, serve, useDriftWorkspace, vsk } from "./harness.js";

describe("vsk drift: a dependency rewritten for an existing trigger", () => {
  useDriftWorkspace();

  /** model-a's input with `options`: a seed (at least 1) that needs its other properties, as `dependencies` says. */
  const withOptions = (dependencies: Record<string, unknown>): string =>
    edit("example/model-a", (d) => {
      d.components.schemas.TextToVideoInput.properties.options = {
        type: "object",
        properties: {
          seed: { type: "integer", minimum: 1 },
          seed_mode: { enum: ["fixed", "random"] },
          seed_salt: { type: "string" },
        },
        ...dependencies,
      };
    });

  const traffic = (...options: unknown[]): void =>
    writeFileSync(
      join(ctx.dir, "traffic.ndjson"),
      options
        .map((o) =>
          JSON.stringify({ model: "modelA", endpoint: "text-to-video", input: { prompt: "a cat", options: o } }),
        )
        .join("\n") + "\n",
    );

  it.each([
    [
      "dependentRequired gains a name",
      { dependentRequired: { seed: ["seed_mode"] } },
      { dependentRequired: { seed: ["seed_mode", "seed_salt"] } },
      "request-property-dependent-required-set",
      "/options",
    ],
    [
      "dependentSchemas requires one more",
      { dependentSchemas: { seed: { required: ["seed_mode"] } } },
      { dependentSchemas: { seed: { required: ["seed_mode", "seed_salt"] } } },
      "new-required-request-property",
      "/options/seed_salt",
    ],
  ])(
    "%s: breaking, with an example the snapshot accepts and the source rejects",
    async (_name, before, after, id, field) => {
      // the snapshot gets the first form (--update), the source the second
      serve("example/model-a", withOptions(before));
      expect((await vsk(["--update"], ctx.dir)).code).toBe(0);
      serve("example/model-a", withOptions(after));
      traffic(
        { seed: 7, seed_mode: "fixed" },
        { seed_mode: "random" },
        { seed: 7, seed_mode: "fixed", seed_salt: "s" },
      );
      const run = await vsk(["--requests", "traffic.ndjson", "--format", "json"], ctx.dir);
      expect(run.code, run.stderr).toBe(1);
      const r = report(run);
      const change = r.changes.find((c: any) => c.id === id);
      expect(change).toMatchObject({ severity: "breaking", direction: "request", field });
      // the trigger sampled from its schema (1, its minimum), the old dependent filled, the new one left out
      expect(change.example).toEqual({ prompt: "…", options: { seed: 1, seed_mode: "fixed" } });
      // only the payload with the trigger and without the new dependent is rejected now
      expect(r.requests).toMatchObject({ checked: 3, rejectedNow: 1, invalidBefore: 0 });
      expect(r.requests.groups.map((g: any) => [g.change?.id, g.requests.map((q: any) => q.line)])).toEqual([
        [id, [1]],
      ]);
    },
  );
});
