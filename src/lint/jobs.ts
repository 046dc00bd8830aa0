/**
 * `vsk lint --jobs N` (issue 25.4): NDJSON streams linted on N worker threads
 * (src/lint/worker.ts). This thread reads each stream and cuts it into runs of whole lines
 * (ndjson.ts: binary, too-long and empty files, line numbers), gathers runs into batches and
 * posts them; the workers frame the lines, read and validate them with the very validator
 * modules this thread would import (registry.ts `moduleFile`), and, when the format can
 * (`LintFormat.render`: pretty and json), write the batch's output text themselves, with its
 * counts and `--summary` tallies; this thread writes the batches in input order, so the output is
 * the one `--jobs 1` writes, byte for byte. For the other formats (and the Action's `observe`)
 * they send each result's line, model, endpoint and diagnostics, handed to the format in order
 * through `Linter.report`.
 *
 * - N threads lint: N - 1 workers, and this thread, which lints a batch itself (src/lint/batch.ts,
 *   the workers' own code) when every worker has `PER_WORKER` in flight, up to `KEPT` of them.
 * - Small inputs stay here: workers start only once `INLINE_LINES` lines were linted in a run
 *   (and not when the plain file being read has less than `MIN_REMAINING_BYTES` left), and lines
 *   keep being linted here until one of them is ready (so `vsk lint one.json` starts no thread,
 *   and a run never waits for a worker's start-up).
 * - Memory is flat: at most `PER_WORKER` batches per worker are in flight; posting one more
 *   waits for the oldest to be reported (backpressure down to the reading).
 * - `.json` documents and `--preflight` (network work, src/lint/preflight.ts) stay on this thread.
 * - A worker that fails fails the run: its error (the validator's own, a `RegistryError` as
 *   `--jobs 1` throws it) rejects every batch in flight; `close()` ends the threads.
 */
