/**
 * Reading request payloads: a JSON file holds one payload; NDJSON / JSONL (`.ndjson`, `.jsonl`,
 * or stdin with `--ndjson`) holds one per line. Files are streamed in chunks, so a log of a
 * million requests is read in constant memory. Nothing here throws on the content of a file:
 * a bad line, a binary file or an empty file becomes a `ReadProblem` at its line.
 */
import { createReadStream, type ReadStream } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { extname, join, resolve } from "node:path";
import { jsonSyntaxError } from "../json/index.js";

/** Where a payload came from: the path as the user wrote it (`<stdin>` for stdin) and its 1-based line. */
export interface PayloadSource {
  source: string;
  line: number;
}

/** A problem with the text itself, before any validation. */
export interface ReadProblem {
  rule: "lint/invalid-json" | "lint/binary-file" | "lint/empty-file" | "lint/line-too-long";
  message: string;
}

/** Called for every payload: its parsed value, or the problem that kept it from being read. */
export type PayloadHandler = (
  at: PayloadSource,
  value: unknown,
  problem: ReadProblem | undefined,
) => void | Promise<void>;

export const PAYLOAD_EXTENSIONS = new Set([".json", ".ndjson", ".jsonl"]);
const LINE_LIMIT = 256 * 1024 * 1024;

export function isNdjsonPath(path: string): boolean {
  const ext = extname(path).toLowerCase();
  return ext === ".ndjson" || ext === ".jsonl";
}

/** A JSON syntax error as "line L, column C: what" (1-based; lines counted from `firstLine`). */
export function describeJsonError(text: string, firstLine = 1): { line: number; message: string } {
  const { line, column, problem } = jsonSyntaxError(text, firstLine);
  return { line, message: `not valid JSON at line ${line}, column ${column}: ${problem}` };
}

function parse(
  text: string,
  at: PayloadSource,
  ndjson: boolean,
): { value: unknown; problem?: ReadProblem; line: number } {
  try {
    return { value: JSON.parse(text), line: at.line };
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
): Promise<number> {
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
    const parsed = parse(buffer.toString("utf8", start, end), at, true);
    return handle(at, parsed.value, parsed.problem);
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
    if (pending > LINE_LIMIT) {
      line++;
      count++;
      await handle({ source, line }, undefined, {
        rule: "lint/line-too-long",
        message: `line is longer than ${LINE_LIMIT / 1024 / 1024} MiB; split the payload`,
      });
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
    if (size > LINE_LIMIT) {
      await handle({ source, line: 1 }, undefined, {
        rule: "lint/line-too-long",
        message: `file is larger than ${LINE_LIMIT / 1024 / 1024} MiB; one payload per file is expected`,
      });
      if ("destroy" in stream) (stream as ReadStream).destroy();
      return 1;
    }
    chunks.push(chunk);
  }
  let text = Buffer.concat(chunks).toString("utf8");
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
  } else await handle(at, parsed.value, undefined);
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
    if (info.isDirectory()) {
      try {
        files.push(...(await payloadFilesIn(input, cwd)));
      } catch (error) {
        errors.push(
          new InputError(
            `${input}: directory cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
          ),
        );
      }
    } else files.push(input);
  }
  return { files, errors };
}

async function payloadFilesIn(dir: string, cwd: string): Promise<string[]> {
  const entries = await readdir(resolve(cwd, dir), { withFileTypes: true });
  const out: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await payloadFilesIn(path, cwd)));
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
