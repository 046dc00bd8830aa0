/**
 * One batch of NDJSON runs linted into its reply (src/lint/jobs.ts): the work of a `--jobs`
 * worker thread (src/lint/worker.ts), which the main thread also does on the batches it keeps.
 * The reply is the format's rendered text with counts and tallies (`WorkerOutput` `rendered`),
 * or each result's fields.
 */
import { Linter, type FindingTotals, type LintDiagnostic, type LintResult, type Reporter } from "./lint.js";
import { inlineSink } from "./ndjson.js";
import type { ValidatorRegistry } from "./registry.js";
import type { LintTarget } from "./resolve.js";
import type { Batch, BatchReply, BatchResults, WorkerOutput } from "./jobs.js";
import { FORMATS, type LintFormat } from "./format/index.js";
import { SummaryTally } from "./format/summary.js";

/** What one batch's results become: started afresh for each batch, finished into its reply. */
interface Collector extends Reporter {
  finish(id: number, nonBlank: number): BatchReply;
}

/** The format's text of each result shown, with the batch's counts (the Linter's) and tallies. */
function renderedCollector(output: Extract<WorkerOutput, { kind: "rendered" }>, linter: () => Linter): Collector {
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
): (batch: Batch) => Promise<BatchReply> {
  const collector: Collector =
    output.kind === "rendered" ? renderedCollector(output, () => linter) : resultsCollector();
  const linter: Linter = new Linter(registry, target, collector, { maxLineBytes });
  linter.maxFindings = maxFindings;
  // one batch at a time, in the order handed over: the Linter's counts and the collector are the
  // batch's own until it is finished, and a payload may wait (a validator loading, a finding beside
  // an integer over 2^53 re-checked on the text) while the next batch is handed over (the main
  // thread hands over each batch it keeps without waiting for the one before)
  let queue: Promise<unknown> = Promise.resolve();
  return (batch) => {
    const reply = queue.then(() => lintBatch(batch, linter, collector, maxLineBytes));
    queue = reply.catch(() => {});
    return reply;
  };
}

async function lintBatch(
  batch: Batch,
  linter: Linter,
  collector: Collector,
  maxLineBytes: number,
): Promise<BatchReply> {
  const { summary } = linter;
  summary.requests = summary.valid = summary.invalid = summary.warnings = 0;
  const bytes = Buffer.from(batch.bytes.buffer, batch.bytes.byteOffset, batch.bytes.byteLength);
  const { runs } = batch;
  const lines = inlineSink(batch.source, linter.payload, maxLineBytes);
  for (let i = 0; i < runs.length; i += 3) {
    const done = lines.lines(bytes, runs[i]!, runs[i + 1]!, runs[i + 2]!);
    if (typeof done !== "number") await done;
  }
  return collector.finish(batch.id, lines.nonBlank);
}
