/**
 * One batch of NDJSON runs linted into its reply (src/lint/jobs.ts): the work of a `--jobs`
 * worker thread (src/lint/worker.ts), which the main thread also does on the batches it keeps.
 * The reply is the format's rendered text with counts and tallies (`WorkerOutput` `rendered`),
 * or each result's fields. A batch, its reply and `WorkerOutput` are declared here, their one
 * home: jobs.ts (which posts batches) and worker.ts import them, and this file imports neither.
 */
import {
  Linter,
  type FindingTotals,
  type LintDiagnostic,
  type LintResult,
  type RenderedBatch,
  type Reporter,
} from "./lint.js";
import { inlineSink, tooLongProblem } from "./ndjson.js";
import { ChunkReader, type FileRange } from "./ranges.js";
import type { ValidatorRegistry } from "./registry.js";
import type { LintTarget } from "./resolve.js";
import { FORMATS, type FormatName, type LintFormat, type RenderContext } from "./format/index.js";
import { SummaryTally } from "./format/summary.js";
import { Sink } from "./format/sink.js";

/**
 * How the workers hand results back: `rendered`, the format's own text with counts and tallies
 * (a format with `render`, and a reporter chain that takes `batch`); `results`, each result's
 * fields for `Linter.report`.
 */
export type WorkerOutput =
  | {
      kind: "rendered";
      format: FormatName;
      context: RenderContext;
      /** `--errors-only`: valid results are counted, not rendered */
      errorsOnly: boolean;
      /** `--summary-only`: nothing is rendered */
      hideResults: boolean;
      /** `--summary`: the batch's tallies go with its text */
      tally: boolean;
    }
  | { kind: "results" };

/**
 * One batch of one stream: runs of whole lines, `bytes[runs[3i], runs[3i+1])` starting at line
 * `runs[3i+2]` (ndjson.ts `eachLine`); or, for a plain file linted by ranges, the chunk the thread
 * reads itself (src/lint/ranges.ts; `bytes` and `runs` are then empty).
 */
export interface Batch {
  id: number;
  source: string;
  bytes: Uint8Array;
  runs: Int32Array;
  chunk?: { range: FileRange; index: number };
}

/** The results of a batch, one per non-blank line, in order, for `Linter.report`; diagnostics only where there are some. */
export interface BatchResults {
  lines: Int32Array;
  /** the (model, endpoint) pairs of this batch's results */
  pairs: Array<[string | null, string | null]>;
  /** result i is for pairs[pairOf[i]] */
  pairOf: Int32Array;
  /** the indices of the results that have diagnostics, ascending, and theirs */
  diagnosedAt: number[];
  diagnostics: LintDiagnostic[][];
  /** beside `diagnostics`: the payload's totals where its findings were capped, else null */
  totals: Array<FindingTotals | null>;
}

/** A worker's answer to a batch. */
export type BatchReply =
  | ({ id: number; nonBlank: number } & ({ rendered: RenderedBatch } | { results: BatchResults }))
  | { id: number; error: { name: string; message: string; stack?: string; code?: string } };

/** What one batch's results become: started afresh for each batch, finished into its reply. */
interface Collector extends Reporter {
  finish(id: number, nonBlank: number): BatchReply;
}

