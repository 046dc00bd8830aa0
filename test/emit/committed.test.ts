import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

// The committed generated/ is what `npx vsk generate` gives from the committed snapshot: CI
// fails when someone changes the snapshot, a template or the emitter without regenerating.
describe("the committed generated/ is current", () => {
  it("vsk generate --check passes in the repository", () => {
    const run = spawnSync(process.execPath, [resolve("dist/cli/vsk.js"), "generate", "--check"], {
      encoding: "utf8",
    });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^generated\/ is up to date \(40 files, 4 endpoints\)\.$/m);
  });
});
