/**
 * Writing and checking the output directory: `generate` replaces it as a whole (crash-safely, one
 * writer at a time: src/durable/swap.ts), `generate --check` compares it with what the snapshot
 * gives. Neither opens anything but regular files, nor reads more of a file than it needs.
 */
import { lstatSync, mkdirSync, realpathSync, rmdirSync, type Stats } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import {
  entryAt,
  kindOf,
  listTree,
  LockBusyError,
  printable,
  readableDirectory,
  readHead,
  readRegularFile,
  replaceDirectory,
  SpecialFileError,
} from "../durable/index.js";
import { EmitError } from "./validator.js";
import type { GeneratedFile } from "./generated-file.js";
import type { Lang } from "./generate.js";

export interface Staleness {
  changed: string[];
  missing: string[];
  extra: string[];
}

/** The entries of `dir` that are not regular files or directories, as one refusal; undefined when none. */
function refuseSpecial(dir: string, special: ReadonlyArray<{ path: string; kind: string }>): string | undefined {
  if (special.length === 0) return undefined;
  const shown = special
    .slice(0, 5)
    .map((s) => `${printable(s.path)} (${s.kind})`)
    .join(", ");
  return `${dir} holds ${special.length === 1 ? "an entry" : "entries"} that vsk never writes: ${shown}${special.length > 5 ? ", …" : ""}; vsk writes only regular files there: remove ${special.length === 1 ? "it" : "them"}`;
}

/**
 * Compares generated files with what is on disk (for `generate --check`), after finishing or
 * undoing a `generate` a killed process left. A file whose size differs is changed without being
 * read; a FIFO, socket or symlink in the directory is an `EmitError` naming it.
 */
export function compareWithDisk(outDir: string, files: readonly GeneratedFile[]): Staleness {
  let dir: string;
  let listing;
  try {
    dir = readableDirectory(outDir, "generate");
    const top = entryAt(dir);
    if (top === undefined) return { changed: [], missing: files.map((f) => f.path), extra: [] };
    if (!top.isDirectory() && !(top.isSymbolicLink() && lstatSync(realpathSync(dir)).isDirectory()))
      throw new EmitError(`outDir ${outDir} is ${kindOf(top) ?? "a file"}, not a directory`);
    listing = listTree(dir);
  } catch (error) {
    throw asEmitError(error, outDir);
  }
  const refusal = refuseSpecial(outDir, listing.special);
  if (refusal !== undefined) throw new EmitError(refusal);
  const onDisk = new Set(listing.files);
  const changed: string[] = [];
  const missing: string[] = [];
  for (const f of files) {
    if (!onDisk.has(f.path)) missing.push(f.path);
    else if (!sameContent(join(dir, f.path), f.content)) changed.push(f.path);
    onDisk.delete(f.path);
  }
  return { changed, missing, extra: [...onDisk].sort() };
}

function sameContent(file: string, content: string): boolean {
  const expected = Buffer.from(content);
  try {
    if (lstatSync(file).size !== expected.length) return false;
    return readRegularFile(file, expected.length).equals(expected);
  } catch (error) {
    if (error instanceof SpecialFileError) return false; // replaced meanwhile: stale either way
    throw asEmitError(error, file);
  }
}

function asEmitError(error: unknown, path: string): unknown {
  if (error instanceof EmitError) return error;
  if (error instanceof LockBusyError) return new EmitError(error.message);
  if (error instanceof SpecialFileError) return new EmitError(`${error.message}; remove it`);
  const code = (error as NodeJS.ErrnoException).code;
  if (code === undefined) return error;
  return new EmitError(`cannot read ${path} (${code})`);
}

/**
 * Replaces the output directory's contents: everything is written to a sibling directory first,
 * then swapped in under a lock, so a killed or failed run never leaves half a `generated/`, and
 * the next vsk command finishes or undoes what a killed one left.
 */
