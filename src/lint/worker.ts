/**
 * A `vsk lint --jobs N` worker thread (src/lint/jobs.ts): lints the batches of NDJSON runs the
 * main thread posts (src/lint/batch.ts), one after the other, with the validator modules the main
 * thread resolved, and answers each in line order. It writes nothing itself.
 */
import { parentPort, workerData } from "node:worker_threads";
import { RegistryError, validatorLookup, type ValidatorRegistry } from "./registry.js";
import type { WarmSetup, WorkerSetup } from "./jobs.js";
import { batchLinter, type Batch, type BatchReply } from "./batch.js";

const port = parentPort!;
// a warm worker (jobs.ts `warmLintWorkers`) was started before its run knew the setup: the first message brings it
const setup: WorkerSetup = (workerData as { waitForSetup?: true } | undefined)?.waitForSetup
  ? await new Promise<WorkerSetup>((resolve) => port.once("message", (message: WarmSetup) => resolve(message.setup)))
  : (workerData as WorkerSetup);

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

const lint = batchLinter(registry, setup.target, setup.maxLineBytes, setup.output, setup.maxFindings, setup.words);

// one batch at a time, answered in the order posted (batchLinter lints them in that order)
port.on("message", (batch: Batch) => {
  void lint(batch).then(answer, (error: unknown) => {
    const e = error instanceof Error ? error : new Error(String(error));
    const code = (e as NodeJS.ErrnoException).code;
    answer({
      id: batch.id,
      error: {
        name: e.name,
        message: e.message,
        ...(e.stack === undefined ? {} : { stack: e.stack }),
        // a range's read error (src/lint/ranges.ts) keeps its code: the main thread words it
        ...(typeof code === "string" ? { code } : {}),
      },
    });
  });
});
function answer(reply: BatchReply): void {
  const transfer: ArrayBuffer[] = [];
  if ("rendered" in reply) transfer.push(reply.rendered.text.buffer as ArrayBuffer);
  if ("results" in reply)
    transfer.push(reply.results.lines.buffer as ArrayBuffer, reply.results.pairOf.buffer as ArrayBuffer);
  port.postMessage(reply, transfer);
}
// every validator imported before the first batch, so that no batch waits for one; one that
// fails to load fails the payloads that need it, as on the main thread (validatorOf keeps the rejection)
await Promise.all(
  [...registry.entries.values()].map((e) => Promise.resolve(registry.validatorOf(e.model, e.endpoint)).catch(() => {})),
);
port.postMessage({ ready: true });
