/**
 * File operations the write protocols are built from: a file written and flushed to disk, a
 * directory entry flushed, a rename, a removal, each announced to the crash test hook; and reads
 * that never hang or blow up on what a user's tree may hold (a FIFO, a socket, a symlink loop, a
 * 600 MB file): `lstat` before anything is opened, and only as many bytes as needed.
 */
import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmdirSync,
  unlinkSync,
  writeSync,
  type Stats,
} from "node:fs";
import { join } from "node:path";
import { step } from "./crash-hook.js";
import { byteSize, limitSize } from "../words/index.js";

/** A file vsk will not open or replace: not a regular file, or far larger than anything it writes. */
export class SpecialFileError extends Error {
  override name = "SpecialFileError";
  constructor(
    readonly file: string,
    readonly problem: string,
  ) {
    super(`${file} ${problem}`);
  }
}

/** What a non-regular directory entry is, in words; undefined for a regular file. */
export function kindOf(info: Stats): string | undefined {
  if (info.isFile()) return undefined;
  if (info.isDirectory()) return "a directory";
  if (info.isSymbolicLink()) return "a symbolic link";
  if (info.isFIFO()) return "a named pipe (FIFO)";
  if (info.isSocket()) return "a socket";
  if (info.isCharacterDevice()) return "a character device";
  if (info.isBlockDevice()) return "a block device";
  return "not a regular file";
}

const errnoOf = (error: unknown): string | undefined => (error as NodeJS.ErrnoException | undefined)?.code;

/** O_NONBLOCK: opening a FIFO must not wait for a writer (the fstat below then refuses it). */
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * Reads a regular file whole, following a symlink to one. A FIFO, socket, device or directory, a
 * symlink loop, or a file over `maxBytes` is a `SpecialFileError` saying which; nothing is read
 * from it. Other errors (ENOENT, EACCES) are thrown as they are.
 */
export function readRegularFile(file: string, maxBytes: number): Buffer {
  return withOpen(file, maxBytes, (fd, size) => readFully(fd, size));
}

/** The first `bytes` bytes of a regular file (its header), under the same rules as `readRegularFile`. */
export function readHead(file: string, bytes: number, maxBytes = Number.MAX_SAFE_INTEGER): Buffer {
  return withOpen(file, maxBytes, (fd, size) => readFully(fd, Math.min(size, bytes)));
}

function withOpen<T>(file: string, maxBytes: number, use: (fd: number, size: number) => T): T {
  let fd: number;
  try {
    fd = openSync(file, READ_FLAGS);
  } catch (error) {
    if (errnoOf(error) === "ELOOP") throw new SpecialFileError(file, "is a symbolic link loop");
    if (errnoOf(error) === "EISDIR") throw new SpecialFileError(file, "is a directory");
    throw error;
  }
  try {
    const info = fstatSync(fd);
    const kind = kindOf(info);
    if (kind !== undefined) throw new SpecialFileError(file, `is ${kind}, not a regular file`);
    if (info.size > maxBytes)
      throw new SpecialFileError(file, `is ${byteSize(info.size)}, more than the ${limitSize(maxBytes)} vsk reads`);
    return use(fd, info.size);
  } finally {
    closeSync(fd);
  }
}

function readFully(fd: number, size: number): Buffer {
  const buffer = Buffer.alloc(size);
  let at = 0;
  while (at < size) {
    const n = readSync(fd, buffer, at, size - at, at);
    if (n === 0) break; // shrank while we read
    at += n;
  }
  return buffer.subarray(0, at);
}

/** `lstat`, or undefined when nothing is there (also when a parent is a file: ENOTDIR). */
export function entryAt(path: string): Stats | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch (error) {
    if (errnoOf(error) === "ENOTDIR") return undefined;
    throw error;
  }
}

/**
 * Creates `file` (it must not exist) with `content` and flushes it to disk. With a `label`, the
 * crash hook sees the file before it exists and again half written, the states a kill can leave.
 */
export function writeFileDurable(file: string, content: string | Buffer, label?: string): void {
  const bytes = typeof content === "string" ? Buffer.from(content) : content;
  if (label !== undefined) step(`write ${label}`);
  const fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o666);
  try {
    const half = bytes.length >> 1;
    writeAll(fd, bytes.subarray(0, half));
    if (label !== undefined) step(`write ${label} (half written)`);
    writeAll(fd, bytes.subarray(half));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function writeAll(fd: number, bytes: Buffer): void {
  for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at);
}

/**
 * Flushes a directory's entries (the names created, renamed or removed in it) to disk. Where a
 * directory cannot be opened for that (Windows), the rename itself is what there is.
 */
export function syncDir(dir: string): void {
  let fd: number;
  try {
    fd = openSync(dir, constants.O_RDONLY);
  } catch {
    return;
  }
  try {
    fsyncSync(fd);
  } catch {
    // EINVAL / EISDIR where directories cannot be synced: nothing more to do
  } finally {
    closeSync(fd);
  }
}

export function renameStep(from: string, to: string, label: string): void {
  step(`rename ${label}`);
  renameSync(from, to);
}

export function unlinkStep(file: string, label: string): void {
  step(`remove ${label}`);
  unlinkSync(file);
}

export function mkdirStep(dir: string, label: string): void {
  step(`make directory ${label}`);
  mkdirSync(dir);
}

/**
 * Removes a directory tree that vsk made (never following a symlink out of it). The crash hook
 * sees it before anything is removed and again once part of it is gone.
 */
export function removeTree(dir: string, label: string): void {
  step(`remove ${label}`);
  let announced = false;
  const walk = (at: string): void => {
    for (const name of readdirSync(at)) {
      const full = join(at, name);
      const info = lstatSync(full);
      if (info.isDirectory()) walk(full);
      else unlinkSync(full);
      if (!announced) {
        announced = true;
        step(`remove ${label} (partly removed)`);
      }
    }
    rmdirSync(at);
  };
  walk(dir);
}

export interface Listing {
  /** regular files, relative `/`-separated paths */
  files: string[];
  /** entries that are neither a directory nor a regular file, with what they are */
  special: Array<{ path: string; kind: string }>;
  /** false when the walk stopped at `limit` files */
  complete: boolean;
}

/**
 * Walks a directory with `lstat`: symlinks are reported, never followed (so a symlink loop is
 * just an entry), FIFOs and sockets are reported, never opened. Stops after `limit` files.
 */
export function listTree(dir: string, limit = Infinity): Listing {
  const out: Listing = { files: [], special: [], complete: true };
  const walk = (at: string, prefix: string): boolean => {
    for (const entry of readdirSync(at, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const rel = prefix + entry.name;
      if (entry.isDirectory()) {
        if (!walk(join(at, entry.name), rel + "/")) return false;
      } else if (entry.isFile()) {
        out.files.push(rel);
        if (out.files.length > limit) return false;
      } else {
        out.special.push({ path: rel, kind: kindOf(lstatSync(join(at, entry.name))) ?? "not a regular file" });
      }
    }
    return true;
  };
  out.complete = walk(dir, "");
  return out;
}
