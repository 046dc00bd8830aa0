/**
 * How far a lint run has got (issue 25.5): bytes read of the inputs (of their total when every
 * input is a regular file) and requests linted, for a progress line. The run feeds it (each file's
 * raw stream as it opens, each result as it is reported) and whoever draws polls `stats()`;
 * nothing here writes anything.
 */
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import type { Reporter } from "./lint.js";
import { byteSize } from "../words/index.js";

export interface LintProgress {
  /** raw bytes read from the inputs: compressed bytes for a compressed file */
  bytesRead: number;
  /** the inputs' size on disk, undefined when one is stdin or not a regular file (a pipe) */
  totalBytes: number | undefined;
  requests: number;
}

/** The size of every input, or undefined when one has no size known ahead (stdin, a FIFO). */
export async function inputBytes(files: readonly string[], cwd: string): Promise<number | undefined> {
  let total = 0;
  for (const file of files) {
    if (file === "-") return undefined;
    const info = await stat(resolve(cwd, file)).catch(() => undefined);
    if (info === undefined || !info.isFile()) return undefined;
    total += info.size;
  }
  return total;
}

export class ReadMeter {
  private done = 0;
  private current: { bytesRead: number } | undefined;
  private requests = 0;
  totalBytes: number | undefined;

  /** The raw stream of the next input (an fs.ReadStream or stdin: both count `bytesRead`). */
  readonly opened = (stream: { bytesRead?: number }): void => {
    this.done += this.current?.bytesRead ?? 0;
    this.current = typeof stream.bytesRead === "number" ? (stream as { bytesRead: number }) : undefined;
  };

  /** A reporter that counts every result it hands on. */
  counting(reporter: Reporter): Reporter {
    const counted: Reporter = { result: (r) => (this.requests++, reporter.result(r)), end: (s) => reporter.end(s) };
    const batch = reporter.batch?.bind(reporter);
    if (batch !== undefined) counted.batch = (b) => ((this.requests += b.summary.requests), batch(b));
    return counted;
  }

  readonly stats = (): LintProgress => ({
    bytesRead: this.done + (this.current?.bytesRead ?? 0),
    totalBytes: this.totalBytes,
    requests: this.requests,
  });
}

/** `lint: 12 MiB of 96.5 MiB (12%), 48210 requests, 45102 requests/s` (without `of …` when the total is unknown). */
export function progressText(p: LintProgress, seconds: number): string {
  const read =
    p.totalBytes === undefined || p.totalBytes === 0
      ? `${byteSize(p.bytesRead)} read`
      : `${byteSize(p.bytesRead)} of ${byteSize(p.totalBytes)} (${Math.min(100, Math.floor((p.bytesRead / p.totalBytes) * 100))}%)`;
  const rate = seconds > 0 ? Math.round(p.requests / seconds) : 0;
  return `lint: ${read}, ${p.requests} request${p.requests === 1 ? "" : "s"}, ${rate} requests/s`;
}
