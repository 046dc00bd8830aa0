// The preflight (issues 26, 37.7) on a batch. Part 1, the library: 1,000 payloads referencing
// 200 distinct URLs (150 images, 50 videos) on a local server (127.0.0.1, allowed) that answers
// each request after 50 ms, checked all at once by one `createPreflight` run at the default
// concurrency of 8 per host. Part 2, `vsk lint --preflight` (bin/vsk.mjs in a child process)
// on the issue's two scenarios: that log, and 40 URLs at 300 ms with --preflight-concurrency 4;
// each prints its wall time against the ideal (distinct URLs × latency ÷ concurrency, the per-host
// limit setting the pace), the most requests the server saw at once (never above the limit) and
// the child's peak RSS. Part 3: peak RSS of `vsk lint --preflight` at 1k and 100k payloads, each
// with its own data: URI (every one distinct) and one of the 200 URLs: flat when the run keeps
// verdicts only (issue 37.6). Exit 1 when a ratio is above 1.5 or the limit was passed.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, createWriteStream } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { createServer } from "node:http";
import { createPreflight, PREFLIGHT_DEFAULTS } from "../dist/src/index.js";

const LATENCY_MS = 50;
const PAYLOADS = 1000;
const IMAGES = 150;
const VIDEOS = 50;
const fixtures = new URL("../test/fixtures/preflight/", import.meta.url);
const files = {
  png: readFileSync(new URL("image.png", fixtures)),
  mp4: readFileSync(new URL("video-24fps.mp4", fixtures)),
};
const sent = { png: 0, mp4: 0 };
let requests = 0;
let inFlight = 0;
let most = 0;
let latency = LATENCY_MS;

const server = createServer((req, res) => {
  requests++;
  inFlight++;
  most = Math.max(most, inFlight);
  res.on("close", () => inFlight--);
  const kind = /\.mp4(\?|$)/.test(req.url ?? "") ? "mp4" : "png";
  const bytes = files[kind];
  setTimeout(() => {
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? "");
    if (range === null) {
      sent[kind] += bytes.length;
      return res.writeHead(200, { "content-length": bytes.length }).end(bytes);
    }
    const start = Number(range[1]);
    const end = Math.min(range[2] === "" ? bytes.length - 1 : Number(range[2]), bytes.length - 1);
    const body = bytes.subarray(start, end + 1);
    sent[kind] += body.length;
    res
      .writeHead(206, { "content-range": `bytes ${start}-${end}/${bytes.length}`, "content-length": body.length })
      .end(body);
  }, latency);
});
await new Promise((done) => server.listen(0, "127.0.0.1", done));
const host = `127.0.0.1:${server.address().port}`;
const image = (i) => `http://${host}/img/${i}.png?X-Amz-Signature=s${i}`;
const video = (i) => `http://${host}/vid/${i}.mp4`;

// each payload: two images and one video, drawn so that all 200 URLs are referenced
const payloads = Array.from({ length: PAYLOADS }, (_, p) => ({
  prompt: "a paper boat",
  reference_images: [image(p % IMAGES), image((p * 7 + 3) % IMAGES)],
  reference_videos: [video(p % VIDEOS)],
}));

const concurrency = PREFLIGHT_DEFAULTS.concurrency;
const distinct = IMAGES + VIDEOS;
const ideal = (distinct * LATENCY_MS) / concurrency;

/** The library: one run over every payload, all checked together. */
async function measureLibrary() {
  requests = 0;
  most = 0;
  sent.png = sent.mp4 = 0;
  const run = createPreflight({ allowHosts: [host], concurrency });
  const start = performance.now();
  let findings = 0;
  try {
    const results = await Promise.all(payloads.map((p) => run.check("example/model-b/reference-to-video", p)));
    findings = results.reduce((n, ds) => n + ds.length, 0);
  } finally {
    await run.close();
  }
  return { wall: performance.now() - start, findings, requests, mp4: sent.mp4, png: sent.png };
}

const work = mkdtempSync(join(tmpdir(), "vsk-bench-preflight-"));
const rssHook = join(work, "rss.mjs");
writeFileSync(
  rssHook,
  'process.on("exit", () => process.stderr.write(`\\nvsk-bench-maxrss ${process.resourceUsage().maxRSS}\\n`));\n',
);
const envelope = (input) => JSON.stringify({ model: "example/model-b", endpoint: "reference-to-video", input });

