/**
 * Reading payloads, part 4: compressed input (issue 25.1). gzip is recognised by its bytes (the
 * magic 1f 8b, whatever the name, stdin too); brotli has no magic number, so by its `.br` name.
 * Either is decompressed as a stream (node:zlib), never whole: the readers' line cap applies to
 * the decompressed lines, so a gzip bomb costs time, never memory.
 */
import { extname } from "node:path";
import { Duplex, pipeline, type Readable } from "node:stream";
import { crc32, createBrotliDecompress, createInflateRaw, type InflateRaw } from "node:zlib";

/** The names a compressed payload file may end with: `requests.ndjson.gz`, `a.json.br`. */
export const COMPRESSED_EXTENSIONS = new Set([".gz", ".br"]);

/** The extension that says what a file holds once decompressed: `.ndjson` for `requests.ndjson.gz`. */
export function payloadExtension(path: string): string {
  const ext = extname(path).toLowerCase();
  if (!COMPRESSED_EXTENSIONS.has(ext)) return ext;
  return extname(path.slice(0, -ext.length)).toLowerCase();
}

/** What a zlib error code means for the one who gave us the file. */
const ZLIB_PROBLEMS: Record<string, string> = {
  Z_BUF_ERROR: "the compressed stream ends early (truncated)",
  Z_DATA_ERROR: "the compressed stream is corrupt",
  ERR_BROTLI_DECOMPRESSION_FAILED: "the compressed stream is corrupt",
  ERR__ERROR_FORMAT_PADDING_1: "the compressed stream is corrupt",
};

/** A sentence for a failed read of `file` when `code` is a decompression error, else undefined. */
export function decompressionProblem(file: string, code: string): string | undefined {
  const problem =
    ZLIB_PROBLEMS[code] ??
    (code.startsWith("ERR_BROTLI") || code.startsWith("ERR__") ? ZLIB_PROBLEMS.Z_DATA_ERROR : undefined);
  if (problem === undefined) return undefined;
  return `${file}: ${problem} (${code}); the requests read before it are reported`;
}

/** The first chunk of a stream, put back: what it starts with, without consuming it. */
function peek(stream: Readable): Promise<Buffer | undefined> {
  if (stream.readableEnded) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const done = (): void => {
      stream.off("readable", onReadable).off("end", onEnd).off("error", onError);
    };
    const onReadable = (): void => {
      const chunk = stream.read() as Buffer | string | null;
      if (chunk === null) return; // 'end' follows
      done();
      const buffer = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      stream.unshift(buffer);
      resolve(buffer);
    };
    const onEnd = (): void => (done(), resolve(undefined));
    const onError = (error: Error): void => (done(), reject(error));
    stream.on("readable", onReadable).on("end", onEnd).on("error", onError);
  });
}

/** How a stream was compressed, when it was. */
export type Compression = "gzip" | "brotli";

/**
 * `stream` as the payload text it holds, and how it was compressed: decompressed when it starts
 * with gzip's magic bytes or `name` ends with `.br`, else as it is. A source error reaches the
 * reader through the pipeline; bytes after the last complete gzip member are told to `warn`.
 */
export async function decompressed(
  stream: Readable,
  name: string,
  warn?: (text: string) => void,
): Promise<{ text: Readable; compression?: Compression }> {
  if (extname(name).toLowerCase() === ".br")
    return {
      text: pipeline(stream, createBrotliDecompress({ chunkSize: DECOMPRESSED_PIECE }), () => {}),
      compression: "brotli",
    };
  const head = await peek(stream);
  if (head !== undefined && head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b)
    return { text: pipeline(stream, new GunzipMembers(name, warn), () => {}), compression: "gzip" };
  return { text: stream };
}

/**
 * What a decompressor hands on at a time: 64 KiB, as a plain file is read (src/lint/inputs.ts), not
 * zlib's 16 KiB. Each piece is a round trip to libuv's thread pool and a piece of lines for the
 * reader: `--jobs 2` on the bench's 1M-line gzip log went from 2.82/3.14/3.94 s to 2.33/2.63/3.38 s
 * (three interleaved rounds, 2026-11-28; 256 KiB gave no more). Memory stays bounded the same way:
 * the decompressor pauses while the reader is full.
 */
const DECOMPRESSED_PIECE = 64 * 1024;

/** A gzip header's FNAME or FCOMMENT is a C string of any length: past this, the stream is corrupt. */
const MAX_GZIP_HEADER = 64 * 1024;

/** A zlib-like error, worded by `decompressionProblem` from its code. */
const zlibError = (code: "Z_BUF_ERROR" | "Z_DATA_ERROR", message: string): Error =>
  Object.assign(new Error(message), { code });

/**
 * The length of the gzip member header (RFC 1952 2.3) at the start of `b`: -1 while more bytes
 * are needed, -2 when `b` does not start a gzip member (magic 1f 8b, method 8, no reserved flag).
 */
function gzipHeaderLength(b: Buffer): number {
  const fixed = [0x1f, 0x8b, 8];
  for (let i = 0; i < fixed.length && i < b.length; i++) if (b[i] !== fixed[i]) return -2;
  if (b.length < 10) return -1;
  const flags = b[3]!;
  if ((flags & 0xe0) !== 0) return -2;
  let at = 10;
  if ((flags & 4) !== 0) {
    if (b.length < at + 2) return -1;
    at += 2 + b.readUInt16LE(at); // FEXTRA
  }
  for (const flag of [8, 16]) {
    if ((flags & flag) === 0 || at > b.length) continue; // FNAME, FCOMMENT: zero-terminated
    const zero = b.indexOf(0, at);
    if (zero < 0) return -1;
    at = zero + 1;
  }
  if ((flags & 2) !== 0) at += 2; // FHCRC
  return at > b.length ? -1 : at;
}

