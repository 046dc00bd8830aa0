/**
 * Reading payloads, part 3: the command line's inputs as files (directories, globs, `-` for
 * stdin), which of them are NDJSON, and opening one for streaming.
 */
import { createReadStream, type ReadStream } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { extname, join, resolve, sep } from "node:path";
import { Readable } from "node:stream";
import { payloadExtension } from "./compressed.js";

/** What directories and globs pick up, also compressed (`.ndjson.gz`, `.json.br`, issue 25.1). */
export const PAYLOAD_EXTENSIONS = new Set([".json", ".ndjson", ".jsonl"]);
const isPayloadPath = (path: string): boolean => PAYLOAD_EXTENSIONS.has(payloadExtension(path));
export function isNdjsonPath(path: string): boolean {
  const ext = payloadExtension(path);
  return ext === ".ndjson" || ext === ".jsonl";
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
  /**
   * allowEmpty: false (lint) makes a directory without payload files an error naming what it
   * skipped; true lets a glob match nothing; unset (drift --requests) keeps a glob matching
   * nothing an error and an empty directory none.
   */
  options: { allowEmpty?: boolean } = {},
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
      const matches = (await glob(globPattern(input), { cwd, onlyFiles: true, dot: false, expandDirectories: false }))
        .filter(isPayloadPath)
        .sort();
      if (matches.length === 0 && options.allowEmpty !== true)
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
      const skipped = new Map<string, number>();
      const found = await payloadFilesIn(input, cwd, errors, skipped);
      // a gate that checked nothing must not pass (issue 25.0): say what was there instead
      if (found.length === 0 && options.allowEmpty === false)
        errors.push(new InputError(`no .json/.ndjson/.jsonl files in ${input} (${skippedText(skipped)})`));
      files.push(...found);
    } else files.push(input);
  }
  return { files, errors };
}

/**
 * The payload files under `dir`, sorted. A directory that cannot be read (EACCES, ELOOP,
 * ENAMETOOLONG…) becomes an `InputError` and the walk goes on with its siblings, so everything
 * readable is still linted and the run exits 2 at the end.
 */
async function payloadFilesIn(
  dir: string,
  cwd: string,
  errors: InputError[],
  skipped: Map<string, number>,
): Promise<string[]> {
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
    if (entry.isDirectory()) out.push(...(await payloadFilesIn(path, cwd, errors, skipped)));
    // regular files only: a FIFO or socket in a directory would block the run forever
    else if (
      isPayloadPath(entry.name) &&
      (entry.isFile() || (entry.isSymbolicLink() && (await stat(resolve(cwd, path)).catch(() => undefined))?.isFile()))
    )
      out.push(path);
    else {
      const ext = extname(entry.name).toLowerCase() || "(no extension)";
      skipped.set(ext, (skipped.get(ext) ?? 0) + 1);
    }
  }
  return out;
}

/** "1 .gz file skipped", "2 .gz files and 1 .txt file skipped", "it holds no files". */
function skippedText(skipped: Map<string, number>): string {
  if (skipped.size === 0) return "it holds no files";
  const parts = [...skipped].map(([ext, n]) => {
    const bare = ext === "(no extension)";
    return `${n} ${bare ? "" : `${ext} `}file${n === 1 ? "" : "s"}${bare ? " without an extension" : ""}`;
  });
  const list = parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
  return `${list} skipped: only .json, .ndjson and .jsonl files (also as .gz or .br) are read`;
}

/** Opens a file for streaming; errors surface when it is read. */
export function openFile(path: string, cwd: string): ReadStream {
  // 64 KiB, node's default for files: with 1 MiB chunks peak RSS rose from ~95 to ~165 MB on a
  // 1M-line log (freed chunk buffers fragment malloc's heap), for no gain in speed
  return createReadStream(resolve(cwd, path), { highWaterMark: 64 * 1024 });
}

/** The most of stdin looked at to tell NDJSON from one document: a first line longer than this is a document. */
const SNIFF_BYTES = 8 << 20;

/**
 * Whether stdin holds NDJSON (issue 25.2): its first line is a complete JSON value and another
 * value starts on a later line. A pretty-printed document's first line (`{`) is not complete, and
 * one value on one line is one document. Returns the stream to read, holding what was read to tell.
 */
export function sniffNdjson(stream: Readable): Promise<{ ndjson: boolean; stream: Readable }> {
  const chunks: Buffer[] = [];
  let size = 0;
  // ended already (an empty stdin, seen whole by the decompression check): it holds nothing more to tell
  if (stream.readableEnded) return Promise.resolve({ ndjson: false, stream });
  return new Promise((resolve, reject) => {
    const finish = (ndjson: boolean, ended: boolean): void => {
      stream.off("readable", onReadable).off("end", onEnd).off("error", onError);
      // an ended stream takes nothing back: what it held is all there is
      if (ended) return resolve({ ndjson, stream: Readable.from([Buffer.concat(chunks)]) });
      if (chunks.length > 0) stream.unshift(Buffer.concat(chunks));
      resolve({ ndjson, stream });
    };
    /** true or false once the bytes so far tell, undefined while they do not */
    const verdict = (ended: boolean): boolean | undefined => {
      const text = Buffer.concat(chunks).toString("utf8");
      // a byte order mark and blank lines before the first payload are skipped, as the NDJSON
      // reader skips them (issue 38.5); `\s` covers U+FEFF
      const start = text.search(/\S/);
      const newline = start < 0 ? -1 : text.indexOf("\n", start);
      if (newline < 0) return ended || size > SNIFF_BYTES ? false : undefined;
      if (!/\S/.test(text.slice(newline))) return ended || size > SNIFF_BYTES ? false : undefined;
      try {
        JSON.parse(text.slice(start, newline));
        return true;
      } catch {
        return false;
      }
    };
    const onReadable = (): void => {
      let chunk;
      while ((chunk = stream.read() as Buffer | string | null) !== null) {
        const buffer = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
        chunks.push(buffer);
        size += buffer.length;
        const ndjson = verdict(false);
        if (ndjson !== undefined) return finish(ndjson, false);
      }
    };
    const onEnd = (): void => finish(verdict(true) ?? false, true);
    const onError = (error: Error): void => {
      stream.off("readable", onReadable).off("end", onEnd).off("error", onError);
      reject(error);
    };
    stream.on("readable", onReadable).on("end", onEnd).on("error", onError);
  });
}

/**
 * A pattern as the glob library reads it: `/` between names. On Windows a user types `\`
 * (`requests\**\*.json`), which the library would read as an escape; elsewhere `\` escapes.
 */
export function globPattern(input: string, separator: string = sep): string {
  return separator === "\\" ? input.replaceAll("\\", "/") : input;
}
