/** Where every lint format writes: buffered, waiting for the stream to drain. */

/** Buffered writes to a stream, waiting for it to drain: fast for a million small writes. */
export class Sink {
  private buffer = "";
  constructor(private readonly stream: NodeJS.WritableStream) {}
  write(text: string): void | Promise<void> {
    this.buffer += text;
    if (this.buffer.length >= 1 << 16) return this.flush();
  }
  /** UTF-8 text already encoded (a `--jobs` worker's rendered batch), after what was buffered. */
  writeBytes(bytes: Uint8Array): void | Promise<void> {
    if (bytes.length === 0) return;
    const flushed = this.flush();
    const ok = this.stream.write(bytes);
    if (!ok) return new Promise((resolve) => this.stream.once("drain", () => resolve()));
    return flushed;
  }

  flush(): void | Promise<void> {
    if (this.buffer === "") return;
    const ok = this.stream.write(this.buffer);
    this.buffer = "";
    if (!ok) return new Promise((resolve) => this.stream.once("drain", () => resolve()));
  }
}
