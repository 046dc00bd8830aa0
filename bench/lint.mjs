// `vsk lint` performance (issue 4, "Performance"), through the real CLI as a child process:
//
//   (a) streaming NDJSON of 100 000 and 1 000 000 mixed requests (all four endpoints, envelopes,
//       about 10% invalid; generated once into os.tmpdir()): requests/s end to end, with
//       `--format json` and `--format pretty` (stdout to /dev/null), and peak RSS (from
//       `/usr/bin/time -v` when present, else from a driver that runs `main` and reports
//       process.resourceUsage().maxRSS). Both sizes are printed so that flat memory is visible.
//       Targets: >= 250 000 requests/s, peak RSS <= 200 MB.
//   (b) cold start on one small file: `vsk lint file.json --model modelA --endpoint
//       keyframes-to-video` versus `ajv validate` (ajv-cli, --spec=draft2020 -c ajv-formats) on
//       the published input schema of the same endpoint (the snapshot's normalized input, written
//       out as a standalone JSON Schema) and the same payload, with `node -e ""` as the baseline.
//       Runs interleaved, medians; target vsk/ajv <= 0.5.
//
// Usage (after `npm run build`): node bench/lint.mjs [--sizes 100000,1000000] [--runs 15] [--json]
//   [--no-time]  (measure RSS with the in-process driver even when /usr/bin/time is present)
import { spawn, spawnSync } from "node:child_process";
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(ROOT, "dist/src/cli/main.js");
const AJV = join(ROOT, "node_modules/.bin/ajv");
const TIME = "/usr/bin/time";
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const SIZES = String(arg("--sizes", "100000,1000000")).split(",").map(Number);
const RUNS = Number(arg("--runs", 15));
const JSON_OUT = process.argv.includes("--json");
const TARGET_RPS = 250_000;
const TARGET_RSS_MB = 200;
const TARGET_RATIO = 0.5;

if (!existsSync(CLI)) {
  console.error("bench/lint.mjs: dist/ is missing; run `npm run build` first");
  process.exit(2);
}

const WORK = join(tmpdir(), "vsk-bench-lint");
mkdirSync(WORK, { recursive: true });

// ---------------------------------------------------------------------------------------------
// Data: one line per request, chosen by a seeded PRNG so every run lints the same file.

const SIGNED = "https://cdn.example/img/%d.png?X-Amz-Signature=abc%d";
const url = (i) => SIGNED.replaceAll("%d", String(i));
/** [valid, invalid] line makers per endpoint; each returns one NDJSON line. */
const MAKERS = [
  [
    (i) => ({
      model: "modelA",
      endpoint: "keyframes-to-video",
      input: {
        prompt: `a cat walks, take ${i}`,
        keyframes: [
          { image_url: url(i), frame_index: 0 },
          { image_url: url(i + 1), frame_index: 96 },
        ],
        duration: 5,
        resolution: "1080p",
      },
    }),
    (i) => ({
      model: "modelA",
      endpoint: "keyframes-to-video",
      input: {
        prompt: `a cat walks, take ${i}`,
        keyframes: [
          { image_url: url(i), frame_index: 0 },
          { image_url: url(i + 1), frame_index: 130 },
        ],
      },
    }),
  ],
  [
    (i) => ({
      model: "example/model-a",
      endpoint: "text-to-video",
      input: { prompt: `a sunrise over the sea, take ${i}`, aspect_ratio: "16:9", duration: "auto" },
    }),
    (i) => ({
      model: "example/model-a",
      endpoint: "text-to-video",
      input: { prompt: `a sunrise, take ${i}`, aspect_ratio: "17:9", duration: 40 },
    }),
  ],
  [
    (i) => ({
      model: "modelB",
      endpoint: "reference-to-video",
      input: { prompt: `image 1 dances, take ${i}`, reference_images: [url(i)], duration: 8, seed: i },
    }),
    (i) => ({
      model: "modelB",
      endpoint: "reference-to-video",
      input: { prompt: `image 1 dances, take ${i}`, file_url: url(i), duration: 31 },
    }),
  ],
  [
    (i) => ({
      model: "modelC",
      endpoint: "text-to-video",
      input: { prompt: `a red kite in the wind, take ${i}`, ratio: "9:16", duration: -1, resolution: "4k" },
    }),
    (i) => ({ model: "modelC", endpoint: "text-to-video", input: { prompt: `a red kite, take ${i}`, duration: 2 } }),
  ],
];