import type { Worker } from "node:worker_threads";
import { closeSync, fstatSync, openSync, readSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import {
  DEFAULT_MAX_FINDINGS,
  type FindingTotals,
  type LintDiagnostic,
  type LineJobs,
  type Linter,
  type OpenedFile,
} from "./lint.js";
import type { Compression } from "./compressed.js";
import { countLines, emptyProblem, readLines, type LineSink } from "./ndjson.js";
import { looksBinary } from "./decode.js";
import { isNdjsonPath } from "./inputs.js";
import { chunkCount, type FileRange } from "./ranges.js";
import { batchLinter, type Batch, type BatchReply, type WorkerOutput } from "./batch.js";
import type { PlatformBuffer } from "../platform/index.js";
import { RegistryError, type EndpointEntry, type ValidatorRegistry } from "./registry.js";
import type { LintTarget } from "./resolve.js";
import type { ModelRef } from "../config/index.js";

/**
 * The most threads `--jobs`' default takes: each worker costs ~70 MB and its start-up, and a
 * container's CPU quota is not in `availableParallelism()` (issue 25.4: "the machine's cores, capped").
 */
export const DEFAULT_JOBS_CAP = 4;
/** The largest `--jobs` accepted. */
export const MAX_JOBS = 64;
/**
 * The test hook of the thresholds below (issue 42.4): `VSK_TEST_LINT_JOBS="L/B"` (test only: the
 * `--jobs` tests set it, nobody else should, as `VSK_TEST_KILL_AT` in src/durable/crash-hook.ts)
 * divides the start thresholds (lines by L, bytes by B) and a range's chunk (by B; not the batch
 * sizes), so the tests cross them, and many chunk boundaries, with inputs of kilobytes instead of
 * tens of megabytes. This is the only place that reads it.
 */
const TEST_SCALE = /^(\d{1,4})\/(\d{1,4})$/.exec(process.env.VSK_TEST_LINT_JOBS ?? "");
const lines = (n: number) => (TEST_SCALE === null ? n : Math.max(1, Math.floor(n / Number(TEST_SCALE[1]) || n)));
const bytes = (n: number) => (TEST_SCALE === null ? n : Math.max(1, Math.floor(n / Number(TEST_SCALE[2]) || n)));

/** Lines linted on this thread before workers start: below it, a run never pays their start-up. */
export const INLINE_LINES = lines(10_000);
/**
 * With `--jobs N` typed: workers are not started for a plain file with less than this left to
 * read (stdin and compressed files: how much is left is not known, so they start).
 */
export const MIN_REMAINING_BYTES = bytes(8 * 1024 * 1024);
/**
 * Without `--jobs` (the default, the cores): workers start only for a file with at least this
 * much left to read (a gzip file: left to decompress, by its trailer's size), where they paid on
 * 2 cores (2026-11-26, `--format json`: a 20 MB log ran 0-20% slower with a worker, plain or
 * gzip, a 52 MB log -10% to +10%, 100 MB and more 10-20% faster). Stdin and brotli files, whose
 * size is not known, start them as a typed `--jobs` does.
 */
export const AUTO_MIN_REMAINING_BYTES = bytes(64 * 1024 * 1024);

/**
 * What a gzip file of `size` bytes decompresses to, from its trailer (RFC 1952 ISIZE: the size
 * modulo 2^32, of the last member only). A size below the compressed one has wrapped past 4 GiB,
 * and a trailer that cannot be read says nothing: Infinity.
 */
function gzipSize(path: string, size: number): number {
  const trailer = Buffer.alloc(4);
  const fd = openSync(path, "r");
  try {
    if (size < 18 || readSync(fd, trailer, 0, 4, size - 4) !== 4) return Infinity;
  } finally {
    closeSync(fd);
  }
  const isize = trailer.readUInt32LE(0);
  return isize < size ? Infinity : isize;
}
/** A batch is posted once it holds this many bytes or lines (a run of whole lines is never cut). */
const BATCH_BYTES = 256 * 1024;
const BATCH_LINES = 4096;
/**
 * Bytes per chunk of a plain file linted by ranges (src/lint/ranges.ts), a batch's size: the
 * chunk and what is read on to finish its last line are one buffer per thread.
 */
const CHUNK_BYTES = bytes(BATCH_BYTES);
/** Each range's number (src/lint/ranges.ts `FileRange.id`). */
let rangeIds = 0;
/** Batches in flight per worker: enough that none waits for the next, few enough that memory stays flat. */
const PER_WORKER = 3;
/**
 * Batches this thread lints itself while every worker is busy, before it waits for the oldest
 * (src/lint/batch.ts). With 2 this thread waited ~25% of a 1M-line run on 2 cores; 8 (~2 MB of
 * rendered text held) cut that wait and gained ~5% (bench/lint.mjs (c)).
 */
const KEPT = 8;

/**
 * `--jobs`' default: the cores this process may run on, at most {@link DEFAULT_JOBS_CAP}. Measured
 * on 2 cores (1M lines, json, the same run): 1.2-1.4x faster than one thread, where two separate
 * processes on the halves get 1.27-1.44x, for ~1.3x the CPU and +75 MB (docs/lint.md); workers
 * start only for a large NDJSON input.
 */
export function defaultJobs(): number {
  return Math.max(1, Math.min(availableParallelism(), DEFAULT_JOBS_CAP));
}

/** What a worker is started with (`workerData`): the registry's manifest and the module file of each validator. */
export interface WorkerSetup {
  dir: string;
  entries: EndpointEntry[];
  models: readonly ModelRef[];
  /** validator (as endpoints.json names it) → its JavaScript module, or why this thread could not get one */
  files: Record<string, string | { error: string; name: string }>;
  target: LintTarget;
  maxLineBytes: number;
  /** `--max-findings-per-request` */
  maxFindings: number;
  /** whether findings are worded (`Linter.words`) */
  words: boolean;
  output: WorkerOutput;
}

/** The first message a warm worker gets ({@link warmLintWorkers}): what it would have had as `workerData`. */
export interface WarmSetup {
  setup: WorkerSetup;
}

/** A worker thread stopped (it crashed, ran out of memory, or was ended): the CLI says so in one line, exit 2. */
export class LintWorkerError extends Error {
  override name = "LintWorkerError";
}

/**
 * What a worker threw while linting a batch, thrown here as `--jobs 1` would have thrown it: the
 * registry's own errors as such (exit 2), anything else (a bug) with the worker's stack.
 */
function thrownByWorker(error: { name: string; message: string; stack?: string; code?: string }): Error {
  if (error.name === "RegistryError") return new RegistryError(error.message);
  const failure = new Error(error.message);
  if (error.stack !== undefined) failure.stack = error.stack;
  // a read error of a range (src/lint/ranges.ts: EIO, a file that got shorter) is said as this thread says it (src/lint/run.ts)
  if (error.code !== undefined) Object.assign(failure, { code: error.code });
  return failure;
}

/** A worker thread that stopped, as one sentence. */
function stopped(jobs: number, what: string): LintWorkerError {
  return new LintWorkerError(
    `--jobs ${jobs}: a worker thread stopped (${what}); the results before it were written: run again, or with --jobs 1 to lint on one thread`,
  );
}

interface Slot {
  worker: Worker;
  ready: boolean;
  pending: Map<number, { resolve: (reply: BatchReply) => void; reject: (error: Error) => void }>;
}

/**
 * Worker threads started before the run knew its setup ({@link warmLintWorkers}), each loading its
 * modules while this thread reads the config and the validators; a pool takes them first.
 */
const warm: Worker[] = [];

/** The worker script, next to this file's build (dist/src/lint/ and the bundled dist/cli/ alike). */
const WORKER_SCRIPT = (): URL => new URL("./worker.js", import.meta.url);

/**
 * Starts `count` worker threads that load their modules and wait for their setup, for a run that
 * is known to need them (the CLI: a large plain NDJSON file and `--jobs` > 1): a worker's start
 * (~150 ms on a loaded 2-core machine, most of it loading modules) then overlaps this thread's own
 * (config, registry), where a core is idle, instead of its linting. Unused ones are ended by
 * {@link coolLintWorkers} and never hold the process (unref). Fails silently where workers cannot
 * start: the pool then starts its own, and says so if those fail too.
 */
function warmLintWorkers(count: number): Promise<void> {
  return (warming = warming.then(() => startWarm(count)));
}

/** The warm-up under way (node:worker_threads is loaded only for it). */
let warming: Promise<void> = Promise.resolve();

async function startWarm(count: number): Promise<void> {
  try {
    const { Worker } = await import("node:worker_threads");
    for (let i = warm.length; i < count; i++) {
      const worker = new Worker(WORKER_SCRIPT(), { workerData: { waitForSetup: true } });
      worker.unref();
      // one that fails before a pool takes it is dropped: the pool starts a fresh one
      const drop = (): void => {
        const at = warm.indexOf(worker);
        if (at >= 0) warm.splice(at, 1);
      };
      worker.once("error", drop).once("exit", drop);
      warm.push(worker);
    }
  } catch {
    // no worker threads here: the pool's own start says so
  }
}

/** Ends the warm workers no pool took (the run needed none after all, or failed first). */
export async function coolLintWorkers(): Promise<void> {
  await warming;
  for (const worker of warm.splice(0)) void worker.terminate();
}

/**
 * Warms `threads - 1` workers ({@link warmLintWorkers}) when one of `inputs`, as typed, is an
 * NDJSON file large enough for workers (what `ranges` and the batches start them for); a
 * directory, a glob or stdin warms none (their workers start as before, when they pay).
 */
export function warmForInputs(inputs: readonly string[], cwd: string, threads: number, auto: boolean): void {
  if (threads < 2) return;
  const min = auto ? AUTO_MIN_REMAINING_BYTES : MIN_REMAINING_BYTES;
  for (const input of inputs) {
    if (!isNdjsonPath(input)) continue;
    try {
      const stat = statSync(resolve(cwd, input));
      if (stat.isFile() && stat.size >= min) return void warmLintWorkers(threads - 1);
    } catch {
      // not there: said when it is read
    }
  }
}

/** The worker threads of one run. */
class WorkerPool {
  private readonly slots: Slot[] = [];
  private nextId = 0;
  private failure: Error | undefined;
  private closing = false;
  /** whether a batch was ever posted: a pool that fails before is left for this thread, with a warning */
  used = false;

  constructor(
    WorkerClass: typeof Worker,
    count: number,
    /** `--jobs`, as messages name it */
    jobs: number,
    setup: WorkerSetup,
    private readonly onEarlyFailure: (error: Error) => void,
  ) {
    for (let i = 0; i < count; i++) {
      const taken = warm.shift();
      const worker = taken ?? new WorkerClass(WORKER_SCRIPT(), { workerData: setup });
      if (taken !== undefined) {
        taken.removeAllListeners("error").removeAllListeners("exit");
        taken.ref();
        taken.postMessage({ setup } satisfies WarmSetup);
      }
      const slot: Slot = { worker, ready: false, pending: new Map() };
      worker.on("message", (message: { ready: true } | BatchReply) => {
        if ("ready" in message) {
          slot.ready = true;
          return;
        }
        const waiting = slot.pending.get(message.id);
        if (waiting === undefined) return;
        slot.pending.delete(message.id);
        if ("error" in message) waiting.reject(thrownByWorker(message.error));
        else waiting.resolve(message);
      });
      // an uncaught error (out of memory, a module that cannot load) or an exit: the thread is gone
      worker.on("error", (error: Error) => this.fail(stopped(jobs, error.message)));
      worker.on("messageerror", (error: Error) => this.fail(stopped(jobs, error.message)));
      worker.on("exit", (code) => this.fail(stopped(jobs, `exit code ${code}`)));
      this.slots.push(slot);
    }
  }

  get ready(): boolean {
    return this.failure === undefined && this.slots.some((s) => s.ready);
  }

  get failed(): boolean {
    return this.failure !== undefined;
  }

  /** Batches that may be in flight at once. */
  get capacity(): number {
    return this.slots.length * PER_WORKER;
  }

  /** Batches in flight. */
  get busy(): number {
    let n = 0;
    for (const slot of this.slots) n += slot.pending.size;
    return n;
  }

  private fail(error: Error): void {
    if (this.failure !== undefined || this.closing) return;
    this.failure = error;
    if (!this.used) this.onEarlyFailure(error);
    for (const slot of this.slots) {
      for (const waiting of slot.pending.values()) waiting.reject(error);
      slot.pending.clear();
    }
    this.close();
  }

  /** Posts a batch to the ready worker with the fewest in flight; resolves with its results. */
  submit(batch: Omit<Batch, "id">): Promise<BatchReply> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    this.used = true;
    let best: Slot | undefined;
    for (const slot of this.slots)
      if (slot.ready && (best === undefined || slot.pending.size < best.pending.size)) best = slot;
    const slot = best!;
    const id = this.nextId++;
    return new Promise<BatchReply>((resolve, reject) => {
      slot.pending.set(id, { resolve, reject });
      slot.worker.postMessage({ ...batch, id } satisfies Batch, [
        batch.bytes.buffer as ArrayBuffer,
        batch.runs.buffer as ArrayBuffer,
      ]);
    });
  }

  /**
   * Ends the threads without waiting for them: every result was already written, and a worker
   * still starting up would hold the run's end for its whole start-up (unref: the process may exit).
   */
  close(): void {
    this.closing = true;
    for (const { worker } of this.slots) {
      worker.unref();
      void worker.terminate();
    }
  }
}

