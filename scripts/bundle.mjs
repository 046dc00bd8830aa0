// The `vsk` command's build: the CLI (dist/src/cli/main.js), the `--jobs` worker
// (dist/src/lint/worker.js) and the preflight's parser process (dist/src/preflight/sandbox-child.js,
// found beside the chunk that starts it), as tsc built them, bundled by esbuild into dist/cli/ (vsk.js,
// worker.js, sandbox-child.js, and the chunks of the commands each loads on demand). Why: a command's start is
// dominated by loading modules (node resolves, stats, reads and compiles each of ~60 files for
// `vsk lint`); one file per command cut `vsk lint file.json` from 207 to 170 ms (README
// Performance, bench/lint.mjs (b)). Packages stay external (resolved from node_modules as
// before); nothing is minified, so a stack trace still names the functions. bin/vsk.mjs and the
// GitHub Action (`vsk action`) run it; the library entries (dist/src) keep the per-module build.
// Written beside dist/cli and moved in whole: a build stopped half-way leaves the previous one,
// or none (which bin/vsk.mjs rebuilds), never half of one.
import { renameSync, rmSync } from "node:fs";
import { build } from "esbuild";

const root = new URL("..", import.meta.url).pathname;
const outdir = `${root}dist/cli`;
const next = `${outdir}.next`;
rmSync(next, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: {
    vsk: "dist/src/cli/main.js",
    worker: "dist/src/lint/worker.js",
    "sandbox-child": "dist/src/preflight/sandbox-child.js",
  },
  outdir: next,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  chunkNames: "chunk-[hash]",
  logLevel: "warning",
});
rmSync(outdir, { recursive: true, force: true });
renameSync(next, outdir);
