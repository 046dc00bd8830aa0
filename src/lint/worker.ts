/**
 * A `vsk lint --jobs N` worker thread (src/lint/jobs.ts): frames, reads and validates the batches
 * of NDJSON lines the main thread posts, one after the other, with the validator modules the main
 * thread resolved, and answers each in line order: with the format's rendered text, counts and
 * tallies (`WorkerOutput` `rendered`), or with each result's fields. It writes nothing itself.
 */
import { parentPort, workerData } from "node:worker_threads";
import { Linter, type LintDiagnostic, type LintResult, type Reporter } from "./lint.js";
import { eachLine, readLine } from "./ndjson.js";
import { RegistryError, validatorLookup, type ValidatorRegistry } from "./registry.js";
import type { Batch, BatchReply, BatchResults, WorkerSetup } from "./jobs.js";
import { FORMATS, type LintFormat } from "./format/index.js";
import { SummaryTally } from "./format/summary.js";

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

/** What one batch's results become: started afresh for each batch, finished into its reply. */
interface Collector extends Reporter {
  finish(id: number, nonBlank: number): BatchReply;
}

/** The format's text of each result shown, with the batch's counts (the Linter's) and tallies. */
function renderedCollector(): Collector {
  const output = setup.output;
  if (output.kind !== "rendered") throw new Error("a rendered collector for results output");
  const render = (FORMATS[output.format] as LintFormat).render!(output.context);
  // the batch's text, encoded to UTF-8 a 64 KiB piece at a time, as the main thread's Sink does
  // (a result at a time costs a call each; a whole batch's string at once, a long rope to flatten)
  let text = "";
  let pieces: Buffer[] = [];
  let size = 0;
  const cut = (): void => {
    const piece = Buffer.from(text, "utf8");
    pieces.push(piece);
    size += piece.length;
    text = "";
  };
  let tally = output.tally ? new SummaryTally(Infinity) : undefined;
  return {
    result(r: LintResult) {
      tally?.add(r);
      if (output.hideResults || (output.errorsOnly && r.valid)) return;
      text += render(r);
      if (text.length >= 1 << 16) cut();
    },
    end() {},
    finish(id, nonBlank) {
      /** The pieces in one buffer of its own, moved to the main thread (never a slice of node's shared pool). */
      const joined = (): Uint8Array => {
        if (text !== "") cut();
        const all = Buffer.allocUnsafeSlow(size); // every byte is set below
        let offset = 0;
        for (const piece of pieces) {
          all.set(piece, offset);
          offset += piece.length;
        }
        return all;
      };
      const reply: BatchReply = {
        id,
        nonBlank,
        rendered: {
          summary: { ...linter.summary },
          text: joined(),
          ...(tally === undefined ? {} : { tally: tally.data() }),
        },
      };
      pieces = [];
      size = 0;
      if (tally !== undefined) tally = new SummaryTally(Infinity);
      return reply;
    },
  };
}

/** Each result's line, model, endpoint and diagnostics, for the main thread's `Linter.report`. */
function resultsCollector(): Collector {
  let lines: number[] = [];
  let pairs: BatchResults["pairs"] = [];
  let pairIndex = new Map<string | null, Map<string | null, number>>();
  let pairOf: number[] = [];
  let diagnosedAt: number[] = [];
  let diagnostics: LintDiagnostic[][] = [];
  return {
    result(r: LintResult) {
      let byEndpoint = pairIndex.get(r.model);
      if (byEndpoint === undefined) pairIndex.set(r.model, (byEndpoint = new Map()));
      let index = byEndpoint.get(r.endpoint);
      if (index === undefined) {
        index = pairs.length;
        pairs.push([r.model, r.endpoint]);
        byEndpoint.set(r.endpoint, index);
      }
      if (r.diagnostics.length > 0) {
        diagnosedAt.push(pairOf.length);
        diagnostics.push(r.diagnostics);
      }
      pairOf.push(index);
      lines.push(r.line);
    },
    end() {},
    finish(id, nonBlank) {
      const results: BatchResults = {
        lines: Int32Array.from(lines),
        pairs,
        pairOf: Int32Array.from(pairOf),
        diagnosedAt,
        diagnostics,
      };
      lines = [];
      pairs = [];
      pairIndex = new Map();
      pairOf = [];
      diagnosedAt = [];
      diagnostics = [];
      return { id, nonBlank, results };
    },
  };
}

const collector = setup.output.kind === "rendered" ? renderedCollector() : resultsCollector();
const linter = new Linter(registry, setup.target, collector, { maxLineBytes: setup.maxLineBytes });

async function lintBatch(batch: Batch): Promise<BatchReply> {
  const { summary } = linter;
  summary.requests = summary.valid = summary.invalid = summary.warnings = 0;
  const bytes = Buffer.from(batch.bytes.buffer, batch.bytes.byteOffset, batch.bytes.byteLength);
  const { runs, source } = batch;
  let nonBlank = 0;
  const each = (buffer: Buffer, start: number, end: number, line: number): void | Promise<void> => {
    nonBlank++;
    return readLine(buffer, start, end, { source, line }, linter.payload, setup.maxLineBytes);
  };
  for (let i = 0; i < runs.length; i += 3) {
    const done = eachLine(bytes, runs[i]!, runs[i + 1]!, runs[i + 2]!, each);
    if (typeof done !== "number") await done;
  }
  return collector.finish(batch.id, nonBlank);
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
    const transfer: ArrayBuffer[] = [];
    if ("rendered" in reply) transfer.push(reply.rendered.text.buffer as ArrayBuffer);
    if ("results" in reply)
      transfer.push(reply.results.lines.buffer as ArrayBuffer, reply.results.pairOf.buffer as ArrayBuffer);
    port.postMessage(reply, transfer);
  });
});
// every validator imported before the first batch, so that no batch waits for one; one that
// fails to load fails the payloads that need it, as on the main thread (validatorOf keeps the rejection)
await Promise.all(
  [...registry.entries.values()].map((e) => Promise.resolve(registry.validatorOf(e.model, e.endpoint)).catch(() => {})),
);
port.postMessage({ ready: true });