export function writeGenerated(outDir: string, files: readonly GeneratedFile[]): void {
  const early = whyNotReplaceHere(outDir);
  if (early !== undefined) throw new EmitError(early);
  const made: string[] = [];
  try {
    // `"outDir": "src/gen"` in a project with no src/ yet: its parents are made first (it said ENOENT)
    makeParents(outDir, made);
    replaceDirectory(outDir, files, "generate", () => {
      const refusal = whyNotReplace(outDir);
      if (refusal !== undefined) throw new EmitError(refusal);
    });
  } catch (error) {
    // a failed run leaves nothing of its own: the directories it made, still empty, go too
    for (const dir of made.reverse()) {
      try {
        rmdirSync(dir);
      } catch {
        break; // not empty (someone else's now) or gone: left as it is
      }
    }
    if (error instanceof EmitError) throw error;
    if (error instanceof LockBusyError) throw new EmitError(error.message);
    if (error instanceof SpecialFileError) throw new EmitError(`${error.message}; remove it`);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === undefined) throw error;
    throw new EmitError(
      `cannot write ${outDir} (${code}); check that outDir is a directory you can write, under one you can write (missing parents are made)`,
    );
  }
}

/**
 * What `generate` would refuse about `outDir`, said before any code is generated (issue 42.4: a
 * refused run no longer spends seconds emitting first): the refusals of {@link writeGenerated},
 * and a path under a file. {@link writeGenerated} decides again, under the lock.
 */
export function checkOutDir(outDir: string): void {
  let refusal: string | undefined;
  try {
    refusal = whyNotReplace(outDir);
    if (refusal === undefined && entryAt(outDir) === undefined) {
      // nothing there yet: the nearest thing that exists on the way must be a directory
      const { above, info, missing } = wayUp(outDir);
      // the directories missing on the way are made by writeGenerated, never through someone else's link
      refusal = missing.length === 0 ? undefined : foreignLink(outDir, above, info, missing[0]!);
      if (!isDirectory(above, info)) throw Object.assign(new Error("ENOTDIR"), { code: "ENOTDIR" });
    }
  } catch (error) {
    if (error instanceof SpecialFileError) throw new EmitError(`${error.message}; remove it`);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === undefined) throw error;
    throw new EmitError(
      `cannot write ${outDir} (${code}); check that outDir is a directory you can write, under one you can write (missing parents are made)`,
    );
  }
  if (refusal !== undefined) throw new EmitError(refusal);
}

/** The directories missing above `outDir` (top first), and the nearest one on the way that exists, with its `lstat`. */
function wayUp(outDir: string): { above: string; info: Stats; missing: string[] } {
  const missing: string[] = [];
  let above = dirname(resolve(outDir));
  while (entryAt(above) === undefined && dirname(above) !== above) {
    missing.unshift(above);
    above = dirname(above);
  }
  return { above, info: lstatSync(above), missing };
}

/** A directory, or a symbolic link to one. */
function isDirectory(path: string, info: Stats): boolean {
  return info.isDirectory() || (info.isSymbolicLink() && lstatSync(realpathSync(path)).isDirectory());
}

/**
 * Why vsk does not make `first` (the top directory missing above `outDir`) under `above`: a
 * symbolic link another user (not root) owns; undefined when it may.
 */
function foreignLink(outDir: string, above: string, info: Stats, first: string): string | undefined {
  const uid = process.getuid?.();
  if (!info.isSymbolicLink() || uid === undefined || info.uid === uid || info.uid === 0) return undefined;
  return `outDir ${outDir} does not exist, and ${printable(above)} above it is a symbolic link another user owns; vsk does not create directories through it: create ${printable(first)} yourself, or choose another outDir`;
}

/**
 * Makes the directories missing above `outDir`, one at a time (no `recursive`: each is checked to
 * be a directory it made, never one that appeared as a link meanwhile), below the nearest one that
 * exists. That one must be a directory, or a symbolic link to one that this user or root owns:
 * vsk does not create directories through someone else's link. Those it made are added to `made`,
 * top first, as it goes (so that a failure part way can remove them).
 */
