/**
 * `src/runtime` ships as `video-schema-kit/runtime` and must run in a browser (ARCHITECTURE.md):
 * every module imports only other modules of src/runtime, and uses no Node-only global.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const runtimeDir = join(root, "src/runtime");
const files = readdirSync(runtimeDir, { recursive: true })
  .map(String)
  .filter((name) => name.endsWith(".ts"))
  .map((name) => join(runtimeDir, name));

/** Every module specifier in `source`: static imports and re-exports, side-effect imports, dynamic imports, require. */
function importSpecifiers(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const patterns = [
    /\b(?:import|export)\s+(?:type\s+)?[^;'"]*?\bfrom\s*["']([^"']+)["']/g,
    /\bimport\s*["']([^"']+)["']/g,
    /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
    /\brequire\s*\(\s*["']([^"']+)["']\s*\)/g,
  ];
  return patterns.flatMap((pattern) => [...code.matchAll(pattern)].map((match) => match[1]!));
}

describe("src/runtime imports nothing outside itself", () => {
  it("finds the runtime modules", () => {
    expect(files.map((file) => relative(runtimeDir, file))).toContain("index.ts");
    expect(files.length).toBeGreaterThan(3);
  });

  it("the specifier parser sees every form", () => {
    const sample = `import a from "x1";\nimport { b,\n c } from 'x2';\nimport type { T } from "x3";\nexport * from "x4";\nexport { d } from "x5";\nimport "x6";\nconst e = await import("x7");\n// import z from "comment";`;
    expect(importSpecifiers(sample).sort()).toEqual(["x1", "x2", "x3", "x4", "x5", "x6", "x7"]);
  });

  it.each(files.map((file) => [relative(root, file), file]))("%s", (_name, file) => {
    const source = readFileSync(file, "utf8");
    for (const specifier of importSpecifiers(source)) {
      expect(specifier, `${relative(root, file)} imports ${specifier}`).toMatch(/^\.\.?\//);
      const target = resolve(dirname(file), specifier);
      expect(
        relative(runtimeDir, target).startsWith(".."),
        `${relative(root, file)} imports ${specifier}, outside src/runtime`,
      ).toBe(false);
      expect(existsSync(target.replace(/\.js$/, ".ts")), `${specifier} resolves to a runtime module`).toBe(true);
    }
    const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
    for (const nodeOnly of [
      /\bprocess\./,
      /\bBuffer\b/,
      /\b__dirname\b/,
      /\brequire\(/,
      /\bglobal\./,
      /\bsetImmediate\b/,
    ]) {
      expect(code, `${relative(root, file)} uses a Node-only global (${nodeOnly.source})`).not.toMatch(nodeOnly);
    }
  });

  it("the built entry loads under plain node as video-schema-kit/runtime", () => {
    const built = join(root, "dist/src/runtime/index.js");
    expect(existsSync(built), "dist/src/runtime/index.js is missing: run `npm run build` first").toBe(true);
    const out = execFileSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        "const r = await import('video-schema-kit/runtime'); console.log(Object.keys(r).sort().join(' '))",
      ],
      { cwd: root, encoding: "utf8" },
    );
    for (const name of [
      "readPrediction",
      "readQueueStatus",
      "readWebhook",
      "readResultResponse",
      "defaultRetryable",
      "redactUrl",
      "redactUrlsInText",
      "PredictionFailedError",
      "toPredictionFailedError",
    ])
      expect(out.trim().split(" ")).toContain(name);
  });
});
