/**
 * A `vsk lint --jobs N` worker thread (src/lint/jobs.ts): reads and validates the batches of
 * NDJSON lines the main thread posts, one after the other, with the validator modules the main
 * thread resolved, and answers each with its results in line order. It writes nothing itself.
 */
import { parentPort, workerData } from "node:worker_threads";
import { Linter, type LintDiagnostic } from "./lint.js";
import { readLine } from "./ndjson.js";
import { RegistryError, validatorLookup, type ValidatorRegistry } from "./registry.js";
import type { Batch, BatchReply, WorkerSetup } from "./jobs.js";

const setup = workerData as WorkerSetup;
const port = parentPort!;

const registry: ValidatorRegistry = {
  ...validatorLookup(setup.dir, new Map(setup.entries.map((e) => [e.key, e])), setup.models, (validator) => {
    const file = setup.files[validator];
    if (typeof file === "string") return Promise.resolve(file);
    const failure = file?.name === "RegistryError" || file === undefined ? new RegistryError("") : new Error("");
    failure.message = file?.error ?? `no module for the validator ${validator}`;
    return Promise.reject(failure);
  }),
  // said once by the main thread
  staleness: () => undefined,
  compiledNote: () => undefined,
  cacheWarning: () => undefined,
};

/** The results of the batch being linted. */
let pairs: Array<[string | null, string | null]> = [];
let pairIndex = new Map<string | null, Map<string | null, number>>();
let pairOf = new Int32Array(0);
let count = 0;
let diagnosedAt: number[] = [];
let diagnostics: LintDiagnostic[][] = [];

const linter = new Linter(
  registry,
  setup.target,
  {
    result(r) {
      let byEndpoint = pairIndex.get(r.model);
      if (byEndpoint === undefined) pairIndex.set(r.model, (byEndpoint = new Map()));
      let index = byEndpoint.get(r.endpoint);
      if (index === undefined) {
        index = pairs.length;
        pairs.push([r.model, r.endpoint]);
        byEndpoint.set(r.endpoint, index);
      }
      if (r.diagnostics.length > 0) {
        diagnosedAt.push(count);
        diagnostics.push(r.diagnostics);
      }
      pairOf[count++] = index;
    },
    end() {},
  },
  { maxLineBytes: setup.maxLineBytes },
);

async function lintBatch(batch: Batch): Promise<BatchReply> {
  pairs = [];
  pairIndex = new Map();
  pairOf = new Int32Array(batch.lines.length);
  count = 0;
  diagnosedAt = [];
  diagnostics = [];
  const bytes = Buffer.from(batch.bytes.buffer, batch.bytes.byteOffset, batch.bytes.byteLength);
  const { starts, ends, lines, source } = batch;
  for (let i = 0; i < lines.length; i++) {
    const done = readLine(bytes, starts[i]!, ends[i]!, { source, line: lines[i]! }, linter.payload, setup.maxLineBytes);
    if (done) await done;
  }
  return { id: batch.id, pairs, pairOf: pairOf.subarray(0, count), diagnosedAt, diagnostics };
}

// one batch at a time, in the order posted
let queue: Promise<void> = Promise.resolve();
port.on("message", (batch: Batch) => {
  queue = queue.then(async () => {
    let reply: BatchReply;
    try {
      reply = await lintBatch(batch);
    } catch (error) {
      const e = error instanceof Error ? error : new Error(String(error));
      reply = {
        id: batch.id,
        error: { name: e.name, message: e.message, ...(e.stack === undefined ? {} : { stack: e.stack }) },
      };
    }
    port.postMessage(reply, "pairOf" in reply ? [reply.pairOf.buffer as ArrayBuffer] : []);
  });
});
// every validator imported before the first batch, so that no batch waits for one; one that
// fails to load fails the payloads that need it, as on the main thread (validatorOf keeps the rejection)
await Promise.all(
  [...registry.entries.values()].map((e) => Promise.resolve(registry.validatorOf(e.model, e.endpoint)).catch(() => {})),
);
port.postMessage({ ready: true });
