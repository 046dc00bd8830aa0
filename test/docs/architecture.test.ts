/**
 * docs/architecture.md stays true (issue 28.8): its table of folders names every folder of src/,
 * and no folder that is gone.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");

describe("docs/architecture.md", () => {
  it("lists exactly the folders of src/", () => {
    const page = readFileSync(join(ROOT, "docs/architecture.md"), "utf8");
    const listed = [...page.matchAll(/^\| `([a-z-]+)\/` \|/gm)].map((m) => m[1]).sort();
    const folders = readdirSync(join(ROOT, "src"), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    expect(listed).toEqual(folders);
  });
});
