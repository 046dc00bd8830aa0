/**
 * The predictions the mock holds and their life cycle (spec 3): queued for `queueMs`, running for
 * `runMs`, then the outcome; `advance()` moves one on at once. Time is read from `now()` only, so
 * a test may inject a clock or use fake timers.
 *
 * Memory is bounded by bytes: a prediction keeps what the wire needs (ids, outcome, webhook URL,
 * the input's `duration`), never its parsed input. Finished predictions go once `retainMs` old, or
 * oldest first when the next would pass `maxStoredBytes`; when only unfinished ones are left, a
 * submit is answered 503 QUEUE_FULL.
 */
import type { FailureSpec, Outcome } from "./outcomes.js";
import { timestamp } from "./replies.js";
import type { MockEndpoint, StoreLimits } from "./types.js";

/** The status values of spec 3; docs/queue.md uses the same five in queue updates. */
export type PredictionStatus = "queued" | "running" | "succeeded" | "failed" | "cancelled";

export interface Prediction {
  id: string;
  endpoint: MockEndpoint;
  owner: string;
  name: string;
  /** the input's `duration` (output.ts), all that is kept of the input */
  duration: number | undefined;
  createdAt: number;
  outcome: Outcome;
  /** phases forced by advance(): 0 none, 1 running, 2 finished */
  forced: 0 | 1 | 2;
  finishedAt?: number;
  cancelledAt?: number;
  webhook?: string;
  delivered: boolean;
}

export const DEFAULT_MAX_STORED_BYTES = 64 * 1024 * 1024;
export const DEFAULT_RETAIN_MS = 60 * 60 * 1000;

/** The fixed cost of one prediction (object, map entry, outcome) beside its strings. */
const PREDICTION_OVERHEAD_BYTES = 512;

/** The bytes one prediction holds, estimated: its strings at two bytes a character, plus the fixed cost. */
export function predictionBytes(p: Prediction): number {
  let chars = p.id.length + p.owner.length + p.name.length + (p.webhook?.length ?? 0);
  if (p.outcome.kind === "failed")
    for (const value of Object.values(p.outcome.failure)) if (typeof value === "string") chars += value.length;
  return PREDICTION_OVERHEAD_BYTES + 2 * chars;
}

export class PredictionStore {
  /** in submit order, so the oldest come first */
  private readonly byId = new Map<string, { p: Prediction; bytes: number }>();
  private bytes = 0;
  private readonly maxBytes: number;
  private readonly retainMs: number;
  private readonly maxCount: number;

  constructor(
    readonly queueMs: number,
    readonly runMs: number,
    limits: StoreLimits,
    private readonly now: () => number,
  ) {
    this.maxBytes = limits.maxStoredBytes ?? DEFAULT_MAX_STORED_BYTES;
    this.retainMs = limits.retainMs ?? DEFAULT_RETAIN_MS;
    this.maxCount = limits.maxPredictions ?? Infinity;
  }

  get(id: string): Prediction | undefined {
    return this.byId.get(id)?.p;
  }

  all(): Prediction[] {
    return [...this.byId.values()].map((e) => e.p);
  }

  /** Keeps a prediction; false (nothing kept) when no finished one can make room for it. */
  add(p: Prediction): boolean {
    const bytes = predictionBytes(p);
    if (!this.makeRoom(bytes)) return false;
    this.byId.set(p.id, { p, bytes });
    this.bytes += bytes;
    return true;
  }

  private drop(id: string): void {
    const entry = this.byId.get(id);
    if (entry === undefined) return;
    this.byId.delete(id);
    this.bytes -= entry.bytes;
  }

  private finished(p: Prediction): boolean {
    const status = this.statusOf(p);
    return status !== "queued" && status !== "running" && (p.webhook === undefined || p.delivered);
  }

  /** The status of a prediction now (spec 3). */
  statusOf(p: Prediction): PredictionStatus {
    if (p.cancelledAt !== undefined) return "cancelled";
    const elapsed = this.now() - p.createdAt;
    const byTime = elapsed < this.queueMs ? 0 : elapsed < this.queueMs + this.runMs ? 1 : 2;
    const phase = Math.max(byTime, p.forced);
    if (phase === 0) return "queued";
    if (phase === 1) return "running";
    p.finishedAt ??= p.forced === 2 ? this.now() : p.createdAt + this.queueMs + this.runMs;
    return p.outcome.kind === "failed" ? "failed" : "succeeded";
  }

  /** The prediction's error object (spec 2.4), or null when it did not fail (spec 3 rule 2). */
  errorOf(p: Prediction, status: PredictionStatus): (FailureSpec & { timestamp: string }) | null {
    if (status !== "failed" || p.outcome.kind !== "failed") return null;
    return { ...p.outcome.failure, timestamp: timestamp(p.finishedAt ?? this.now()) };
  }

  /** Moves a prediction to its next phase at once. */
  advance(p: Prediction): void {
    const status = this.statusOf(p);
    if (status === "queued") p.forced = 1;
    else if (status === "running") p.forced = 2;
  }

  /** How many queued predictions were submitted before this one (docs/queue.md `queue_position`). */
  queuePosition(p: Prediction): number {
    let position = 0;
    for (const { p: other } of this.byId.values())
      if (other !== p && other.createdAt <= p.createdAt && this.statusOf(other) === "queued") position++;
    return position;
  }

  /** The logs of `?logs=1`: one line per phase reached. */
  logsOf(p: Prediction, status: PredictionStatus): Array<{ message: string; timestamp: string }> {
    const logs = [{ message: "queued", timestamp: timestamp(p.createdAt) }];
    if (status !== "queued" && p.cancelledAt === undefined)
      logs.push({ message: "running", timestamp: timestamp(p.createdAt + this.queueMs) });
    if (status !== "queued" && status !== "running")
      logs.push({ message: status, timestamp: timestamp(p.cancelledAt ?? p.finishedAt ?? this.now()) });
    return logs;
  }

  /**
   * Drops finished predictions older than `retainMs`, then the oldest finished ones until `bytes`
   * more fit; false when they still do not (every prediction left is unfinished).
   */
  private makeRoom(bytes: number): boolean {
    const now = this.now();
    // every prediction has finished by createdAt + queueMs + runMs, and the map is in submit order
    for (const [id, { p }] of this.byId) {
      if (p.createdAt + this.queueMs + this.runMs + this.retainMs > now) break;
      if (this.finished(p)) this.drop(id);
    }
    const fits = () => this.bytes + bytes <= this.maxBytes && this.byId.size < this.maxCount;
    if (fits()) return true;
    for (const [id, { p }] of this.byId) {
      if (!this.finished(p)) continue;
      this.drop(id);
      if (fits()) return true;
    }
    return fits();
  }
}
