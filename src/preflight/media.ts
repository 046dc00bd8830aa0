/**
 * What a file is, its duration and frame rate (spec 4.4, 8): the bytes are read here, within a
 * budget, and parsed elsewhere (parse.ts, in the parser process of sandbox.ts), step by step: a
 * step says what the file is, or which bytes it needs next. Whatever a file or its server sends,
 * one file costs at most HEAD_BYTES + DEEP_READ_BYTES read, SANDBOX_LIMITS.parseMs of parsing
 * and the parser process's memory; a parse that fails in any way leaves the file's problem in
 * words (`MediaInfo.problem`), never an exception.
 */
import type { PlatformAbortSignal } from "../platform/index.js";
import { DEEP_READ_BYTES, HEAD_BYTES, type MediaInfo, type ParseStep, type ParseTask } from "./parse.js";
import { ParseFailed, parseBounded, SANDBOX_LIMITS, warmParser } from "./sandbox.js";
import type { ByteSource } from "./source.js";

export { DEEP_READ_BYTES, HEAD_BYTES, type MediaInfo } from "./parse.js";

/** Steps of one file's parse: each reads more (mp4box: a moov at the end; WebM: its first packets). */
const MAX_STEPS = 8;

export interface InspectOptions {
  /** the run's deadline: a parse still waiting or running when it passes is given up */
  signal?: PlatformAbortSignal;
}

/** Reads what a file is, its duration and frame rate when it is a video or audio file. */
export async function inspect(source: ByteSource, options: InspectOptions = {}): Promise<MediaInfo> {
  // the parser process starts while the first bytes come
  warmParser();
  const task: ParseTask = { size: undefined, runs: [], final: false };
  hold(task.runs, 0, await source.read(0, HEAD_BYTES));
  let budget = DEEP_READ_BYTES;
  let known: MediaInfo | undefined;
  let spent = 0;
  for (let step = 1; ; step++) {
    task.size = source.size;
    task.final = budget <= 0 || step === MAX_STEPS;
    let answer: ParseStep;
    try {
      const result = await parseBounded(task, SANDBOX_LIMITS.parseMs - spent, options.signal);
      spent += result.ms;
      answer = result.step;
    } catch (error) {
      if (!(error instanceof ParseFailed)) throw error;
      return {
        ...(known ?? { family: "other", format: "a file the preflight could not parse" }),
        problem: error.problem,
      };
    }
    if ("done" in answer) return answer.done;
    known = answer.info;
    if (task.final) return known;
    const { start } = answer.need;
    const left = source.size === undefined ? Infinity : source.size - start;
    const length = Math.min(answer.need.length, budget, left);
    if (length <= 0) {
      budget = 0;
      continue;
    }
    const bytes = await source.read(start, length);
    if (bytes.length === 0) budget = 0;
    else {
      budget -= bytes.length;
      hold(task.runs, start, bytes);
    }
  }
}

/** Adds bytes read to the runs held, joining those that touch or overlap (a step sees whole runs). */
function hold(runs: ParseTask["runs"], start: number, bytes: Uint8Array): void {
  let from = start;
  let joined = Buffer.from(bytes);
  for (let i = runs.length - 1; i >= 0; i--) {
    const run = runs[i]!;
    const end = run.start + run.bytes.length;
    if (run.start > from + joined.length || end < from) continue;
    const lo = Math.min(run.start, from);
    const hi = Math.max(end, from + joined.length);
    const merged = Buffer.alloc(hi - lo);
    merged.set(run.bytes, run.start - lo);
    merged.set(joined, from - lo);
    from = lo;
    joined = merged;
    runs.splice(i, 1);
  }
  runs.push({ start: from, bytes: joined });
  runs.sort((a, b) => a.start - b.start);
}
