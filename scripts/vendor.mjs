// The packages vsk carries inside its own build instead of depending on them. One today:
// mediabunny (MPL-2.0), the preflight's WebM and Matroska reader. It depends on
// `@types/dom-webcodecs` and `@types/dom-mediacapture-transform`, and TypeScript 5 loads every
// installed `@types` package into each program of the project: installed as a dependency of vsk,
// they failed a consumer's own `tsc` (lib es2022: "Cannot find name 'MediaStreamTrack'"; with the
// DOM lib, duplicate declarations). So mediabunny is a devDependency, and this step bundles what
// src/preflight/mediabunny.ts re-exports (~300 KB instead of the package's 9 MB) over tsc's output
// of that module, dist/src/preflight/mediabunny.js; the CLI's bundle (scripts/bundle.mjs) takes
// it from there. MPL-2.0 asks that the notice stay with the code and say where its source is: the
// banner. Written beside and renamed over: a build stopped half-way leaves tsc's module or this one.
import { readFileSync, renameSync } from "node:fs";
import { build } from "esbuild";

const root = new URL("..", import.meta.url).pathname;
const source = "src/preflight/mediabunny.ts";
const out = `${root}dist/src/preflight/mediabunny.js`;
const pkg = JSON.parse(readFileSync(`${root}node_modules/mediabunny/package.json`, "utf8"));
if (pkg.license !== "MPL-2.0")
  throw new Error(`mediabunny ${pkg.version} is licensed ${pkg.license}: check scripts/vendor.mjs's notice`);
await build({
  absWorkingDir: root,
  stdin: { contents: readFileSync(`${root}${source}`, "utf8"), resolveDir: `${root}src/preflight`, loader: "ts" },
  outfile: `${out}.next`,
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  legalComments: "inline",
  banner: {
    // a legal comment (`/*!`): esbuild keeps it where it bundles this module again (the CLI's chunk)
    js: [
      `/*! mediabunny ${pkg.version}, bundled into video-schema-kit by scripts/vendor.mjs (only what ${source} re-exports).`,
      " * This Source Code Form is subject to the terms of the Mozilla Public License, v. 2.0. If a copy of",
      " * the MPL was not distributed with this file, You can obtain one at https://mozilla.org/MPL/2.0/.",
      ` * Source: https://github.com/Vanilagy/mediabunny (npm: mediabunny@${pkg.version}). */`,
    ].join("\n"),
  },
  logLevel: "warning",
});
renameSync(`${out}.next`, out);