/** `vsk lint --preflight` on a log, in a child process: wall time, exit code, peak RSS (KiB). */
function lint(file, extra) {
  const args = ["--import", rssHook, new URL("../bin/vsk.mjs", import.meta.url).pathname, "lint", "--preflight"];
  args.push("--preflight-allow-host", host, ...extra, "--format", "json", "--summary-only", file);
  return new Promise((done, fail) => {
    const start = performance.now();
    const child = spawn(process.execPath, args, { cwd: work, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (c) => (stderr += c));
    child.on("error", fail);
    child.on("exit", (code) => {
      const rss = Number(/vsk-bench-maxrss (\d+)/.exec(stderr)?.[1] ?? NaN);
      done({ wall: performance.now() - start, code, rss, stderr });
    });
  });
}

console.log(
  `preflight: ${PAYLOADS} payloads, ${distinct} distinct URLs, ${LATENCY_MS} ms latency, concurrency ${concurrency}`,
);
console.log(`  ideal (distinct URLs × latency ÷ concurrency): ${ideal.toFixed(0)} ms`);
// the media parsing is CPU work: on a busy machine the wall time says so
console.log(`  load average     ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores`);
let failed = false;
{
  const m = await measureLibrary();
  console.log(`  the library, all payloads at once (createPreflight)`);
  console.log(`    wall time        ${m.wall.toFixed(0)} ms (${(m.wall / ideal).toFixed(2)}× the ideal)`);
  console.log(`    requests         ${m.requests} (${(m.requests / distinct).toFixed(2)} per distinct URL)`);
  console.log(
    `    bytes per video  ${(m.mp4 / VIDEOS / 1024).toFixed(1)} KiB read of a ${(files.mp4.length / 1024).toFixed(1)} KiB MP4`,
  );
  console.log(
    `    bytes per image  ${(m.png / IMAGES / 1024).toFixed(1)} KiB read of a ${(files.png.length / 1024).toFixed(1)} KiB PNG`,
  );
  if (m.findings !== 0) {
    console.log(`    ${m.findings} findings: expected none (every file is valid)`);
    failed = true;
  }
}

// what a lint run costs with no file to fetch (the process's start, the validators): taken off
writeFileSync(join(work, "none.ndjson"), envelope({ prompt: "a paper boat" }) + "\n");
const starts = [];
for (let i = 0; i < 3; i++) starts.push((await lint("none.ndjson", [])).wall);
const startup = Math.min(...starts);
console.log(
  `  vsk lint --preflight on a log with no URL (the process's start): ${startup.toFixed(0)} ms, taken off below`,
);

/** One lint scenario, its ratio to the ideal and the most requests in flight. */
async function scenario(name, file, lines, ms, limit, urls) {
  writeFileSync(join(work, file), lines.join("\n") + "\n");
  latency = ms;
  requests = 0;
  most = 0;
  const r = await lint(file, ["--preflight-concurrency", String(limit)]);
  const best = (urls * ms) / limit;
  const ratio = (r.wall - startup) / best;
  console.log(`  vsk lint --preflight: ${name}`);
  console.log(
    `    wall time        ${r.wall.toFixed(0)} ms, ${(r.wall - startup).toFixed(0)} ms past the start, against an ideal of ${best.toFixed(0)} ms: ${ratio.toFixed(2)}× (at most 1.5×)`,
  );
  console.log(`    in flight        at most ${most} requests at once (the limit: ${limit})`);
  console.log(`    peak RSS         ${(r.rss / 1024).toFixed(0)} MiB`);
  if (r.code !== 0 || ratio > 1.5 || most > limit) {
    console.log(
      `    FAILED (exit ${r.code}${r.code !== 0 ? `: ${r.stderr.trim().split("\n").slice(-3).join(" | ")}` : ""})`,
    );
    failed = true;
  }
}

await scenario(
  `${PAYLOADS} payloads, ${distinct} URLs at ${LATENCY_MS} ms, --preflight-concurrency ${concurrency}`,
  "scenario-1.ndjson",
  payloads.map((p) => envelope(p)),
  LATENCY_MS,
  concurrency,
  distinct,
);
await scenario(
  "40 payloads, 40 URLs at 300 ms, --preflight-concurrency 4",
  "scenario-2.ndjson",
  Array.from({ length: 40 }, (_, i) => envelope({ prompt: "a paper boat", reference_images: [image(i)] })),
  300,
  4,
  40,
);

// peak RSS against the number of payloads: each with a distinct data: URI (a 1×1 PNG and a
// counter in a tEXt-like tail) and one of the 200 URLs, at 1 ms latency
latency = 1;
const png = files.png;
// VSK_BENCH_RSS_COUNTS=1000,1000000 for a longer look
const counts = (process.env.VSK_BENCH_RSS_COUNTS ?? "1000,100000").split(",").map(Number);
for (const count of counts) {
  const file = `rss-${count}.ndjson`;
  const out = createWriteStream(join(work, file));
  for (let i = 0; i < count; i++) {
    const uri = `data:image/png;base64,${Buffer.concat([png, Buffer.from(`#${i}`)]).toString("base64")}`;
    const line = envelope({ prompt: "a paper boat", reference_images: [uri, image(i % IMAGES)] }) + "\n";
    if (!out.write(line)) await new Promise((go) => out.once("drain", go));
  }
  await new Promise((go) => out.end(go));
  const r = await lint(file, []);
  console.log(
    `  peak RSS at ${String(count).padStart(7)} payloads (distinct data: URIs)  ${(r.rss / 1024).toFixed(0)} MiB, ${(r.wall / 1000).toFixed(1)} s`,
  );
  if (r.code !== 0) {
    console.log(`    FAILED (exit ${r.code}: ${r.stderr.trim().split("\n").slice(-3).join(" | ")})`);
    failed = true;
  }
}

server.close();
rmSync(work, { recursive: true, force: true });
if (failed) process.exitCode = 1;