function makeParents(outDir: string, made: string[]): void {
  const { above, info: base, missing } = wayUp(outDir);
  if (missing.length === 0) return;
  const foreign = foreignLink(outDir, above, base, missing[0]!);
  if (foreign !== undefined) throw new EmitError(foreign);
  if (!isDirectory(above, base))
    throw new EmitError(
      `outDir ${outDir} cannot be made: ${printable(above)} is ${kindOf(base) ?? "a file"}, not a directory`,
    );
  for (const dir of missing) {
    try {
      mkdirSync(dir);
      made.push(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const info = lstatSync(dir);
    if (!info.isDirectory())
      throw new EmitError(
        `outDir ${outDir} cannot be made: ${printable(dir)} appeared as ${kindOf(info) ?? "a file"} while generate made its parents; remove it`,
      );
  }
}

const GENERATED_HEADER = "// Generated by `vsk generate`";

/**
 * The layout a `generate` left in `outDir`: `ts` when it holds `index.mts`, `js` when it holds
 * `index.js` with `index.d.ts` (`--lang js`); undefined when it holds neither (nothing yet).
 * `generate` keeps it when no language is configured, rather than swapping one for the other
 * under the imports of the project (src/cli/generate.ts).
 */
export function layoutOnDisk(outDir: string): Lang | undefined {
  const file = (name: string): boolean => entryAt(join(outDir, name))?.isFile() === true;
  try {
    if (file("index.mts")) return "ts";
    if (file("index.js") && file("index.d.ts")) return "js";
  } catch {
    // an outDir that cannot be looked into has no layout to keep: generate and --check say why
  }
  return undefined;
}

/** What can be refused before taking any lock: outDir is not a directory, or holds the project. */
function whyNotReplaceHere(outDir: string): string | undefined {
  const info = entryAt(outDir);
  if (info === undefined) return undefined;
  if (info.isSymbolicLink())
    return `outDir ${outDir} is a symbolic link; generate replaces the directory as a whole, which would replace the link: set outDir to the directory itself`;
  if (!info.isDirectory())
    return `outDir ${outDir} is ${info.isFile() ? "a file" : kindOf(info)}, not a directory; choose a directory for the generated code`;
  const root = resolve(outDir);
  const cwd = resolve(process.cwd());
  if (cwd === root || cwd.startsWith(root.endsWith(sep) ? root : root + sep)) {
    return `outDir ${outDir} is the current directory or one of its parents; choose a directory of its own for the generated code`;
  }
  return undefined;
}

/**
 * A package.json that says only `"type": "module"`: what a `--lang js` project had to write by hand
 * before generate wrote its own (src/emit/generate.ts), replaced by that one with the same meaning.
 */
function onlyModuleType(text: string): boolean {
  try {
    const value = JSON.parse(text) as unknown;
    return (
      typeof value === "object" &&
      value !== null &&
      Object.keys(value).length === 1 &&
      (value as { type?: unknown }).type === "module"
    );
  } catch {
    return false;
  }
}

/**
 * `generate` replaces its output directory as a whole, so it refuses any directory that holds a
 * file it did not write: an empty or missing directory, or one made by vsk, is fine. Entries are
 * looked at with `lstat`, and of each file only its first bytes are read (the header).
 */
export function whyNotReplace(outDir: string): string | undefined {
  const early = whyNotReplaceHere(outDir);
  if (early !== undefined || entryAt(outDir) === undefined) return early;
  const listing = listTree(outDir, 5000);
  if (!listing.complete)
    return `outDir ${outDir} holds more than 5000 files; choose a directory of its own for the generated code`;
  const special = refuseSpecial(`outDir ${outDir}`, listing.special);
  if (special !== undefined) return special;
  const foreign: string[] = [];
  for (const file of listing.files) {
    let text: string;
    try {
      text = readHead(join(outDir, file), 200).toString("utf8");
    } catch (error) {
      if (error instanceof SpecialFileError) {
        foreign.push(file);
        continue;
      }
      throw error;
    }
    const ours =
      file === "endpoints.json"
        ? /"generatedBy":\s*"vsk generate"/.test(text)
        : file === "package.json"
          ? /^\{\s*"\/\/":\s*"Generated by `vsk generate/.test(text) || onlyModuleType(text)
          : file.endsWith(".schema.json")
          ? /"\$comment":\s*"Generated by `vsk generate`/.test(text)
          : text.startsWith(GENERATED_HEADER);
    if (!ours) foreign.push(file);
  }
  if (foreign.length === 0) return undefined;
  return `outDir ${outDir} holds files that vsk did not generate (${foreign.slice(0, 5).map(printable).join(", ")}${foreign.length > 5 ? ", …" : ""}); generate replaces the whole directory, so choose an empty or vsk-generated one`;
}
