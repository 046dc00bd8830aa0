/**
 * The published contract of package.json (issue 30.6, 30.7): `engines` states the truth of the
 * dependencies' own engines (yargs 18's is the narrowest), and a LICENSE file ships.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const read = (file: string) => JSON.parse(readFileSync(join(ROOT, file), "utf8")) as Record<string, any>;

/** What `npm pack` would put in the tarball (one `npm pack --dry-run` for the file: npm is slow to start). */
let packedFiles: string[] | undefined;
const packed = (): string[] =>
  (packedFiles ??= (
    JSON.parse(
      execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: ROOT, encoding: "utf8" }),
    ) as [{ files: { path: string }[] }]
  )[0].files.map((f) => f.path));

describe("package.json", () => {
  it("engines.node is the narrowest of the runtime dependencies' engines (yargs: ^20.19 || ^22.12 || >=23)", () => {
    const pkg = read("package.json");
    const yargs = read("node_modules/yargs/package.json");
    expect(pkg.engines.node).toBe(yargs.engines.node);
    expect(pkg.engines.node).toBe("^20.19.0 || ^22.12.0 || >=23");
    expect(read("package-lock.json").packages[""].engines.node).toBe(pkg.engines.node);
    // undici 7 needs >=20.18.1: every range above starts later
    expect(read("node_modules/undici/package.json").engines.node).toBe(">=20.18.1");
  });

  it("a MIT LICENSE file is packed, and keywords are set", () => {
    const pkg = read("package.json");
    expect(pkg.license).toBe("MIT");
    expect(readFileSync(join(ROOT, "LICENSE"), "utf8")).toMatch(/^MIT License\n/);
    expect(pkg.keywords.length).toBeGreaterThan(3);
    expect(packed()).toContain("LICENSE");
  });
});

describe("the tarball ships what runs (issue 30.9)", () => {
  /** Every packed file matches one of these; anything else is a file the package does not run or document. */
  const ALLOWED: RegExp[] = [
    /^(README\.md|LICENSE|package\.json|action\.yml)$/,
    /^bin\/(vsk|build-check)\.mjs$/,
    /^dist\/\.build-stamp$/,
    /^dist\/(src|generated)\/.+\.(m?js|d\.m?ts)$/,
    /^dist\/cli\/(vsk|worker|sandbox-child|lint-script|chunk-[A-Z0-9]+)\.js$/, // the bundled CLI (scripts/bundle.mjs)
    /^dist\/embed\/.+\.m?ts$/, // the sources vsk generate copies into a project (support, redact, _vsk/)
    /^templates\/[a-z-]+\.txt$/,
    /^schemas-cache\/(manifest\.json|[^/]+\/[^/]+\/latest\.json)$/,
    /^schemas\/[a-z-]+\.schema\.json$/,
    /^generated\/endpoints\.json$/, // vsk lint's catalogue of the embedded models (their code runs from dist/generated)
    /^generated\/.+\.schema\.json$/, // the editor schemas the README points at
    /^docs\/[a-z-]+\.md$/,
  ];
  it("every packed file is on the allow-list; generated/*.mts sources and the CLI's own .d.ts are not packed", () => {
    const files = packed();
    expect(files.filter((f) => !ALLOWED.some((re) => re.test(f)))).toEqual([]);
    expect(files.filter((f) => /^generated\/.*\.mts$/.test(f))).toEqual([]);
    expect(files.filter((f) => /^dist\/src\/(cli|action)\/.*\.d\.ts$/.test(f))).toEqual([]);
    // what runs is there: the bin, the CLI, the embedded models' built code and catalogue, the published schemas
    for (const needed of [
      "bin/vsk.mjs",
      "dist/cli/vsk.js",
      "dist/cli/worker.js",
      "dist/cli/sandbox-child.js",
      "dist/cli/lint-script.js",
      "dist/generated/index.mjs",
      "dist/generated/index.d.mts",
      "generated/endpoints.json",
      "schemas/config.schema.json",
      "schemas/lint-report.schema.json",
      "schemas-cache/manifest.json",
    ])
      expect(files, needed).toContain(needed);
  });
});
