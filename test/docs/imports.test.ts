/**
 * The house (issue 42.6): src/'s imports keep the layout docs/architecture.md describes. Parsed in
 * process with TypeScript's `preProcessFile` (imports, `import type`, re-exports and dynamic
 * `import()` alike), no compile. Fails on
 *   - an import circle: files that import each other, directly or round a loop (a strongly
 *     connected component of more than one file);
 *   - an import that reaches inside another folder past its `index.ts`, other than the exceptions
 *     docs/architecture.md names (each listed here with the file that may import it);
 *   - an import that climbs a floor: a folder importing one on its own floor or above, per the
 *     floors below, which are docs/architecture.md's table "The floors" (checked equal).
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const SRC = join(ROOT, "src");

/** Each folder's floor: a folder imports only folders on lower floors (docs/architecture.md, "The floors"). */
const FLOORS: Record<string, number> = {
  escape: 0,
  json: 0,
  runtime: 0,
  words: 1,
  diagnostics: 1,
  client: 2,
  durable: 2,
  schema: 2,
  config: 3,
  platform: 3,
  rules: 3,
  fetch: 4,
  snapshot: 4,
  emit: 4,
  explain: 4,
  preflight: 5,
  udf: 5,
  lint: 6,
  drift: 7,
  mock: 7,
  action: 8,
  cli: 9,
  "(package)": 9,
};

/**
 * Files other folders may import past the index, and who may: docs/architecture.md names each
 * with its reason ("Stages import each other through the index, with these exceptions").
 */
const EXCEPTIONS: Record<string, string[]> = {
  "runtime/redact.ts": [
    "diagnostics/diagnostic.ts",
    "diagnostics/index.ts",
    "diagnostics/pointers.ts",
    "diagnostics/wording.ts",
    "cli/explain.ts",
    "drift/run.ts",
  ],
  "snapshot/read.ts": ["lint/registry.ts", "lint/run.ts"],
  "lint/lint.ts": ["index.ts"],
  "lint/registry.ts": ["index.ts"],
};

interface Edge {
  from: string;
  to: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

/** Every relative import of every file of src/, as paths relative to src/ (`lint/lint.ts`). */
function importsOf(src: string): { files: string[]; edges: Edge[] } {
  const files = sourceFiles(src).map((f) => relative(src, f));
  const edges: Edge[] = [];
  for (const from of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(src, from), "utf8"), true, true);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith(".")) continue;
      const to = relative(src, resolve(dirname(join(src, from)), fileName)).replace(/\.js$/, ".ts");
      edges.push({ from, to });
    }
  }
  return { files, edges };
}

/** The folder of src/ a file is in; `(package)` for the entry src/index.ts. */
const folderOf = (file: string): string => (file.includes("/") ? file.slice(0, file.indexOf("/")) : "(package)");

/** Strongly connected components of more than one file (Tarjan), each sorted. */
function circles(files: string[], edges: Edge[]): string[][] {
  const next = new Map<string, string[]>(files.map((f) => [f, []]));
  for (const { from, to } of edges) next.get(from)?.push(to);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      for (let w = stack.pop()!; ; w = stack.pop()!) {
        onStack.delete(w);
        component.push(w);
        if (w === v) break;
      }
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const f of files) if (!index.has(f)) visit(f);
  return found;
}

/** What breaks the three rules in the tree at `src`, in words (empty when the house is in order). */
export function houseRulesBroken(src: string): { circles: string[][]; pastIndex: string[]; climbs: string[] } {
  const { files, edges } = importsOf(src);
  const across = edges.filter((e) => folderOf(e.from) !== folderOf(e.to));
  return {
    circles: circles(files, edges),
    pastIndex: across
      .filter((e) => !/^[^/]+\/index\.ts$/.test(e.to) && !(EXCEPTIONS[e.to] ?? []).includes(e.from))
      .map((e) => `${e.from} -> ${e.to}`),
    climbs: across
      .filter((e) => !(FLOORS[folderOf(e.from)]! > FLOORS[folderOf(e.to)]!))
      .map(
        (e) =>
          `${e.from} (${folderOf(e.from)}, floor ${FLOORS[folderOf(e.from)]}) -> ${e.to} (floor ${FLOORS[folderOf(e.to)]})`,
      ),
  };
}

describe("src/'s imports (issue 42.6)", () => {
  const broken = houseRulesBroken(SRC);
  it("no import circle: no files that import each other, directly or round a loop", () => {
    expect(broken.circles).toEqual([]);
  });
  it("another folder is imported through its index.ts, but for the documented exceptions", () => {
    expect(broken.pastIndex).toEqual([]);
  });
  it("a folder imports only folders on lower floors", () => {
    expect(broken.climbs).toEqual([]);
  });

  const page = readFileSync(join(ROOT, "docs/architecture.md"), "utf8");
  it("the floors are docs/architecture.md's table, every folder of src/ on one", () => {
    const documented: Record<string, number> = { "(package)": FLOORS["(package)"]! };
    for (const [, floor, folders] of page.matchAll(/^\| (\d+) \| ([^|]+) \|/gm))
      for (const [, folder] of folders!.matchAll(/`([a-z-]+)\/`/g)) documented[folder!] = Number(floor);
    expect(documented).toEqual(FLOORS);
    const folders = readdirSync(SRC, { withFileTypes: true }).filter((e) => e.isDirectory());
    expect(folders.map((e) => e.name).sort()).toEqual(
      Object.keys(FLOORS)
        .filter((f) => f !== "(package)")
        .sort(),
    );
  });
  it("docs/architecture.md names every exception and who may use it", () => {
    for (const [file, importers] of Object.entries(EXCEPTIONS)) {
      expect(page).toContain(`\`${file}\``);
      // each importer by its path, or its folder as a whole
      for (const importer of importers)
        expect([`\`${importer}\``, `\`${importer.replace(/\/[^/]+$/, "/")}\``].some((n) => page.includes(n))).toBe(
          true,
        );
    }
  });
});
