// `node bench/bundle.mjs`: what one endpoint costs in an app bundle (issue 24.9). For each
// endpoint of generated/ (copied outside this package, so its `"sideEffects": false` does not
// help), esbuild bundles an entry that imports only that endpoint's builder from the generated
// index, minified; printed are the bytes minified and minified+gzip, and the same for the whole
// registry (`endpoints`), which holds every endpoint. The support module (diagnostics and rule
// checks) is shared: the difference between two endpoints' figures is the endpoint's own code.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const root = new URL("..", import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), "vsk-bench-bundle-"));
try {
  cpSync(join(root, "generated"), join(work, "generated"), { recursive: true });
  writeFileSync(join(work, "package.json"), '{"type":"module"}');
  const index = readFileSync(join(work, "generated/index.mts"), "utf8");
  const { endpoints } = JSON.parse(readFileSync(join(work, "generated/endpoints.json"), "utf8"));
  const size = async (code) => {
    const entry = join(work, "entry.mts");
    writeFileSync(entry, code);
    const out = await build({ entryPoints: [entry], bundle: true, minify: true, format: "esm", write: false });
    const text = out.outputFiles[0].contents;
    return { min: text.length, gzip: gzipSync(text).length };
  };
  const kb = (n) => `${(n / 1000).toFixed(1)} kB`;
  const rows = [];
  for (const { key, validator } of endpoints) {
    // the builder the endpoint's module exports (`buildModelATextToVideo`)
    const module = `./${validator.replace(/\.validate\.mts$/, ".mjs")}`;
    const names = [...index.matchAll(/^import \{([^}]*)\} from "([^"]+)";$/gm)].find((m) => m[2] === module)?.[1];
    const builder = names
      ?.split(",")
      .map((n) => n.trim())
      .find((n) => /^build[A-Z]/.test(n));
    if (builder === undefined) throw new Error(`generated/index.mts imports no builder from ${module}`);
    const s = await size(`import { ${builder} } from "./generated/index.mjs";\nconsole.log(${builder});\n`);
    rows.push([`${key} (${builder} only)`, s]);
  }
  rows.push([
    `all ${endpoints.length} endpoints (the endpoints registry)`,
    await size(`import { endpoints } from "./generated/index.mjs";\nconsole.log(endpoints);\n`),
  ]);
  const width = Math.max(...rows.map(([name]) => name.length));
  console.log(`${"bundle of one import from generated/index.mjs".padEnd(width)}  minified   min+gzip`);
  for (const [name, s] of rows)
    console.log(`${name.padEnd(width)}  ${kb(s.min).padStart(8)}  ${kb(s.gzip).padStart(9)}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
