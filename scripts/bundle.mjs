// The `vsk` command's build: the CLI (dist/src/cli/main.js) and the `--jobs` worker
// (dist/src/lint/worker.js), as tsc built them, bundled by esbuild into dist/cli/ (vsk.js,
// worker.js, and the chunks of the commands each loads on demand). Why: a command's start is
// dominated by loading modules (node resolves, stats, reads and compiles each of ~60 files for
// `vsk lint`); one file per command cut `vsk lint file.json` by ~30 ms of its ~200 ms
// (README Performance, bench/lint.mjs (b)). Packages stay external (resolved from node_modules
// as before); nothing is minified, so a stack trace still names the functions. The library
// entry (dist/src/index.js) and the GitHub Action keep the per-module build.
import { rmSync } from "node:fs";
import { build } from "esbuild";

const root = new URL("..", import.meta.url).pathname;
const outdir = `${root}dist/cli`;
rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: { vsk: "dist/src/cli/main.js", worker: "dist/src/lint/worker.js" },
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  chunkNames: "chunk-[hash]",
  logLevel: "warning",
});