/** `--jobs N` for one run: the pool, started when the run has linted `INLINE_LINES` lines. */
export class LintJobs implements LineJobs {
  private inline = 0;
  private pool: WorkerPool | undefined;
  private starting: Promise<void> | undefined;
  private here: ((batch: Batch) => Promise<BatchReply>) | undefined;
  /** `--max-findings-per-request`, as the main thread's Linter has it */
  maxFindings = DEFAULT_MAX_FINDINGS;
  /** whether findings are worded, as the main thread's Linter has it (`Linter.words`) */
  words = true;

  constructor(
    private readonly jobs: number,
    private readonly registry: ValidatorRegistry,
    private readonly target: LintTarget,
    private readonly maxLineBytes: number,
    /** how the workers hand results back */
    private readonly output: WorkerOutput,
    /** a warning when the workers could not start (the run goes on, on this thread) */
    private readonly warn: (text: string) => void,
    /** the default `--jobs` (not typed): workers start only where they pay ({@link AUTO_MIN_REMAINING_BYTES}) */
    readonly auto = false,
  ) {}

  /**
   * Whether a line may go to a worker now; counts it otherwise, and starts the workers past the
   * threshold, unless `worth` says the stream ends soon (a plain file with little left to read).
   */
  batching(worth: () => boolean): WorkerPool | undefined {
    const pool = this.pool;
    if (pool !== undefined && pool.ready) return pool;
    if (++this.inline >= INLINE_LINES && this.starting === undefined && worth()) this.starting = this.start();
    return undefined;
  }

