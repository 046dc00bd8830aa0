// Wall time of `vsk generate` as a child process, cold (a new node each run), in one run:
//   - `node -e ""` (start-up baseline, measured here: NODE_EXTRA_CA_CERTS and friends add to
//     every start, so times are also shown minus this baseline)
//   - the three default models (4 endpoints), target ≤ 3 s
//   - a synthetic set of 100 models / 300 endpoints (target ≤ 30 s) and of 50 models / 150
//     endpoints, to show the growth is linear (the 100/50 ratio should be about 2)
// Run after `npm run build`. Usage: node bench/generate.mjs [--rounds N] [--skip-synthetic]
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(ROOT, "dist/cli/vsk.js"); // what bin/vsk.mjs runs (scripts/bundle.mjs)
const ROUNDS = process.argv.includes("--rounds") ? Number(process.argv[process.argv.indexOf("--rounds") + 1]) : 3;
const SKIP_SYNTHETIC = process.argv.includes("--skip-synthetic");

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Milliseconds of one child process; throws if it fails. */
function time(args, cwd) {
  const t0 = performance.now();
  const run = spawnSync(process.execPath, args, { cwd, encoding: "utf8" });
  const ms = performance.now() - t0;
  if (run.status !== 0) throw new Error(`node ${args.join(" ")} exited ${run.status}: ${run.stderr}`);
  return { ms, stdout: run.stdout };
}

const work = mkdtempSync(join(tmpdir(), "vsk-bench-generate-"));
try {
  // -------------------------------------------------------------------------------------------
  // baseline and default models
  const baseline = median(Array.from({ length: ROUNDS + 2 }, () => time(["-e", ""], work).ms));

  const defaults = join(work, "default");
  mkdirSync(defaults);
  writeFileSync(
    join(defaults, "vsk.config.json"),
    JSON.stringify({ snapshotDir: join(ROOT, "schemas-cache"), outDir: "out" }),
  );
  time([CLI, "generate"], defaults); // warm the file-system cache once; every timed run is still a cold node
  const defaultRuns = Array.from({ length: ROUNDS }, () => time([CLI, "generate"], defaults).ms);
  const defaultMs = median(defaultRuns);

  const rows = [['node -e "" (baseline)', baseline, "", ""]];
  rows.push([
    "generate: 3 default models, 4 endpoints",
    defaultMs,
    defaultMs - baseline,
    defaultMs <= 3000 ? "≤ 3 s ✓" : "≤ 3 s ✗",
  ]);

  // -------------------------------------------------------------------------------------------
  // synthetic models: each one model A's two endpoints plus model B's one, renamed and varied
  let synthetic;
  if (!SKIP_SYNTHETIC) {
    const a = JSON.parse(readFileSync(join(ROOT, "schemas-cache/example/model-a/latest.json"), "utf8"));
    const b = JSON.parse(readFileSync(join(ROOT, "schemas-cache/example/model-b/latest.json"), "utf8"));
    const snapshot = join(work, "synthetic-snapshot");
    const ids = [];
    for (let i = 1; i <= 100; i++) {
      const id = `synth/m-${String(i).padStart(3, "0")}`;
      ids.push(id);
      const paths = {};
      for (const [path, item] of [...Object.entries(a.paths), ...Object.entries(b.paths)]) {
        paths[`/${id}/${path.split("/").at(-1)}`] = item;
      }
      const doc = {
        openapi: "3.1.0",
        info: { title: `Synthetic model ${i}`, version: "1.0.0", "x-model-id": id },
        paths,
        components: { schemas: { ...a.components.schemas, ...b.components.schemas } },
      };
      // vary every document a little, so nothing can be shared between models by accident
      const text = JSON.stringify(doc, null, 2).replaceAll('"description": "', `"description": "(model ${i}) `);
      mkdirSync(join(snapshot, id), { recursive: true });
      writeFileSync(join(snapshot, id, "latest.json"), text);
    }
    const runFor = (count) => {
      const dir = join(work, `synthetic-${count}`);
      mkdirSync(dir);
      writeFileSync(
        join(dir, "vsk.config.json"),
        JSON.stringify({ models: ids.slice(0, count).map((id) => ({ id })), snapshotDir: snapshot, outDir: "out" }),
      );
      const { ms, stdout } = time([CLI, "generate"], dir);
      return { ms, stdout: stdout.trim().split("\n")[0] };
    };
    const fifty = runFor(50);
    const hundred = runFor(100);
    synthetic = { fifty, hundred };
    rows.push(["generate: 50 synthetic models, 150 endpoints", fifty.ms, fifty.ms - baseline, ""]);
    rows.push([
      "generate: 100 synthetic models, 300 endpoints",
      hundred.ms,
      hundred.ms - baseline,
      hundred.ms <= 30000 ? "≤ 30 s ✓" : "≤ 30 s ✗",
    ]);
  }

  // -------------------------------------------------------------------------------------------
  const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
  console.log(
    `vsk generate, cold child processes (node ${process.version}; default models: median of ${ROUNDS}; synthetic: one run each)\n`,
  );
  console.log("".padEnd(48) + "wall".padStart(10) + "− node start".padStart(14) + "  target");
  for (const [label, ms, net, target] of rows)
    console.log(label.padEnd(48) + s(ms).padStart(10) + (net === "" ? "" : s(net)).padStart(14) + `  ${target}`);
  console.log(
    `\ndefault models: ${(defaultMs / baseline).toFixed(1)}× a bare node start; runs ${defaultRuns.map((m) => s(m)).join(", ")}`,
  );
  if (synthetic) {
    const growth = (synthetic.hundred.ms - baseline) / (synthetic.fifty.ms - baseline);
    console.log(
      `synthetic: 100 models / 50 models = ${growth.toFixed(2)}× (linear: ≈ 2×); per endpoint ${((synthetic.hundred.ms - synthetic.fifty.ms) / 150).toFixed(1)} ms`,
    );
    console.log(`  vsk says: ${synthetic.fifty.stdout} | ${synthetic.hundred.stdout}`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
