/**
 * Reading request payloads: a JSON file holds one payload; NDJSON / JSONL (`.ndjson`, `.jsonl`,
 * or stdin with `--ndjson`) holds one per line. Files are streamed in chunks, so a log of a
 * million requests is read in constant memory. Nothing here throws on the content of a file:
 * a bad line, a binary file or an empty file becomes a `ReadProblem` at its line.
 */
import { createReadStream, type ReadStream } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { extname, join, resolve } from "node:path";
import { findDuplicateKeys, jsonSyntaxError } from "../json/index.js";
import { redactUrlsInText } from "../diagnostics/index.js";

/** Where a payload came from: the path as the user wrote it (`<stdin>` for stdin) and its 1-based line. */
export interface PayloadSource {
  source: string;
  line: number;
}

/** A problem with the text itself, before any validation. */
export interface ReadProblem {
  rule: "lint/invalid-json" | "lint/binary-file" | "lint/empty-file" | "lint/line-too-long" | "lint/invalid-utf8";
  message: string;
}

/** Something odd about a payload that was read all the same: it is still validated. */
export interface ReadWarning {
  rule: "lint/duplicate-key";
  /** JSON Pointer of the repeated key, from the payload's root */
  pointer: string;
  message: string;
}

/** Called for every payload: its parsed value, or the problem that kept it from being read. */
export type PayloadHandler = (
  at: PayloadSource,
  value: unknown,
  problem: ReadProblem | undefined,
  warnings?: readonly ReadWarning[],
  /** the payload's JSON text, for what its parsed value has lost (integers beyond 2^53) */
  text?: string,
) => void | Promise<void>;

export interface ReadOptions {
  /** longest NDJSON line read (`--max-line-bytes`); a longer one is reported and skipped without being buffered */
  maxLineBytes?: number;
}

export const PAYLOAD_EXTENSIONS = new Set([".json", ".ndjson", ".jsonl"]);
/** The cap of a `.json` file holding one payload. */
const FILE_LIMIT = 256 * 1024 * 1024;
/** The default cap of one NDJSON line (`--max-line-bytes`). */
export const DEFAULT_MAX_LINE_BYTES = 8 * 1024 * 1024;