  private async start(): Promise<void> {
    const files: WorkerSetup["files"] = {};
    // resolved here, so that the workers import the very modules this thread would (and nothing compiles twice)
    await Promise.all(
      [...this.registry.entries.values()].map(async (e) => {
        try {
          files[e.validator] = await this.registry.moduleFile(e.key);
        } catch (error) {
          // said by the worker that needs it, as this thread would say it (a RegistryError: exit 2)
          const { name, message } = error instanceof Error ? error : new Error(String(error));
          files[e.validator] = { error: message, name };
        }
      }),
    );
    const setup: WorkerSetup = {
      dir: this.registry.dir,
      entries: [...this.registry.entries.values()],
      models: this.registry.models,
      files,
      target: this.target,
      maxLineBytes: this.maxLineBytes,
      maxFindings: this.maxFindings,
      words: this.words,
      output: this.output,
    };
    const notStarted = (error: unknown): void =>
      this.warn(
        `--jobs ${this.jobs}: the worker threads did not start (${error instanceof Error ? error.message : String(error)}); linting on one thread`,
      );
    try {
      const { Worker } = await import("node:worker_threads");
      // this thread lints too (the batches it keeps while every worker is busy): N threads in all
      this.pool = new WorkerPool(Worker, this.jobs - 1, this.jobs, setup, notStarted);
    } catch (error) {
      notStarted(error);
    }
  }

