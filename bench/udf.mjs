// `vsk udf` (issue 41): the warehouse script's throughput beside `vsk lint`'s, on the same log.
//
// A mixed NDJSON log of envelopes for all four example endpoints (about 1 in 8 invalid, some with
// warnings) is written once into os.tmpdir(). Then, interleaved, 3 rounds, medians:
//   (a) vsk_lint.js (built in process from dist/, as `vsk udf --target bigquery` writes it) run in a
//       fresh node:vm context holding only ECMAScript built-ins, called once per line with the
//       endpoint and the body's JSON text (BigQuery's vsk_lint_text, a STRING column), the loop
//       itself inside the context; and once per line with the body as a parsed value (vsk_lint,
//       a JSON column; parsing inside the context, not timed);
//   (b) `vsk lint --jobs 1 --format json` on the same file, end to end (stdout to /dev/null).
// A warehouse runs many such environments side by side; this is one core's rate.
//
// Usage (after `npm run build`): node bench/udf.mjs [--lines 200000]
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import vm from "node:vm";

const root = new URL("..", import.meta.url).pathname;
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const lines = arg("lines", 200_000);

const { loadConfig } = await import(join(root, "dist/src/config/index.js"));
const { readSnapshot } = await import(join(root, "dist/src/snapshot/index.js"));
const { udfFiles } = await import(join(root, "dist/src/udf/index.js"));
const config = loadConfig(root);
const models = readSnapshot(config.snapshotDir, config.models).map((m) => ({
  ref: m.ref,
  sourceLabel: `schemas-cache/${m.ref.id}/latest.json`,
  sha256: m.sha256,
  endpoints: m.schema.endpoints,
}));
const script = udfFiles(models, { target: "bigquery" }).find((f) => f.path === "vsk_lint.js").content;

const bodies = [
  [
    "example/model-a",
    "keyframes-to-video",
    {
      prompt: "a cat walks across the room",
      keyframes: [
        { image_url: "https://cdn.example/f0.png", frame_index: 0 },
        { image_url: "https://cdn.example/f1.png", frame_index: 96 },
      ],
    },
  ],
  [
    "example/model-a",
    "keyframes-to-video",
    {
      prompt: "a cat",
      keyframes: [
        { image_url: "https://cdn.example/f0.png", frame_index: 24 },
        { image_url: "https://cdn.example/f1.png", frame_index: 24 },
      ],
    },
  ],
  ["example/model-a", "text-to-video", { prompt: "a sunrise", aspect_ratio: "16:9", duration: 5 }],
  ["example/model-a", "text-to-video", { prompt: "a sunrise", aspect_ratio: "17:9", duration: 40 }],
  [
    "example/model-b",
    "reference-to-video",
    { prompt: "image 1 dances", reference_images: ["https://cdn.example/a.png"] },
  ],
  ["example/model-c", "text-to-video", { prompt: "a red kite", ratio: "9:16", duration: 5 }],
  ["example/model-c", "text-to-video", { prompt: "a red kite", durration: 5 }],
  ["example/model-a", "text-to-video", { prompt: "a quiet harbour at dawn, boats rocking", duration: 5 }],
];
const dir = join(tmpdir(), "vsk-bench-udf");
mkdirSync(dir, { recursive: true });
const log = join(dir, `mixed-${lines}.ndjson`);
if (!existsSync(log)) {
  const out = [];
  for (let i = 0; i < lines; i++) {
    const [model, endpoint, input] = bodies[i % bodies.length];
    out.push(JSON.stringify({ model, endpoint, input: { ...input, seed: i } }));
  }
  writeFileSync(log, out.join("\n") + "\n");
}
const rows = readFileSync(log, "utf8")
  .split("\n")
  .filter(Boolean)
  .map((line) => {
    const { model, endpoint, input } = JSON.parse(line);
    return [`${model}/${endpoint}`, JSON.stringify(input)];
  });

function udfRun(asValue) {
  const context = vm.createContext({}, { codeGeneration: { strings: false, wasm: false } });
  vm.runInContext(script, context);
  context.rows = rows;
  if (asValue) vm.runInContext("rows = rows.map(([k, t]) => [k, JSON.parse(t)])", context);
  const started = performance.now();
  const findings = vm.runInContext("let n = 0; for (const [k, p] of rows) n += vskLint(k, p).length; n", context);
  return { ms: performance.now() - started, findings };
}

function lintRun() {
  const started = performance.now();
  const run = spawnSync(process.execPath, [join(root, "bin/vsk.mjs"), "lint", "--jobs", "1", "--format", "json", log], {
    cwd: root,
    stdio: ["ignore", "ignore", "pipe"],
    maxBuffer: 1 << 26,
  });
  if (run.status !== 0 && run.status !== 1) throw new Error(`vsk lint exited ${run.status}: ${run.stderr}`);
  return { ms: performance.now() - started };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const text = [];
const value = [];
const lint = [];
let findings;
for (let round = 0; round < 3; round++) {
  const t = udfRun(false);
  findings = t.findings;
  text.push(t.ms);
  value.push(udfRun(true).ms);
  lint.push(lintRun().ms);
}
const rate = (ms) => Math.round(rows.length / (ms / 1000));
console.log(`${rows.length} requests, ${findings} findings; load average ${loadavg()[0].toFixed(2)}`);
console.log(
  `vsk_lint.js in node:vm, JSON text:  ${rate(median(text))} req/s (median of 3, ${Math.round(median(text))} ms)`,
);
console.log(`vsk_lint.js in node:vm, JSON value: ${rate(median(value))} req/s (${Math.round(median(value))} ms)`);
console.log(
  `vsk lint --jobs 1 --format json:   ${rate(median(lint))} req/s end to end (${Math.round(median(lint))} ms)`,
);
console.log(`ratio vm (text) / vsk lint: ${(median(lint) / median(text)).toFixed(2)}x`);