/** `8388608` as "8 MiB", `1000` as "1000 bytes". */
function sizeText(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / 1024 / 1024} MiB` : `${bytes} bytes`;
}

export function isNdjsonPath(path: string): boolean {
  const ext = extname(path).toLowerCase();
  return ext === ".ndjson" || ext === ".jsonl";
}

/** A JSON syntax error as "line L, column C: what" (1-based; lines counted from `firstLine`). */
export function describeJsonError(text: string, firstLine = 1): { line: number; message: string } {
  const { line, column, problem } = jsonSyntaxError(text, firstLine);
  return { line, message: `not valid JSON at line ${line}, column ${column}: ${problem}` };
}

/**
 * Bytes as UTF-8 text, or the problem when they are not UTF-8: never a silent U+FFFD. The check
 * runs only when the decoded text holds U+FFFD (which invalid bytes always produce).
 */
function decode(
  buffer: Buffer,
  start: number,
  end: number,
  firstLine: number,
): string | (ReadProblem & { line: number }) {
  const text = buffer.toString("utf8", start, end);
  if (text.indexOf("\uFFFD") === -1) return text;
  const bad = firstInvalidUtf8(buffer, start, end);
  if (bad === -1) return text; // a real U+FFFD, written as such
  let line = firstLine;
  let lineStart = start;
  for (let k = start; k < bad; k++)
    if (buffer[k] === 10) {
      line++;
      lineStart = k + 1;
    }
  return {
    line,
    rule: "lint/invalid-utf8",
    message: `not valid UTF-8 at line ${line}, byte ${bad - lineStart + 1} (0x${buffer[bad]!.toString(16).padStart(2, "0")}); JSON is UTF-8 (RFC 8259): save the file as UTF-8`,
  };
}

/** Offset of the first byte that is not part of well-formed UTF-8 (Unicode table 3-7), or -1. */
function firstInvalidUtf8(b: Buffer, start: number, end: number): number {
  let i = start;
  while (i < end) {
    const c = b[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    let n: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) n = 1;
    else if (c >= 0xe0 && c <= 0xef) {
      n = 2;
      if (c === 0xe0) lo = 0xa0;
      if (c === 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      n = 3;
      if (c === 0xf0) lo = 0x90;
      if (c === 0xf4) hi = 0x8f;
    } else return i;
    for (let k = 1; k <= n; k++) {
      const next = b[i + k];
      if (i + k >= end || next === undefined || next < (k === 1 ? lo : 0x80) || next > (k === 1 ? hi : 0xbf)) return i;
    }
    i += n + 1;
  }
  return -1;
}

/** A key as a message quotes it: URLs in it redacted, then cut to 60 characters, then JSON-quoted. */
function quotedKey(key: string): string {
  const safe = redactUrlsInText(key.length > 4096 ? key.slice(0, 4096) : key);
  return JSON.stringify(safe.length > 60 ? `${safe.slice(0, 59)}…` : safe);
}

/** Repeated keys as warnings: JSON.parse kept the last, silently; the service may read another. */
function duplicateWarnings(text: string, value: unknown, firstLine: number): ReadWarning[] | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const found = findDuplicateKeys(text, value, firstLine);
  if (found.length === 0) return undefined;
  return found.map((d) => ({
    rule: "lint/duplicate-key",
    pointer: d.pointer,
    // the key is data: redacted (and cut) as a value first, then quoted; never the quoted text
    message: `${quotedKey(d.key)} appears again at line ${d.line} in the same object; only the last one is read (another JSON parser may take the first): remove the duplicate`,
  }));
}

function parse(
  text: string,
  at: PayloadSource,
  ndjson: boolean,
): { value: unknown; problem?: ReadProblem; warnings?: ReadWarning[]; line: number } {
  try {
    const value: unknown = JSON.parse(text);
    const warnings = duplicateWarnings(text, value, at.line);
    return warnings === undefined ? { value, line: at.line } : { value, warnings, line: at.line };
  } catch {
    const { line, message } = describeJsonError(text, at.line);
    return {
      value: undefined,
      problem: {
        rule: "lint/invalid-json",
        message: `${message}; ${ndjson ? "fix the JSON or remove the line" : "fix the JSON"}`,
      },
      line,
    };
  }
}

function looksBinary(chunk: Buffer): boolean {
  const end = Math.min(chunk.length, 8000);
  for (let i = 0; i < end; i++) if (chunk[i] === 0) return true;
  return false;
}

async function* chunksOf(stream: ReadStream | NodeJS.ReadableStream): AsyncGenerator<Buffer> {
  for await (const chunk of stream) yield typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
}

/**
 * Reads one NDJSON stream line by line; a malformed line is reported and the rest still read.
 * A line split across chunks is kept as a list of its parts and joined once, at its newline,
 * so a long line costs linear time (joining on every chunk was quadratic: 12 s for a 50 MB line
 * arriving in 64 KiB pipe chunks).
 */
export async function readNdjson(
  stream: ReadStream | NodeJS.ReadableStream,
  source: string,
  handle: PayloadHandler,
  options: ReadOptions = {},
): Promise<number> {
  const limit = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const tooLong = (): ReadProblem => ({
    rule: "lint/line-too-long",
    message: `line is longer than ${sizeText(limit)} (--max-line-bytes); skipped without being read: split the payload or raise the limit`,
  });
  let parts: Buffer[] = [];
  let pending = 0; // bytes in parts
  let line = 0;
  let count = 0;
  let first = true;
  /** Handles one line; returns a promise only when the handler did. */
  const emit = (buffer: Buffer, start: number, end: number): void | Promise<void> => {
    line++;
    if (end > start && buffer[end - 1] === 13) end--; // CRLF
    if (
      line === 1 &&
      end - start >= 3 &&
      buffer[start] === 0xef &&
      buffer[start + 1] === 0xbb &&
      buffer[start + 2] === 0xbf
    )
      start += 3; // BOM
    let blank = true;
    for (let i = start; i < end; i++) {
      const c = buffer[i];
      if (c !== 32 && c !== 9 && c !== 13) {
        blank = false;
        break;
      }
    }
    if (blank) return;
    count++;
    const at = { source, line };
    if (end - start > limit) return handle(at, undefined, tooLong());
    const text = decode(buffer, start, end, line);
    if (typeof text !== "string") return handle(at, undefined, { rule: text.rule, message: text.message });
    const parsed = parse(text, at, true);
    return handle(at, parsed.value, parsed.problem, parsed.warnings, text);
  };
  let skipping = false; // inside a line over the limit: drop bytes up to its newline
  for await (const chunk of chunksOf(stream)) {
    if (first) {
      first = false;
      if (looksBinary(chunk)) {
        await handle({ source, line: 1 }, undefined, {
          rule: "lint/binary-file",
          message: "the file is binary, not JSON or NDJSON; pass request payload files only",
        });
        if ("destroy" in stream) (stream as ReadStream).destroy();
        return 1;
      }
    }
    let start = 0;
    if (skipping) {
      const nl = chunk.indexOf(10);
      if (nl === -1) continue;
      skipping = false;
      start = nl + 1;
    }
    let newline = chunk.indexOf(10, start);
    while (newline !== -1) {
      let result: void | Promise<void>;
      if (pending > 0) {
        parts.push(chunk.subarray(start, newline));
        const joined = Buffer.concat(parts, pending + newline - start);
        parts = [];
        pending = 0;
        result = emit(joined, 0, joined.length);
      } else result = emit(chunk, start, newline);
      if (result) await result;
      start = newline + 1;
      newline = chunk.indexOf(10, start);
    }
    if (start < chunk.length) {
      parts.push(chunk.subarray(start));
      pending += chunk.length - start;
    }
    if (pending > limit) {
      // reported at its line and dropped up to its newline: a line is never buffered past the cap
      line++;
      count++;
      await handle({ source, line }, undefined, tooLong());
      parts = [];
      pending = 0;
      skipping = true;
    }
  }
  if (pending > 0) {
    // no trailing newline
    const joined = Buffer.concat(parts, pending);
    const result = emit(joined, 0, joined.length);
    if (result) await result;
  }
  if (count === 0) {
    // an empty log is more often a truncated export than a day without traffic: say so
    count = 1;
    await handle({ source, line: 1 }, undefined, {
      rule: "lint/empty-file",
      message: "the file holds no payload (empty or blank lines only); expected one JSON request payload per line",
    });
  }
  return count;
}

/** Reads a file or stream holding exactly one JSON payload. */
export async function readSingleJson(
  stream: ReadStream | NodeJS.ReadableStream,
  source: string,
  handle: PayloadHandler,
): Promise<number> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of chunksOf(stream)) {
    if (chunks.length === 0 && looksBinary(chunk)) {
      await handle({ source, line: 1 }, undefined, {
        rule: "lint/binary-file",
        message: "the file is binary, not JSON; pass request payload files only",
      });
      if ("destroy" in stream) (stream as ReadStream).destroy();
      return 1;
    }
    size += chunk.length;
    if (size > FILE_LIMIT) {
      await handle({ source, line: 1 }, undefined, {
        rule: "lint/line-too-long",
        message: `file is larger than ${sizeText(FILE_LIMIT)}; one payload per file is expected`,
      });
      if ("destroy" in stream) (stream as ReadStream).destroy();
      return 1;
    }
    chunks.push(chunk);
  }
  const bytes = Buffer.concat(chunks);
  const decoded = decode(bytes, 0, bytes.length, 1);
  if (typeof decoded !== "string") {
    await handle({ source, line: decoded.line }, undefined, { rule: decoded.rule, message: decoded.message });
    return 1;
  }
  let text = decoded;
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim() === "") {
    await handle({ source, line: 1 }, undefined, {
      rule: "lint/empty-file",
      message: "the file is empty; expected one JSON request payload",
    });
    return 1;
  }
  const at = { source, line: 1 };
  const parsed = parse(text, at, false);
  if (parsed.problem !== undefined) {
    const hint =
      text.trimStart().startsWith("{") && /}\s*\r?\n\s*{/.test(text)
        ? " (several payloads, one per line? name the file .ndjson or pass --ndjson)"
        : "";
    await handle({ source, line: parsed.line }, undefined, {
      ...parsed.problem,
      message: parsed.problem.message + hint,
    });
  } else await handle(at, parsed.value, undefined, parsed.warnings, text);
  return 1;
}

export class InputError extends Error {
  override name = "InputError";
}

/**
 * Expands the command line's inputs into files: a directory becomes its `.json`, `.ndjson` and
 * `.jsonl` files (recursively, sorted), a glob its matches (only when no file or directory has
 * that very name: `requests[1].json` is a file first); `-` stays stdin. A missing file or
 * unreadable directory is an `InputError` (exit 2), reported after the others were linted.
 */
export async function expandInputs(
  inputs: readonly string[],
  cwd: string,
): Promise<{ files: string[]; errors: InputError[] }> {
  const files: string[] = [];
  const errors: InputError[] = [];
  for (const input of inputs) {
    if (input === "-") {
      files.push("-");
      continue;
    }
    let info;
    let statError: unknown;
    try {
      info = await stat(resolve(cwd, input));
    } catch (error) {
      statError = error;
    }
    // An existing path is read as named, even `requests[1].json`; only one that does not exist is a pattern.
    const absent = ["ENOENT", "ENOTDIR"].includes((statError as NodeJS.ErrnoException | undefined)?.code ?? "");
    if (info === undefined && absent && /[*?[\]{}]/.test(input)) {
      const { glob } = await import("tinyglobby");
      const matches = (await glob(input, { cwd, onlyFiles: true, dot: false, expandDirectories: false }))
        .filter((f) => PAYLOAD_EXTENSIONS.has(extname(f).toLowerCase()))
        .sort();
      if (matches.length === 0)
        errors.push(new InputError(`${input}: no .json, .ndjson or .jsonl file matches this pattern`));
      files.push(...matches);
      continue;
    }
    if (info === undefined) {
      const code = (statError as NodeJS.ErrnoException).code;
      errors.push(
        new InputError(
          code === "ENOENT"
            ? `${input}: no such file or directory`
            : `${input}: cannot be read (${code ?? String(statError)})`,
        ),
      );
      continue;
    }
    if (info.isDirectory()) files.push(...(await payloadFilesIn(input, cwd, errors)));
    else files.push(input);
  }
  return { files, errors };
}

/**
 * The payload files under `dir`, sorted. A directory that cannot be read (EACCES, ELOOP,
 * ENAMETOOLONG…) becomes an `InputError` and the walk goes on with its siblings, so everything
 * readable is still linted and the run exits 2 at the end.
 */
async function payloadFilesIn(dir: string, cwd: string, errors: InputError[]): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(resolve(cwd, dir), { withFileTypes: true });
  } catch (error) {
    errors.push(
      new InputError(`${dir}: directory cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`),
    );
    return [];
  }
  const out: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await payloadFilesIn(path, cwd, errors)));
    // regular files only: a FIFO or socket in a directory would block the run forever
    else if (
      PAYLOAD_EXTENSIONS.has(extname(entry.name).toLowerCase()) &&
      (entry.isFile() || (entry.isSymbolicLink() && (await stat(resolve(cwd, path)).catch(() => undefined))?.isFile()))
    )
      out.push(path);
  }
  return out;
}

/** Opens a file for streaming; errors surface when it is read. */
export function openFile(path: string, cwd: string): ReadStream {
  // 64 KiB, node's default for files: with 1 MiB chunks peak RSS rose from ~95 to ~165 MB on a
  // 1M-line log (freed chunk buffers fragment malloc's heap), for no gain in speed
  return createReadStream(resolve(cwd, path), { highWaterMark: 64 * 1024 });
}