  /** Lints a batch on this thread, as a worker would (its reply is the same). */
  lintHere(batch: Batch): Promise<BatchReply> {
    this.here ??= batchLinter(this.registry, this.target, this.maxLineBytes, this.output, this.maxFindings, this.words);
    return this.here(batch);
  }

  /**
   * Lints a whole plain NDJSON file by ranges (src/lint/ranges.ts) when it is large enough for
   * workers (`MIN_REMAINING_BYTES`; `AUTO_MIN_REMAINING_BYTES` with the default `--jobs`): each
   * thread reads the chunks it lints, this one lints a chunk itself when every worker is busy (as
   * with batches) and writes the results in input order. Returns false, having read nothing of the
   * stream, when the file is not for ranges (too small, not a regular file, or binary: the stream
   * reader says so); `file.bytesRead` follows the chunks reported (the progress line).
   */
  async ranges(
    linter: Pick<Linter, "payload" | "report" | "reportBatch">,
    source: string,
    file: RangeFile,
  ): Promise<boolean> {
    const { fd } = file;
    if (typeof fd !== "number") return false;
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size < (this.auto ? AUTO_MIN_REMAINING_BYTES : MIN_REMAINING_BYTES)) return false;
    const { size } = stat;
    const head = Buffer.alloc(Math.min(size, 8000));
    if (readSync(fd, head, 0, head.length, 0) < head.length || looksBinary(head)) return false;
    this.starting ??= this.start();
    const n = chunkCount(size, CHUNK_BYTES);
    const range: FileRange = {
      id: rangeIds++,
      fd,
      size,
      chunk: CHUNK_BYTES,
      counts: new Int32Array(new SharedArrayBuffer(4 * n)).fill(-1),
      limit: this.maxLineBytes,
    };
    const inFlight: Array<Promise<BatchReply>> = [];
    let reported = 0;
    let nonBlank = 0;
    const reportOldest = async (): Promise<void> => {
      nonBlank += await reportReply(await inFlight.shift()!, linter, source);
      file.bytesRead = Math.min(size, ++reported * CHUNK_BYTES);
    };
    try {
      for (let k = 0; k < n; k++) {
        const pool = this.pool;
        const batch: Omit<Batch, "id"> = {
          source,
          bytes: new Uint8Array(0),
          runs: new Int32Array(0),
          chunk: { range, index: k },
        };
        const toPool = pool !== undefined && pool.ready && (pool.busy < pool.capacity || pool.failed);
        const reply = toPool ? pool.submit(batch) : this.lintHere({ id: -1, ...batch });
        reply.catch(() => {}); // awaited in order by reportOldest; a failure is not unhandled meanwhile
        inFlight.push(reply);
        // a chunk linted here runs in microtasks: the workers' messages (ready, replies) wait for this turn
        if (!toPool) await new Promise(setImmediate);
        // until a worker is ready, one chunk at a time: chunks queued here would run in one turn
        // of the event loop (~25 ms each while the code is cold), and the worker's "ready" wait
        // for all of them (50–130 ms measured with KEPT of them)
        while (inFlight.length >= (pool?.ready === true ? pool.capacity + KEPT : 1)) await reportOldest();
      }
      while (inFlight.length > 0) await reportOldest();
    } finally {
      // nothing left reading the file when it is closed, also after a failure
      await Promise.allSettled(inFlight);
    }
    if (nonBlank === 0) await linter.payload({ source, line: 1 }, undefined, emptyProblem());
    return true;
  }

  sink(
    linter: Pick<Linter, "payload" | "report" | "reportBatch">,
    source: string,
    file?: OpenedFile,
    compression?: Compression,
  ): LineSink {
    return new JobSink(this, linter, source, this.maxLineBytes, file, compression);
  }

  /** Ends the worker threads (the run is over, or failed). */
  async close(): Promise<void> {
    await this.starting?.catch(() => {});
    this.pool?.close();
  }
}

