/** Where every lint format writes: buffered, waiting for the stream to drain. */

/** The size of one buffer of output: what is handed to the stream at once. */
const CHUNK = 1 << 16;
/** The most decimal digits of a safe integer (Number.MAX_SAFE_INTEGER has 16). */
const NUMBER_DIGITS = 16;
/** Texts shorter than this are joined before they are encoded (a result's line is ~100-300 characters). */
const PENDING = 4096;

/**
 * Buffered writes to a stream, waiting for it to drain: fast for a million small writes. Each
 * text is encoded as it is written, straight into a buffer of {@link CHUNK} bytes that goes to
 * the stream once full (a 64 KiB string of `+=` pieces, handed over as such, was a rope the
 * stream had to flatten and then encode: ~10% of a `--format json` run). Short texts (a result's
 * line) are joined up to {@link PENDING} characters first, so that the encoder is called once per
 * few dozen results, not once per result (issue 40). A buffer handed to the stream is never
 * written again: the next one is new.
 */
/** What a Sink writes to: a stream (stdout, a file), or a `--jobs` worker's batch in memory. */
export interface SinkTarget {
  /** false: wait for "drain" before writing more */
  write(chunk: string | Uint8Array): boolean;
  once(event: "drain", listener: () => void): unknown;
}

export class Sink {
  private buffer: Buffer | undefined;
  private used = 0;
  /** short texts not yet encoded, joined: encoded PENDING characters at a time, not a call per result */
  private pending = "";
  constructor(private readonly stream: SinkTarget) {}

  write(text: string): void | Promise<void> {
    if (text.length < PENDING) {
      this.pending += text;
      if (this.pending.length < PENDING) return;
      text = this.pending;
      this.pending = "";
    } else if (this.pending.length > 0) {
      const before = this.pending;
      this.pending = "";
      // both encoded now, in order (a promise only says to wait for the stream's drain)
      const flushed = this.encode(before);
      return this.encode(text) ?? flushed;
    }
    return this.encode(text);
  }

  private encode(text: string): void | Promise<void> {
    let flushed: void | Promise<void> = undefined;
    // at most 3 bytes per UTF-16 unit: a text that may not fit goes after the buffer, whole
    if (text.length * 3 > CHUNK - this.used) {
      flushed = this.flush();
      if (text.length * 3 > CHUNK) return this.written(this.stream.write(text)) ?? flushed;
    }
    this.buffer ??= Buffer.allocUnsafeSlow(CHUNK); // only the bytes written are handed over
    this.used += this.buffer.write(text, this.used, "utf8");
    if (this.used >= CHUNK - 256) return this.flush() ?? flushed;
    return flushed;
  }

  /** A promise of the stream's drain when a write said to wait for it. */
  private written(ok: boolean): Promise<void> | undefined {
    if (!ok) return new Promise((resolve) => this.stream.once("drain", () => resolve()));
  }

  /**
   * `head`, the decimal digits of `n` and `tail`, all UTF-8, after what was written before: a
   * valid result of `--format json` (format/json.ts) copied from bytes made once, with its line
   * number's digits written in place (no string per result to build, join and encode).
   */
  writeNumbered(head: Uint8Array, n: number, tail: Uint8Array): void | Promise<void> {
    const size = head.length + NUMBER_DIGITS + tail.length;
    if (!Number.isSafeInteger(n) || n < 0 || size > CHUNK - 256)
      return this.writeBytes(Buffer.concat([head, Buffer.from(String(n)), tail]));
    let flushed: void | Promise<void> = undefined;
    if (this.pending.length > 0) {
      const text = this.pending;
      this.pending = "";
      flushed = this.encode(text);
    }
    if (size > CHUNK - this.used) flushed = this.flush() ?? flushed;
    const buffer = (this.buffer ??= Buffer.allocUnsafeSlow(CHUNK));
    buffer.set(head, this.used);
    let end = this.used + head.length + 1;
    for (let x = n; x >= 10; x = Math.floor(x / 10)) end++;
    this.used = end;
    let x = n;
    do {
      const rest = Math.floor(x / 10);
      buffer[--end] = 48 + (x - rest * 10); // the digit first: 48 + x may round above 2^53
      x = rest;
    } while (x > 0);
    buffer.set(tail, this.used);
    this.used += tail.length;
    if (this.used >= CHUNK - 256) return this.flush() ?? flushed;
    return flushed;
  }

  /** UTF-8 text already encoded (a `--jobs` worker's rendered batch), after what was buffered. */
  writeBytes(bytes: Uint8Array): void | Promise<void> {
    if (bytes.length === 0) return;
    const flushed = this.flush();
    return this.written(this.stream.write(bytes)) ?? flushed;
  }

  flush(): void | Promise<void> {
    let encoded: void | Promise<void> = undefined;
    if (this.pending.length > 0) {
      const text = this.pending;
      this.pending = "";
      encoded = this.encode(text);
    }
    if (this.used === 0) return encoded;
    const full = this.buffer!.subarray(0, this.used);
    this.buffer = undefined;
    this.used = 0;
    return this.written(this.stream.write(full)) ?? encoded;
  }
}
