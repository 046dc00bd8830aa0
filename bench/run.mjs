// `npm run bench`: every benchmark, one after the other, each printing ratios against the
// alternatives it measures in the same run. Run after `npm run build` (npm run bench does).
// Only some: `node bench/run.mjs drift` (names are prefixes: validators, generate, lint, drift, client, bundle, preflight, footprint, udf).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const only = process.argv.slice(2);
const benches = [
  "validators.mjs",
  "generate.mjs",
  "lint.mjs",
  "drift.mjs",
  "client.mjs",
  "bundle.mjs",
  "preflight.mjs",
  "footprint.mjs",
  "udf.mjs",
].filter((b) => only.length === 0 || only.some((o) => b.startsWith(o)));
let failed = 0;
for (const bench of benches) {
  const file = new URL(bench, import.meta.url);
  if (!existsSync(file)) continue;
  process.stdout.write(`\n=== bench/${bench}\n`);
  const run = spawnSync(process.execPath, [file.pathname], { stdio: "inherit" });
  if (run.status !== 0) failed++;
}
process.exitCode = failed === 0 ? 0 : 1;