/** Lines of one stream: linted here until the pool is ready, then batched to it; results reported in order. */
class JobSink implements LineSink {
  private pool: WorkerPool | undefined;
  /** the runs of the batch being filled: parts of the stream's chunks, kept until it is posted */
  private parts: PlatformBuffer[] = [];
  private runs: number[] = [];
  private bytes = 0;
  private count = 0;
  /** non-blank lines linted here, and those the workers reported */
  nonBlank = 0;
  /** bytes of the lines linted here (decompressed) */
  private inlineBytes = 0;
  /** whether this file is worth workers, once decided */
  private decided: boolean | undefined;
  /** posted batches, oldest first */
  private readonly inFlight: Array<Promise<BatchReply>> = [];

  constructor(
    private readonly jobs: LintJobs,
    private readonly linter: Pick<Linter, "payload" | "report" | "reportBatch">,
    private readonly source: string,
    private readonly limit: number,
    /** the file read (absent for stdin): what is left of it is known */
    private readonly file: OpenedFile | undefined,
    /** how the file is compressed, if it is: what is left is what it decompresses to */
    private readonly compression: Compression | undefined,
  ) {}

  /**
   * Whether this stream has enough left to be worth starting workers for (decided once). A plain
   * file: its size left; a gzip file, with the default `--jobs`: what its trailer says it
   * decompresses to, less what was read; stdin and other compressed files: not known, so yes.
   */
  private readonly worth = (): boolean => {
    if (this.decided !== undefined) return this.decided;
    const { auto } = this.jobs;
    let left = Infinity;
    if (this.file !== undefined && (this.compression === undefined || (auto && this.compression === "gzip")))
      try {
        const path = String(this.file.path);
        const size = statSync(path).size;
        left = this.compression === undefined ? size - this.file.bytesRead : gzipSize(path, size) - this.inlineBytes;
      } catch {
        // unknown: as for stdin
      }
    return (this.decided = left >= (auto ? AUTO_MIN_REMAINING_BYTES : MIN_REMAINING_BYTES));
  };