function mulberry32(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Writes (once) an NDJSON file of n mixed requests; returns its path and the invalid count. */
function dataFile(n) {
  const file = join(WORK, `requests-${n}.v1.ndjson`);
  const meta = `${file}.meta.json`;
  if (existsSync(file) && existsSync(meta)) {
    const m = JSON.parse(readFileSync(meta, "utf8"));
    if (m.size === statSync(file).size) return { file, ...m };
  }
  const random = mulberry32(42);
  const fd = openSync(file, "w");
  let batch = "";
  let invalid = 0;
  for (let i = 0; i < n; i++) {
    const bad = random() < 0.1;
    if (bad) invalid++;
    batch += JSON.stringify(MAKERS[Math.floor(random() * MAKERS.length)][bad ? 1 : 0](i)) + "\n";
    if (batch.length > 1 << 20) {
      writeSync(fd, batch);
      batch = "";
    }
  }
  writeSync(fd, batch);
  closeSync(fd);
  const m = { n, invalid, size: statSync(file).size };
  writeFileSync(meta, JSON.stringify(m));
  return { file, ...m };
}

// ---------------------------------------------------------------------------------------------
// Running the CLI

const haveTime =
  !process.argv.includes("--no-time") && existsSync(TIME) && spawnSync(TIME, ["-v", "true"]).status === 0;
const DRIVER = join(WORK, "rss-driver.mjs");
// Fallback when /usr/bin/time is missing: run main() in-process and print maxRSS to stderr.
writeFileSync(
  DRIVER,
  `const args = process.argv.slice(2);
process.argv.length = 1;  // main.js runs itself when imported with a script in argv[1]
const { main } = await import(${JSON.stringify(pathToFileURL(CLI).href)});
const code = await main(args);
process.on("exit", () => process.stderr.write("\\nVSK_MAXRSS_KB " + process.resourceUsage().maxRSS + "\\n"));
process.exitCode = code;
`,
);

/** Runs `vsk <args>` with stdout to /dev/null; returns wall ms, peak RSS (MB) and exit code. */
function runCli(args) {
  return new Promise((resolve, reject) => {
    const out = openSync("/dev/null", "w");
    const [cmd, argv] = haveTime
      ? [TIME, ["-v", process.execPath, CLI, ...args]]
      : [process.execPath, [DRIVER, ...args]];
    const started = performance.now();
    const child = spawn(cmd, argv, { stdio: ["ignore", out, "pipe"], cwd: WORK });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => {
      const ms = performance.now() - started;
      closeSync(out);
      const kb = haveTime
        ? /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr)?.[1]
        : /VSK_MAXRSS_KB (\d+)/.exec(stderr)?.[1];
      const status = haveTime ? Number(/Exit status: (\d+)/.exec(stderr)?.[1] ?? code) : code;
      resolve({ ms, rssMb: kb === undefined ? NaN : Number(kb) / 1024, code: status, stderr });
    });
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const fmt = (n, digits = 0) =>
  n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const verdict = (ok) => (ok ? "ok" : "MISSED");

const report = { throughput: [], coldStart: undefined };
let missed = 0;

// ---------------------------------------------------------------------------------------------
// (a) throughput and memory

console.log(
  `(a) streaming NDJSON, mixed requests (4 endpoints, envelopes, ~10% invalid), ${haveTime ? "peak RSS from /usr/bin/time -v" : "peak RSS from process.resourceUsage() in a driver"}`,
);
console.log(
  `    ${"requests".padStart(9)}  ${"format".padEnd(6)}  ${"wall s".padStart(7)}  ${"requests/s".padStart(10)}  ${"peak RSS MB".padStart(11)}  exit`,
);
for (const n of SIZES) {
  const started = performance.now();
  const data = dataFile(n);
  const genMs = performance.now() - started;
  if (genMs > 50)
    console.log(
      `    (generated ${data.file}: ${fmt(data.size / 1e6, 1)} MB, ${fmt(data.invalid)} invalid, in ${fmt(genMs / 1000, 1)} s)`,
    );
  // a small file gets 3 runs (median), a large one 1
  const runs = n <= 200_000 ? 3 : 1;
  for (const format of ["json", "pretty"]) {
    const got = [];
    for (let r = 0; r < runs; r++) got.push(await runCli(["lint", data.file, "--format", format]));
    const bad = got.find((g) => g.code !== 1);
    if (bad) {
      console.error(`    vsk lint exited ${bad.code} (expected 1: the file holds invalid requests)\n${bad.stderr}`);
      process.exitCode = 1;
    }
    const ms = median(got.map((g) => g.ms));
    const rss = Math.max(...got.map((g) => g.rssMb));
    const rps = n / (ms / 1000);
    // the requests/s target is for the largest log (a small one is dominated by start-up and JIT warm-up); RSS holds at every size
    const rateApplies = n === Math.max(...SIZES);
    const ok = (!rateApplies || rps >= TARGET_RPS) && rss <= TARGET_RSS_MB;
    if (!ok) missed++;
    report.throughput.push({ requests: n, format, wallMs: ms, requestsPerSecond: rps, peakRssMb: rss });
    console.log(
      `    ${fmt(n).padStart(9)}  ${format.padEnd(6)}  ${fmt(ms / 1000, 2).padStart(7)}  ${fmt(rps).padStart(10)}  ${fmt(rss, 1).padStart(11)}  ${got[0].code}   ${verdict(ok)}${rateApplies ? "" : " (RSS only)"}`,
    );
  }
}
for (const format of ["json", "pretty"]) {
  const rows = report.throughput.filter((t) => t.format === format);
  if (rows.length > 1)
    console.log(
      `    ${format}: peak RSS at ${fmt(rows.at(-1).requests)} / at ${fmt(rows[0].requests)} requests = ${fmt(rows.at(-1).peakRssMb / rows[0].peakRssMb, 2)} (input ${fmt(rows.at(-1).requests / rows[0].requests)}x larger)`,
    );
}
console.log(
  `    targets: >= ${fmt(TARGET_RPS)} requests/s at ${fmt(Math.max(...SIZES))} requests, peak RSS <= ${TARGET_RSS_MB} MB and flat as the input grows`,
);

// ---------------------------------------------------------------------------------------------
// (b) cold start

const { loadModelDocument, parseModelText } = await import(pathToFileURL(join(ROOT, "dist/src/schema/index.js")).href);
const snapshot = join(ROOT, "schemas-cache/example/model-a/latest.json");
const origin = { model: "example/model-a", file: snapshot };
const model = loadModelDocument(parseModelText(readFileSync(snapshot, "utf8"), origin), origin);
const endpoint = model.endpoints.find((e) => e.endpoint === "keyframes-to-video");
const cold = join(WORK, "cold");
rmSync(cold, { recursive: true, force: true });
mkdirSync(cold);
const schemaFile = join(cold, "keyframes-to-video.input.schema.json");
writeFileSync(
  schemaFile,
  JSON.stringify({ $schema: "https://json-schema.org/draft/2020-12/schema", ...endpoint.input }, null, 2),
);
const payloadFile = join(cold, "file.json");
writeFileSync(
  payloadFile,
  JSON.stringify(
    {
      prompt: "a cat walks across the room",
      keyframes: [
        { image_url: "https://cdn.example/a.png", frame_index: 0 },
        { image_url: "https://cdn.example/b.png", frame_index: 96 },
      ],
      duration: 5,
    },
    null,
    2,
  ) + "\n",
);

const commands = {
  node: [process.execPath, ["-e", ""]],
  vsk: [process.execPath, [CLI, "lint", "file.json", "--model", "modelA", "--endpoint", "keyframes-to-video"]],
  ajv: [AJV, ["validate", "--spec=draft2020", "-c", "ajv-formats", "-s", schemaFile, "-d", payloadFile]],
};
/** Wall time of one run, ms; stdout/stderr discarded. */
function timeOnce(name) {
  const [cmd, argv] = commands[name];
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(cmd, argv, { stdio: ["ignore", "ignore", "pipe"], cwd: cold });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => {
      const ms = performance.now() - started;
      if (code !== 0) reject(new Error(`${name} exited ${code}: ${stderr}`));
      else resolve(ms);
    });
  });
}
const times = { node: [], vsk: [], ajv: [] };
for (const name of Object.keys(times)) await timeOnce(name); // warm the file system cache
for (let r = 0; r < RUNS; r++) for (const name of Object.keys(times)) times[name].push(await timeOnce(name));
const med = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
const ratio = med.vsk / med.ajv;
const netRatio = (med.vsk - med.node) / (med.ajv - med.node);
if (ratio > TARGET_RATIO) missed++;
report.coldStart = { runs: RUNS, medianMs: med, ratio, netRatio };
console.log(`\n(b) cold start on one small file, ${RUNS} interleaved runs each, median wall ms`);
console.log(`    node -e ""                 ${fmt(med.node, 1).padStart(7)}`);
console.log(
  `    vsk lint file.json         ${fmt(med.vsk, 1).padStart(7)}   minus node: ${fmt(med.vsk - med.node, 1)}`,
);
console.log(
  `    ajv validate (ajv-cli)     ${fmt(med.ajv, 1).padStart(7)}   minus node: ${fmt(med.ajv - med.node, 1)}`,
);
console.log(
  `    vsk / ajv = ${fmt(ratio, 2)} (target <= ${TARGET_RATIO}) ${verdict(ratio <= TARGET_RATIO)}; minus the node start: ${fmt(netRatio, 2)}`,
);

if (JSON_OUT) console.log(JSON.stringify(report));
if (missed > 0) console.log(`\n${missed} target(s) missed`);
