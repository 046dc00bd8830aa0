/**
 * Reading payloads, part 4: compressed input (issue 25.1). gzip is recognised by its bytes (the
 * magic 1f 8b, whatever the name, stdin too); brotli has no magic number, so by its `.br` name.
 * Either is decompressed as a stream (node:zlib), never whole: the readers' line cap applies to
 * the decompressed lines, so a gzip bomb costs time, never memory.
 */
import { extname } from "node:path";
import { pipeline, type Readable } from "node:stream";
import { createBrotliDecompress, createGunzip } from "node:zlib";

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
 * reader through the pipeline.
 */
export async function decompressed(
  stream: Readable,
  name: string,
): Promise<{ text: Readable; compression?: Compression }> {
  if (extname(name).toLowerCase() === ".br")
    return { text: pipeline(stream, createBrotliDecompress(), () => {}), compression: "brotli" };
  const head = await peek(stream);
  if (head !== undefined && head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b)
    return { text: pipeline(stream, createGunzip(), () => {}), compression: "gzip" };
  return { text: stream };
}