/** The format's text of each result shown, with the batch's counts (the Linter's) and tallies. */
function renderedCollector(output: Extract<WorkerOutput, { kind: "rendered" }>, linter: () => Linter): Collector {
  const format = FORMATS[output.format] as LintFormat;
  // the batch's bytes, written as the main thread's Sink writes them (encoded a few KiB of text at
  // a time into 64 KiB buffers; json's plain results from bytes made once), kept here until sent
  let pieces: Uint8Array[] = [];
  let size = 0;
  const sink = new Sink({
    write(chunk) {
      const piece = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
      pieces.push(piece);
      size += piece.length;
      return true; // never a drain to wait for
    },
    once: () => undefined,
  });
  const render = format.writer === undefined ? format.render!(output.context) : undefined;
  const write = format.writer?.(sink, output.context) ?? ((r: LintResult) => sink.write(render!(r)));
  let tally = output.tally ? new SummaryTally(Infinity) : undefined;
  return {
    result(r: LintResult) {
      tally?.add(r);
      if (output.hideResults || (output.errorsOnly && r.valid)) return;
      void write(r); // the kept stream never waits
    },
    end() {},
    finish(id, nonBlank) {
      /** The pieces in one buffer of its own, moved to the main thread (never a slice of node's shared pool). */
      const joined = (): Uint8Array => {
        void sink.flush();
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
          summary: { ...linter().summary },
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
  let totals: Array<FindingTotals | null> = [];
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
        totals.push(r.findings ?? null);
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
        totals,
      };
      lines = [];
      pairs = [];
      pairIndex = new Map();
      pairOf = [];
      diagnosedAt = [];
      diagnostics = [];
      totals = [];
      return { id, nonBlank, results };
    },
  };
}

/**
 * Lints batches as a `--jobs` worker does: each batch's runs cut into lines and read (`inlineSink`)
 * and validated by a Linter of its own, whose results become the batch's reply. The worker
 * threads run it, and the main thread on the batches it keeps (src/lint/jobs.ts), one batch after
 * the other however they are handed over.
 */
export function batchLinter(
  registry: ValidatorRegistry,
  target: LintTarget,
  maxLineBytes: number,
  output: WorkerOutput,
  /** `--max-findings-per-request` */
  maxFindings: number,
  /** whether findings are worded (`Linter.words`) */
  words = true,
): (batch: Batch) => Promise<BatchReply> {
  const collector: Collector =
    output.kind === "rendered" ? renderedCollector(output, () => linter) : resultsCollector();
  const linter: Linter = new Linter(registry, target, collector, { maxLineBytes });
  linter.maxFindings = maxFindings;
  linter.words = words;
  // one batch at a time, in the order handed over: the Linter's counts and the collector are the
  // batch's own until it is finished, and a payload may wait (a validator loading, a finding beside
  // an integer over 2^53 re-checked on the text) while the next batch is handed over (the main
  // thread hands over each batch it keeps without waiting for the one before)
  let queue: Promise<unknown> = Promise.resolve();
  // a chunk's bytes are read into one buffer, used before the next chunk is read (one batch at a time)
  const reader = new ChunkReader();
  return (batch) => {
    const reply = queue.then(() => lintBatch(batch, linter, collector, maxLineBytes, reader));
    queue = reply.catch(() => {});
    return reply;
  };
}

async function lintBatch(
  batch: Batch,
  linter: Linter,
  collector: Collector,
  maxLineBytes: number,
  reader: ChunkReader,
): Promise<BatchReply> {
  const { summary } = linter;
  summary.requests = summary.valid = summary.invalid = summary.warnings = 0;
  let bytes: Buffer;
  let runs: ArrayLike<number>;
  if (batch.chunk !== undefined) ({ bytes, runs } = reader.lines(batch.chunk.range, batch.chunk.index));
  else {
    bytes = Buffer.from(batch.bytes.buffer, batch.bytes.byteOffset, batch.bytes.byteLength);
    runs = batch.runs;
  }
  const lines = inlineSink(batch.source, linter.payload, maxLineBytes);
  let tooLong = 0;
  for (let i = 0; i < runs.length; i += 3) {
    if (runs[i]! < 0) {
      // a line over --max-line-bytes that a range did not read (src/lint/ranges.ts), reported as ndjson.ts reports it
      tooLong++;
      const done = linter.payload(
        { source: batch.source, line: runs[i + 2]! },
        undefined,
        tooLongProblem(maxLineBytes),
      );
      if (done) await done;
      continue;
    }
    const done = lines.lines(bytes, runs[i]!, runs[i + 1]!, runs[i + 2]!);
    if (typeof done !== "number") await done;
  }
  return collector.finish(batch.id, lines.nonBlank + tooLong);
}