  /** A line linted on this thread (`bytes` long), counted towards starting the workers. */
  private readonly seen = (bytes: number): void => {
    this.nonBlank++;
    this.inlineBytes += bytes + 1;
    this.pool ??= this.jobs.batching(this.worth);
  };

  lines(buffer: PlatformBuffer, start: number, end: number, first: number): number | Promise<number> {
    // once batching, always batching: a line linted here after a posted one would be reported before it
    if (this.pool === undefined)
      return readLines(buffer, start, end, first, this.source, this.linter.payload, this.limit, this.seen);
    const lines = countLines(buffer, start, end);
    this.parts.push(buffer.subarray(start, end));
    this.runs.push(this.bytes, this.bytes + end - start, first);
    this.bytes += end - start;
    this.count += lines;
    if (this.bytes >= BATCH_BYTES || this.count >= BATCH_LINES) return this.post().then(() => lines);
    return lines;
  }

  /** Posts the batch being filled (or lints it here, every worker being busy), then waits while as many are in flight as may be. */
  private async post(): Promise<void> {
    this.send();
    while (this.inFlight.length >= this.pool!.capacity + KEPT) await this.reportOldest();
  }

  private send(): void {
    if (this.runs.length === 0) return;
    // a buffer of its own (never a slice of node's shared pool), moved to the worker, not copied
    const bytes = new Uint8Array(this.bytes);
    let offset = 0;
    for (const part of this.parts) {
      bytes.set(part, offset);
      offset += part.length;
    }
    const batch = { source: this.source, bytes, runs: Int32Array.from(this.runs) };
    const pool = this.pool!;
    const reply =
      pool.busy < pool.capacity || pool.failed ? pool.submit(batch) : this.jobs.lintHere({ id: -1, ...batch });
    reply.catch(() => {}); // awaited in order by reportOldest; a failure is not unhandled meanwhile
    this.inFlight.push(reply);
    this.parts = [];
    this.runs = [];
    this.bytes = 0;
    this.count = 0;
  }

  /** Hands the oldest batch's results to the format, in their order. */
  private async reportOldest(): Promise<void> {
    this.nonBlank += await reportReply(await this.inFlight.shift()!, this.linter, this.source);
  }

  async flush(): Promise<void> {
    if (this.pool === undefined) return;
    this.send();
    while (this.inFlight.length > 0) await this.reportOldest();
  }
}

/** What `--jobs` needs of a plain file to lint it by ranges (a `fs.ReadStream`, structural): its descriptor, and where the progress line reads how far it got. */
export interface RangeFile {
  /** its descriptor once open (node's ReadStream has it, its types do not say so) */
  readonly fd?: unknown;
  bytesRead: number;
}

/** Hands a batch's results to the format, in their order; returns its non-blank lines. */
async function reportReply(
  reply: BatchReply,
  linter: Pick<Linter, "report" | "reportBatch">,
  source: string,
): Promise<number> {
  if ("error" in reply) throw thrownByWorker(reply.error);
  if ("rendered" in reply) {
    const reported = linter.reportBatch(reply.rendered);
    if (reported) await reported;
    return reply.nonBlank;
  }
  const { lines, pairs, pairOf, diagnosedAt, diagnostics, totals } = reply.results;
  if (pairOf.length !== lines.length)
    throw new Error(`a lint worker thread answered ${pairOf.length} results for ${lines.length} lines`);
  let next = 0;
  for (let i = 0; i < lines.length; i++) {
    const [model, endpoint] = pairs[pairOf[i]!]!;
    let found: LintDiagnostic[] = [];
    let total: FindingTotals | null = null;
    if (diagnosedAt[next] === i) {
      total = totals[next]!;
      found = diagnostics[next++]!;
    }
    const reported = linter.report(source, lines[i]!, model, endpoint, found, total ?? undefined);
    if (reported) await reported;
  }
  return reply.nonBlank;
}
