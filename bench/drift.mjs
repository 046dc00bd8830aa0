// Wall time of `vsk drift --format json` as a child process, cold (a new node each run), on one
// synthetic model of 40, 400 and 800 endpoints (each a renamed copy of model A's two endpoints,
// with their own input components and the shared Keyframe, File and output components):
//   - changed: every endpoint has a narrowed enum, a lowered bound and a new required field,
//     each with an example payload checked by Ajv (the costly part of a report)
//   - unchanged: the source serves the snapshot's bytes (short-circuited before loading)
// Ratios 400/40 and 800/400 show the growth (linear: about 10 and 2). Target: 400 endpoints,
// changed, ≤ 2 s on the reference machine. Wall time grows with the machine's load (other
// processes on the same cores), so each run also reports the CPU time `vsk` itself used (user +
// system, read in the child at exit), which the ratios are computed from. Run after `npm run build`.
// Usage: node bench/drift.mjs [--rounds N] [--sizes 40,400,800]
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(ROOT, "dist/cli/vsk.js"); // what bin/vsk.mjs runs (scripts/bundle.mjs)
const arg = (name, fallback) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback);
const ROUNDS = Number(arg("--rounds", "3"));
const SIZES = arg("--sizes", "40,400,800").split(",").map(Number);
const MODEL = "bench/many";

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** One model document with `n` endpoints; `changed` narrows every endpoint's input. */
function document(n, changed) {
  const a = JSON.parse(readFileSync(join(ROOT, "schemas-cache/example/model-a/latest.json"), "utf8"));
  const doc = { ...a, paths: {}, components: { schemas: {} } };
  const shared = a.components.schemas;
  for (const name of ["Keyframe", "File", "ModelAOutput"]) doc.components.schemas[name] = shared[name];
  for (let i = 0; i < n; i++) {
    const [kind, input] = i % 2 === 0 ? ["text", "TextToVideoInput"] : ["keyframes", "KeyframesToVideoInput"];
    const name = `${kind}-${i}`;
    const component = `Input${i}`;
    const schema = structuredClone(shared[input]);
    if (changed) {
      const p = schema.properties;
      if (p.aspect_ratio?.enum) p.aspect_ratio.enum = p.aspect_ratio.enum.filter((v) => v !== "1:1");
      if (p.prompt) p.prompt.maxLength = 4000;
      p[`seed_${i}`] = { type: "integer" };
      schema.required = [...(schema.required ?? []), `seed_${i}`];
    }
    doc.components.schemas[component] = schema;
    const op = structuredClone(a.paths["/example/model-a/text-to-video"]);
    op.post.operationId = `many-${name}`;
    op.post.requestBody.content["application/json"].schema = { $ref: `#/components/schemas/${component}` };
    doc.paths[`/${MODEL}/${name}`] = op;
  }
  return JSON.stringify(doc, null, 2);
}

// Loaded before the CLI: at exit, the process's own CPU time (ms) on file descriptor 3.
const CPU_AT_EXIT = `data:text/javascript,${encodeURIComponent(
  `import { writeSync } from "node:fs"; process.on("exit", () => { const u = process.cpuUsage(); writeSync(3, String((u.user + u.system) / 1000)); });`,
)}`;

function run(cwd, node = [CLI, "drift", "--format", "json", "--fail-on", "never"]) {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ["--import", CPU_AT_EXIT, ...node], {
    cwd,
    encoding: "utf8",
    maxBuffer: 1 << 30,
    stdio: ["ignore", "pipe", "pipe", "pipe"],
  });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`vsk drift exited ${r.status}: ${r.stderr}`);
  return { ms, cpu: Number(r.output[3]), report: node[0] === CLI ? JSON.parse(r.stdout) : undefined };
}

const work = mkdtempSync(join(tmpdir(), "vsk-bench-drift-"));
try {
  const starts = Array.from({ length: ROUNDS + 2 }, () => run(work, ["-e", ""]));
  const baseline = median(starts.map((r) => r.ms));
  const baselineCpu = median(starts.map((r) => r.cpu));
  const rows = [];
  const results = {};
  for (const n of SIZES) {
    for (const changed of [true, false]) {
      const dir = join(work, `${n}-${changed ? "changed" : "unchanged"}`);
      const snapshot = document(n, false);
      mkdirSync(join(dir, "schemas-cache", MODEL), { recursive: true });
      mkdirSync(join(dir, "source/main", MODEL), { recursive: true });
      writeFileSync(join(dir, "schemas-cache", MODEL, "latest.json"), snapshot);
      writeFileSync(join(dir, "source/main", MODEL, "latest.json"), changed ? document(n, true) : snapshot);
      writeFileSync(
        join(dir, "vsk.config.json"),
        JSON.stringify({ schemaUrl: join(dir, "source"), models: [{ id: MODEL, alias: "many" }] }),
      );
      run(dir); // warm the file-system cache; every timed run is still a cold node
      const runs = Array.from({ length: ROUNDS }, () => run(dir));
      const ms = median(runs.map((r) => r.ms));
      const cpu = median(runs.map((r) => r.cpu));
      const report = runs[0].report;
      const examples = report.changes.filter((c) => c.example !== undefined).length;
      results[`${n}-${changed}`] = { ms, cpu };
      rows.push([
        `${n} endpoints, ${changed ? "changed" : "unchanged"}`,
        ms,
        cpu,
        `${report.changes.length} changes, ${examples} examples`,
      ]);
    }
  }
  const w = Math.max(...rows.map((r) => r[0].length));
  // wall times grow with the machine's load: say what it was
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")} on ${availableParallelism()} cores`,
  );
  console.log(
    `node -e "" (baseline)`.padEnd(w),
    `${baseline.toFixed(0).padStart(7)} ms wall`,
    `${baselineCpu.toFixed(0).padStart(7)} ms CPU`,
  );
  for (const [label, ms, cpu, note] of rows)
    console.log(
      label.padEnd(w),
      `${ms.toFixed(0).padStart(7)} ms wall`,
      `${cpu.toFixed(0).padStart(7)} ms CPU`,
      `(${(cpu - baselineCpu).toFixed(0)} ms CPU past start-up)`,
      note,
    );
  for (const changed of [true, false]) {
    const side = changed ? "changed" : "unchanged";
    for (let i = 1; i < SIZES.length; i++) {
      const [small, big] = [SIZES[i - 1], SIZES[i]];
      const past = (n) => results[`${n}-${changed}`].cpu - baselineCpu;
      console.log(
        `ratio ${side} ${big}/${small} endpoints (CPU past start-up): ${(past(big) / past(small)).toFixed(2)} (linear: ${(big / small).toFixed(2)})`,
      );
    }
  }
  if (SIZES.includes(400)) {
    const { ms, cpu } = results["400-true"];
    console.log(
      `400 endpoints, changed: ${(ms / 1000).toFixed(2)} s wall ${ms <= 2000 ? "≤ 2 s ✓" : "≤ 2 s ✗"}, ${(cpu / 1000).toFixed(2)} s CPU ${cpu <= 2000 ? "≤ 2 s ✓" : "≤ 2 s ✗"}`,
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
