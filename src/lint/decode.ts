/**
 * Reading payloads, part 1: bytes to text to a parsed value, and the problems on the way (not
 * UTF-8, binary, not JSON, a repeated key), said at their line; and a file or stream holding one
 * JSON payload. Nothing here throws on the content of a file: a problem becomes a `ReadProblem`.
 */
import type { ReadStream } from "node:fs";
import type { PlatformBuffer, ReadableLike } from "../platform/index.js";
import { findDuplicateKeys, jsonSyntaxError } from "../json/index.js";
import { redactUrlsInText } from "../diagnostics/index.js";
import { limitSize } from "../words/index.js";

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

/** The cap of a `.json` file holding one payload. */
const FILE_LIMIT = 256 * 1024 * 1024;
/** The default cap of one NDJSON line (`--max-line-bytes`). */
export const DEFAULT_MAX_LINE_BYTES = 8 * 1024 * 1024;

/** A JSON syntax error as "line L, column C: what" (1-based; lines counted from `firstLine`). */
export function describeJsonError(text: string, firstLine = 1): { line: number; message: string } {
  const { line, column, problem } = jsonSyntaxError(text, firstLine);
  return { line, message: `not valid JSON at line ${line}, column ${column}: ${problem}` };
}

/**
 * Bytes as UTF-8 text, or the problem when they are not UTF-8: never a silent U+FFFD. The check
 * runs only when the decoded text holds U+FFFD (which invalid bytes always produce).
 */
export function decode(
  buffer: PlatformBuffer,
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
export function duplicateWarnings(text: string, value: unknown, firstLine: number): ReadWarning[] | undefined {
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

export function parse(
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
    // a carriage return inside an NDJSON line (its CRLF's CR is already cut): lines that end with CR
    // alone (classic Mac OS) read as one line, and JSON.parse only sees "text after the value"
    const advice = !ndjson
      ? "fix the JSON"
      : /\r/.test(text)
        ? "the line holds carriage returns (\\r) without a newline after them: lines that end with CR alone read as one line; convert the file's line ends to LF (\\n) or CRLF"
        : "fix the JSON or remove the line";
    return {
      value: undefined,
      problem: {
        rule: "lint/invalid-json",
        message: `${message}; ${advice}`,
      },
      line,
    };
  }
}

/** Whether a file's first chunk is not UTF-8 text: a NUL byte in its first 8000 bytes (binary, or UTF-16/32 text). */
export function looksBinary(chunk: Uint8Array): boolean {
  const end = Math.min(chunk.length, 8000);
  for (let i = 0; i < end; i++) if (chunk[i] === 0) return true;
  return false;
}

/**
 * Which UTF-16 a first chunk is in, when it is UTF-16 text: by its byte order mark (FF FE, FE FF;
 * FF FE 00 00 is UTF-32, not this), else by the NULs of ASCII text (JSON's braces, quotes and keys),
 * every other byte zero in at least 3 of 4 code units of the first 8000 bytes. Undefined otherwise.
 */
export function utf16Of(chunk: Uint8Array): { endian: "little" | "big"; bom: boolean } | undefined {
  if (chunk[0] === 0xff && chunk[1] === 0xfe && !(chunk[2] === 0 && chunk[3] === 0))
    return { endian: "little", bom: true };
  if (chunk[0] === 0xfe && chunk[1] === 0xff) return { endian: "big", bom: true };
  const units = Math.floor(Math.min(chunk.length, 8000) / 2);
  if (units < 2) return undefined;
  let little = 0;
  let big = 0;
  for (let i = 0; i < units; i++) {
    const a = chunk[2 * i]!;
    const b = chunk[2 * i + 1]!;
    if (a !== 0 && b === 0) little++;
    else if (a === 0 && b !== 0) big++;
  }
  if (little * 4 >= units * 3) return { endian: "little", bom: false };
  if (big * 4 >= units * 3) return { endian: "big", bom: false };
  return undefined;
}

/**
 * What to say of a first chunk that {@link looksBinary}: UTF-16 text (PowerShell's `>` and
 * `Out-File` write UTF-16LE with a byte order mark) is said as such, with how to save it as UTF-8,
 * under `lint/invalid-utf8` (it is text, only not UTF-8; "binary" would send the user looking for
 * the wrong file); anything else is `lint/binary-file`. `what`: "JSON", or "JSON or NDJSON".
 */
export function binaryProblem(chunk: Uint8Array, what: string): ReadProblem {
  const utf16 = utf16Of(chunk);
  if (utf16 === undefined)
    return { rule: "lint/binary-file", message: `the file is binary, not ${what}; pass request payload files only` };
  return {
    rule: "lint/invalid-utf8",
    message:
      `the file is UTF-16 text (${utf16.endian}-endian, ${utf16.bom ? "with" : "without"} a byte order mark${utf16.endian === "little" && utf16.bom ? ", as PowerShell's > and Out-File write it" : ""}), not UTF-8; ` +
      `${what} is read as UTF-8 (RFC 8259): save it as UTF-8 (PowerShell: \`… | Out-File -Encoding utf8 FILE\`; an editor: "Save with encoding", UTF-8) and lint it again`,
  };
}

/** The chunks of a stream (a file, stdin, a decompressor) as Buffers. */
export async function* chunksOf(stream: ReadableLike): AsyncGenerator<PlatformBuffer> {
  for await (const chunk of stream) yield typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
}

/** Reads a file or stream holding exactly one JSON payload. */
export async function readSingleJson(stream: ReadableLike, source: string, handle: PayloadHandler): Promise<number> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of chunksOf(stream)) {
    if (chunks.length === 0 && looksBinary(chunk)) {
      await handle({ source, line: 1 }, undefined, binaryProblem(chunk, "JSON"));
      if ("destroy" in stream) (stream as ReadStream).destroy();
      return 1;
    }
    size += chunk.length;
    if (size > FILE_LIMIT) {
      await handle({ source, line: 1 }, undefined, {
        rule: "lint/line-too-long",
        message: `file is larger than ${limitSize(FILE_LIMIT)}; one payload per file is expected`,
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
