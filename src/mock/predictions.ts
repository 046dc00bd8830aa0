/**
 * The predictions the mock holds and their life cycle (spec 3): queued for `queueMs`, running for
 * `runMs`, then the outcome; `advance()` moves one on at once. Time is read from `now()` only, so
 * a test may inject a clock or use fake timers.
 */
import type { FailureSpec, Outcome } from "./outcomes.js";
import { timestamp } from "./replies.js";
import type { MockEndpoint } from "./routes.js";

/** The status values of spec 3; QUEUE.md uses the same five in queue updates. */
export type PredictionStatus = "queued" | "running" | "succeeded" | "failed" | "cancelled";

export interface Prediction {
  id: string;
  endpoint: MockEndpoint;
  owner: string;
  name: string;
  input: unknown;
  createdAt: number;
  outcome: Outcome;
  /** phases forced by advance(): 0 none, 1 running, 2 finished */
  forced: 0 | 1 | 2;
  finishedAt?: number;
  cancelledAt?: number;
  webhook?: string;
  delivered: boolean;
}

/** The default cap on predictions kept (`maxPredictions`). */
export const DEFAULT_MAX_PREDICTIONS = 10_000;

export class PredictionStore {
  private readonly byId = new Map<string, Prediction>();

  constructor(
    readonly queueMs: number,
    readonly runMs: number,
    private readonly maxPredictions: number,
    private readonly now: () => number,
  ) {}

  get(id: string): Prediction | undefined {
    return this.byId.get(id);
  }

  all(): Prediction[] {
    return [...this.byId.values()];
  }

  add(p: Prediction): void {
    this.byId.set(p.id, p);
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

  /** How many queued predictions were submitted before this one (QUEUE.md `queue_position`). */
  queuePosition(p: Prediction): number {
    let position = 0;
    for (const other of this.byId.values())
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

  /** Drops the oldest finished predictions past the cap; false when all are unfinished. */
  makeRoom(): boolean {
    const max = this.maxPredictions;
    if (this.byId.size < max) return true;
    for (const [id, p] of this.byId) {
      const status = this.statusOf(p);
      if (status !== "queued" && status !== "running" && (p.webhook === undefined || p.delivered)) {
        this.byId.delete(id);
        if (this.byId.size < max) return true;
      }
    }
    return this.byId.size < max;
  }
}
