/**
 * The one progress line of a long `vsk lint` (issues 25.5 and 26), on stderr: only when stderr is
 * a terminal, never in CI (`CI` set, as every CI service sets it; `0` or `false` is unset) nor on
 * a `TERM=dumb` terminal; from the first second on, rewritten in place each second; erased at
 * the end, and before anything is written to stdout when stdout is the same terminal.
 */
import { Writable } from "node:stream";

/** Whether a progress line may be drawn: stderr is a terminal that can rewrite a line, and this is not CI. */
export function progressWanted(stderr: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  const ci = env.CI;
  if (ci !== undefined && !["", "0", "false"].includes(ci.trim().toLowerCase())) return false;
  if (env.TERM === "dumb") return false;
  return stderr.isTTY === true;
}

const ERASE = "\r\x1b[2K";

export class ProgressLine {
  private readonly parts = new Set<() => string>();
  private timer: NodeJS.Timeout | undefined;
  private shown = false;
  private readonly started = Date.now();

  constructor(private readonly stderr: NodeJS.WriteStream) {}

  /** Seconds since the line was created: the rate's denominator. */
  seconds(): number {
    return (Date.now() - this.started) / 1000;
  }

  /** Adds a part (`lint: …`, `preflight: …`) to the line; the function returned removes it, and the last one erases the line. */
  add(part: () => string): () => void {
    this.parts.add(part);
    this.timer ??= setInterval(() => this.draw(), 1000).unref();
    return () => {
      this.parts.delete(part);
      if (this.parts.size > 0) return;
      clearInterval(this.timer);
      this.timer = undefined;
      this.erase();
    };
  }

  private draw(): void {
    const text = [...this.parts].map((p) => p()).join("; ");
    // cut to the terminal's width: a wrapped line cannot be rewritten in place
    const columns = this.stderr.columns ?? 0;
    const width = columns >= 40 ? columns - 1 : 79;
    this.stderr.write(`${ERASE}vsk: ${text}`.slice(0, width + ERASE.length));
    this.shown = true;
  }

  private erase(): void {
    if (this.shown) this.stderr.write(ERASE);
    this.shown = false;
  }

  /** `stdout`, or when it is the same terminal a stream that erases the line before each write. */
  stdout(stdout: NodeJS.WriteStream): NodeJS.WritableStream {
    if (stdout.isTTY !== true) return stdout;
    return new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        this.erase();
        if (stdout.write(chunk)) done();
        else stdout.once("drain", () => done());
      },
    });
  }
}
