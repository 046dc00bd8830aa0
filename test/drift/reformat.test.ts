/**
 * Issue 24.4: drift compares parsed documents, so a snapshot or a source that is only written
 * differently (`prettier --write .` over schemas-cache/, a minified source, keys in another
 * order) is `unchanged`, never "changed" (see harness.ts).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ctx, report, serve, snapshotText, useDriftWorkspace, vsk } from "./harness.js";

useDriftWorkspace();

/** The same document with every object's keys in reverse order. */
const reversed = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(reversed)
    : value !== null && typeof value === "object"
      ? Object.fromEntries(
          Object.entries(value)
            .reverse()
            .map(([k, v]) => [k, reversed(v)]),
        )
      : value;

describe("vsk drift reads documents, not bytes", () => {
  it("a reformatted snapshot and a minified, reordered source are unchanged, in JSON and text", async () => {
    const snapshot = join(ctx.dir, "schemas-cache/example/model-a/latest.json");
    // as prettier writes it: four-space indent, a trailing newline
    writeFileSync(snapshot, JSON.stringify(JSON.parse(readFileSync(snapshot, "utf8")), null, 4) + "\n");
    serve("example/model-b", JSON.stringify(reversed(JSON.parse(snapshotText("example/model-b")))));
    const json = await vsk(["--format", "json"], ctx.dir);
    expect(json.stderr).toBe("");
    expect(json.code).toBe(0);
    const r = report(json);
    expect(r.models.map((m: any) => [m.model, m.status])).toEqual([
      ["example/model-a", "unchanged"],
      ["example/model-b", "unchanged"],
      ["example/model-c", "unchanged"],
    ]);
    expect(r.changes).toEqual([]);
    // the bytes differ, and the report says so by their hashes
    const a = r.models.find((m: any) => m.model === "example/model-a");
    expect(a.sha256.snapshot).not.toBe(a.sha256.source);
    const text = await vsk([], ctx.dir);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("no drift: 3 models unchanged");
  });

  it("a reformatted source with one value changed is still changed", async () => {
    const doc = JSON.parse(snapshotText("example/model-a"));
    doc.components.schemas.TextToVideoInput.properties.resolution.default = "1080p";
    serve("example/model-a", JSON.stringify(reversed(doc), null, 4));
    const r = report(await vsk(["--format", "json"], ctx.dir));
    expect(r.models.find((m: any) => m.model === "example/model-a").status).toBe("changed");
    expect(r.changes.map((c: any) => c.id)).toEqual(["request-property-default-value-changed"]);
  });
});
