// Issue 24.9: the generated modules have no top-level side effects, so an app that imports one
// endpoint's builder from the generated index bundles that endpoint's code and the shared support
// module, and no other endpoint's validator. Bundled with esbuild, from a copy of generated/ in a
// project of its own (this package's `"sideEffects": false` would hide the problem).
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const GENERATED = resolve(import.meta.dirname, "../../generated");
let work = "";
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "vsk-tree-shaking-"));
  cpSync(GENERATED, join(work, "generated"), { recursive: true });
  writeFileSync(join(work, "package.json"), '{"type":"module"}');
});
afterAll(() => {
  if (work !== "") rmSync(work, { recursive: true, force: true });
});

interface Entry {
  key: string;
  path: string;
  validator: string;
}
const { endpoints } = JSON.parse(readFileSync(join(GENERATED, "endpoints.json"), "utf8")) as { endpoints: Entry[] };
const index = readFileSync(join(GENERATED, "index.mts"), "utf8");
const moduleOf = (e: Entry) => e.validator.replace(/\.validate\.mts$/, ".mts");
const builderOf = (e: Entry) =>
  [...index.matchAll(/^import \{([^}]*)\} from "([^"]+)";$/gm)]
    .find((m) => m[2] === `./${moduleOf(e).replace(/\.mts$/, ".mjs")}`)![1]!
    .split(",")
    .map((n) => n.trim())
    .find((n) => /^build[A-Z]/.test(n))!;

/** The bundle of `code`, and the generated files that put bytes into it. */
async function bundle(code: string): Promise<{ text: string; files: string[] }> {
  const entry = join(work, "entry.mts");
  writeFileSync(entry, code);
  const out = await build({ entryPoints: [entry], bundle: true, format: "esm", write: false, metafile: true });
  const inputs = Object.values(out.metafile.outputs)[0]!.inputs;
  const files = Object.entries(inputs)
    .filter(([file, { bytesInOutput }]) => bytesInOutput > 0 && file.includes("generated/"))
    .map(([file]) => file.slice(file.indexOf("generated/") + "generated/".length))
    .sort();
  return { text: out.outputFiles[0]!.text, files };
}

describe("one endpoint's builder bundles that endpoint only", () => {
  it.each(endpoints.map((e) => [e.key, e] as const))("%s", async (_, endpoint) => {
    const builder = builderOf(endpoint);
    const { text, files } = await bundle(
      `import { ${builder} } from "./generated/index.mjs";\nconsole.log(${builder});\n`,
    );
    expect(files).toEqual([moduleOf(endpoint), endpoint.validator, "redact.mts", "support.mts"].sort());
    for (const other of endpoints.filter((e) => e !== endpoint)) expect(text).not.toContain(`"${other.path}"`);
  });

  it("the registry still holds every endpoint", async () => {
    const { files } = await bundle(`import { endpoints } from "./generated/index.mjs";\nconsole.log(endpoints);\n`);
    for (const e of endpoints) expect(files).toEqual(expect.arrayContaining([moduleOf(e), e.validator]));
  });
});