/**
 * gzip decompression member by member (issue 38.4): each member's deflate data goes through its
 * own raw inflater, whose `bytesWritten` says where the data ends, and its trailer (CRC-32 and
 * size) is checked. Concatenated members read as one text; bytes after the last complete member
 * that do not start another are a warning naming their offset, after every line of every member
 * was handed on. (node's Gunzip fails on such a tail with Z_DATA_ERROR and loses the output it
 * held: up to 16 KiB of lines, every line of a small file.) Output waits for the reader (the
 * inflater pauses while the reader is full), so a bomb costs time, never memory.
 */
class GunzipMembers extends Duplex {
  private state: "header" | "body" | "trailer" | "tail" = "header";
  /** header or trailer bytes gathered across chunks */
  private held = Buffer.alloc(0);
  /** the input offset of the chunk being consumed, and of the member (or tail) that starts last */
  private at = 0;
  private memberAt = 0;
  private members = 0;
  private tailBytes = 0;
  private inflater: InflateRaw | undefined;
  private ended: Promise<void> | undefined;
  private crc = 0;
  private size = 0;

  constructor(
    private readonly name: string,
    private readonly warn: ((text: string) => void) | undefined,
  ) {
    super({ readableHighWaterMark: DECOMPRESSED_PIECE });
  }

  override _read(): void {
    this.inflater?.resume();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.consume(chunk).then(() => done(), done);
  }

  override _final(done: (error?: Error | null) => void): void {
    if (this.state === "header" && this.members > 0) {
      // nothing after the last member, or a few bytes that never made a header
      this.tailBytes += this.held.length;
      this.state = "tail";
    }
    if (this.state !== "tail") return done(zlibError("Z_BUF_ERROR", "unexpected end of file"));
    if (this.tailBytes > 0)
      this.warn?.(
        `${this.name}: ${this.tailBytes} byte${this.tailBytes === 1 ? "" : "s"} after the last complete gzip member, ` +
          `from byte offset ${this.memberAt}, are not gzip data and were ignored; every line of the ` +
          `${this.members === 1 ? "member" : `${this.members} members`} before them was linted`,
      );
    this.push(null);
    done();
  }

  private async consume(chunk: Buffer): Promise<void> {
    while (chunk.length > 0) {
      if (this.state === "tail") {
        this.tailBytes += chunk.length;
        break;
      }
      if (this.state === "header") {
        const all = this.held.length === 0 ? chunk : Buffer.concat([this.held, chunk]);
        const length = gzipHeaderLength(all);
        if (length === -2) {
          if (this.members === 0) throw zlibError("Z_DATA_ERROR", "incorrect header check");
          this.state = "tail";
          this.tailBytes = all.length;
          this.held = Buffer.alloc(0);
          break;
        }
        if (length === -1) {
          if (all.length > MAX_GZIP_HEADER) throw zlibError("Z_DATA_ERROR", "gzip header too long");
          this.held = Buffer.from(all); // a copy: the chunk's memory is the source's
          this.at += chunk.length;
          break;
        }
        const fromChunk = length - this.held.length;
        this.held = Buffer.alloc(0);
        this.at += fromChunk;
        chunk = chunk.subarray(fromChunk);
        this.startMember();
        continue;
      }
      if (this.state === "body") {
        const inflater = this.inflater!;
        const before = inflater.bytesWritten;
        await new Promise<void>((resolve, reject) => {
          const failed = (error: Error): void => reject(error);
          inflater.once("error", failed);
          inflater.write(chunk, () => (inflater.off("error", failed), resolve()));
        });
        const used = inflater.bytesWritten - before;
        this.at += used;
        chunk = chunk.subarray(used);
        if (chunk.length === 0) break; // all of it deflate data, the member's end not seen yet
        await this.ended; // every byte of this member handed on before the next one's
        this.inflater = undefined;
        this.state = "trailer";
        continue;
      }
      // the trailer: CRC-32 and size (mod 2^32) of the member's data, little-endian
      const all = Buffer.concat([this.held, chunk.subarray(0, 8 - this.held.length)]);
      const taken = all.length - this.held.length;
      this.at += taken;
      chunk = chunk.subarray(taken);
      if (all.length < 8) {
        this.held = all;
        break;
      }
      this.held = Buffer.alloc(0);
      if (all.readUInt32LE(0) !== this.crc >>> 0 || all.readUInt32LE(4) !== this.size % 2 ** 32)
        throw zlibError("Z_DATA_ERROR", "incorrect data check");
      this.members++;
      this.memberAt = this.at;
      this.state = "header";
    }
  }

  private startMember(): void {
    const inflater = createInflateRaw({ chunkSize: DECOMPRESSED_PIECE });
    this.crc = 0;
    this.size = 0;
    inflater.on("data", (data: Buffer) => {
      this.crc = crc32(data, this.crc);
      this.size += data.length;
      if (!this.push(data)) inflater.pause();
    });
    this.ended = new Promise((resolve, reject) => inflater.once("end", resolve).once("error", reject));
    this.ended.catch(() => {}); // awaited when the member's data ends; a failure meanwhile rejects the write
    this.inflater = inflater;
    this.state = "body";
  }
}
