/**
 * The published contract of package.json (issue 30.6, 30.7): `engines` states the truth of the
 * dependencies' own engines (yargs 18's is the narrowest), and a LICENSE file ships.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
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

describe("installing vsk leaves the consumer's own tsc alone", () => {
  // TypeScript 5 loads every installed `@types` package into each program of a project (unless its
  // tsconfig lists `types`): one that needs the DOM failed a Node project's one-line `tsc` once vsk
  // was installed (mediabunny's @types/dom-webcodecs and dom-mediacapture-transform; it is now
  // bundled in by scripts/vendor.mjs). Every @types package vsk's install brings must compile alone.
  it("the @types packages of vsk's runtime dependencies compile with lib es2022 and nothing else", () => {
    const lock = read("package-lock.json") as { packages: Record<string, { dev?: boolean }> };
    const runtime = Object.entries(lock.packages)
      .filter(([path, entry]) => /^node_modules\/@types\/[^/]+$/.test(path) && entry.dev !== true)
      .map(([path]) => path.slice("node_modules/@types/".length));
    expect(runtime).not.toContain("dom-webcodecs");
    expect(runtime).not.toContain("dom-mediacapture-transform");
    const dir = mkdtempSync(join(tmpdir(), "vsk-types-"));
    try {
      writeFileSync(join(dir, "a.ts"), "export const x: number = 1;\n");
      writeFileSync(
        join(dir, "tsconfig.json"),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            noEmit: true,
            lib: ["es2022"],
            types: runtime,
            typeRoots: [join(ROOT, "node_modules/@types")],
          },
          files: ["a.ts"],
        }),
      );
      const tsc = spawnSync(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", dir], {
        encoding: "utf8",
      });
      expect(tsc.stdout + tsc.stderr).toBe("");
      expect(tsc.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
