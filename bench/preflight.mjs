// The preflight (issue 26) on a batch: 1,000 payloads referencing 200 distinct URLs (150 images,
// 50 videos) on a local server (127.0.0.1, allowed) that answers each request after 50 ms, with
// one preflight run (`createPreflight`) at the default concurrency of 8 requests per host, the
// payloads checked all at once and then one after another (as `vsk lint --preflight` reads them). Prints the wall time against the ideal (distinct URLs ×
// latency ÷ concurrency), the requests sent, and the bytes read per video against its size.
import { readFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
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

const server = createServer((req, res) => {
  requests++;
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
  }, LATENCY_MS);
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

/** One run over every payload: all checked together (the library), or one after another (vsk lint's reading order). */
async function measure(together) {
  requests = 0;
  sent.png = sent.mp4 = 0;
  const run = createPreflight({ allowHosts: [host], concurrency });
  const start = performance.now();
  let findings = 0;
  try {
    if (together) {
      const results = await Promise.all(payloads.map((p) => run.check("example/model-b/reference-to-video", p)));
      findings = results.reduce((n, ds) => n + ds.length, 0);
    } else for (const p of payloads) findings += (await run.check("example/model-b/reference-to-video", p)).length;
  } finally {
    await run.close();
  }
  return { wall: performance.now() - start, findings, requests, mp4: sent.mp4, png: sent.png };
}

console.log(
  `preflight: ${PAYLOADS} payloads, ${distinct} distinct URLs, ${LATENCY_MS} ms latency, concurrency ${concurrency}`,
);
console.log(`  ideal (distinct URLs × latency ÷ concurrency): ${ideal.toFixed(0)} ms`);
// the media parsing is CPU work: on a busy machine the wall time says so
console.log(`  load average     ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores`);
let failed = false;
for (const [name, together] of [
  ["all payloads at once (createPreflight)", true],
  ["one payload after another (vsk lint --preflight)", false],
]) {
  const m = await measure(together);
  console.log(`  ${name}`);
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
server.close();
if (failed) process.exitCode = 1;
