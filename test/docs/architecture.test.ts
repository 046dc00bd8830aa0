/**
 * docs/architecture.md stays true (issue 28.8): its table of folders names every folder of src/,
 * and no folder that is gone; every folder's index.ts only re-exports (issue 28.3).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import ts from "typescript";
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

describe("src/<folder>/index.ts (issue 28.3)", () => {
  // cli/ has no index: one file per command, run by bin/vsk.mjs through cli/main.ts
  const folders = readdirSync(join(ROOT, "src"), { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(ROOT, "src", e.name, "index.ts")))
    .map((e) => e.name);
  it("every stage folder has one", () => expect(folders.length).toBeGreaterThan(15));
  it.each(folders)("src/%s/index.ts only re-exports: its code lives in named files", (folder) => {
    const file = join(ROOT, "src", folder, "index.ts");
    const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
    const code = source.statements
      .filter((s) => !(ts.isExportDeclaration(s) && s.moduleSpecifier !== undefined))
      .map((s) => `line ${source.getLineAndCharacterOfPosition(s.getStart(source)).line + 1}`);
    expect(code).toEqual([]);
  });
});
