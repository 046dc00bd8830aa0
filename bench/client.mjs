// The queue client's cost on a submit, beyond the validator: submits against the mock's
// in-process `fetch` (no network), with validation on and off, and the mock's `fetch` called
// directly with the same request (no client at all). Ratios are printed against the bare call.
// The generated client (`vsk generate`'s client.mts, built into dist/generated/) is the same code.
import { createQueueClient } from "../dist/src/client/index.js";
import { createClient } from "../dist/generated/client.mjs";
import { createMockService } from "../dist/src/mock/index.js";
import { endpoints } from "../dist/generated/index.mjs";

const root = new URL("..", import.meta.url).pathname;
const mock = createMockService({ cwd: root, key: "k", maxPredictions: 1_000_000 });
const key = "example/model-a/keyframes-to-video";
const input = {
  prompt: "A paper boat drifts down a rain gutter",
  keyframes: [
    { image_url: "https://cdn.example.com/boat-0.png", frame_index: 0 },
    { image_url: "https://cdn.example.com/boat-1.png", frame_index: 120 },
  ],
};
const inProcess = (url, init) => mock.fetch(new Request(url, init));
const base = "http://mock.test";
const validating = createQueueClient({ baseUrl: base, credentials: "k", endpoints, fetch: inProcess });
const trusting = createQueueClient({ baseUrl: base, credentials: "k", endpoints, fetch: inProcess, validate: false });
const generated = createClient({ baseUrl: base, credentials: "k", fetch: inProcess });
const bare = () =>
  mock
    .fetch(
      new Request(base + endpoints[key].path, {
        method: "POST",
        headers: { authorization: "Key k", "content-type": "application/json" },
        body: JSON.stringify(input),
      }),
    )
    .then((r) => r.text());

async function rate(name, fn, ms = 1500) {
  for (let i = 0; i < 200; i++) await fn(); // warm up
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < ms) {
    for (let i = 0; i < 50; i++) await fn();
    n += 50;
  }
  const perSecond = (n / (performance.now() - start)) * 1000;
  return { name, perSecond };
}

const rows = [];
for (let round = 0; round < 2; round++) {
  rows.length = 0;
  rows.push(await rate("mock.fetch, no client", bare));
  rows.push(await rate("client.submit, validate: false", () => trusting.submit(key, { input })));
  rows.push(await rate("client.submit, validating", () => validating.submit(key, { input })));
  rows.push(await rate("generated client.submit, validating", () => generated.submit(key, { input })));
}
const v0 = performance.now();
let n = 0;
while (performance.now() - v0 < 500) {
  for (let i = 0; i < 1000; i++) endpoints[key].validate(input);
  n += 1000;
}
const validatorPerSecond = (n / (performance.now() - v0)) * 1000;
const baseline = rows[0].perSecond;
for (const r of rows)
  console.log(
    `${r.name.padEnd(36)} ${(r.perSecond / 1000).toFixed(1).padStart(6)} k submits/s  ${(r.perSecond / baseline).toFixed(2)}× the bare call`,
  );
console.log(`${"validator alone".padEnd(36)} ${(validatorPerSecond / 1e6).toFixed(2).padStart(6)} M/s`);
const overhead = 1 / rows[1].perSecond - 1 / baseline;
console.log(
  `client overhead per submit: ${(overhead * 1e6).toFixed(1)} µs (${(overhead * baseline * 100).toFixed(1)}% of the bare call); validation adds ${((1 / rows[2].perSecond - 1 / rows[1].perSecond) * 1e6).toFixed(1)} µs`,
);
await mock.close();
