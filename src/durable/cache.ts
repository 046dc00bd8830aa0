/**
 * vsk's caches on the user's disk, one home for every kind (`lint`: the JavaScript build of the
 * validators; `format`: generate's formatted modules; `v8`: Node's compiled code of vsk and the
 * packages it loads, on a Node that has `module.enableCompileCache`): where they live, when they may be trusted
 * and how an entry is written. `<cache>/video-schema-kit/<kind>/`, where `<cache>` is the nearest
 * `node_modules/.cache` above the directory they serve, else the user's own cache directory
 * (`$XDG_CACHE_HOME`, else `~/.cache`; never a shared temp directory, issue 23.13).
 *
 * What a cache holds becomes code the user runs or commits, so it is trusted only when it is the
 * user's own: its directories are created 0700 and its files 0600, and a directory or file of it
 * that another user owns, that others may write, or that is a symbolic link is refused.
 */
import { createHash } from "node:crypto";
import nodeModule from "node:module";
import { existsSync, lstatSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join } from "node:path";

/** The directory every cache path of ours sits in; it and everything below it is checked. */
export const CACHE_NAME = "video-schema-kit";

/** The SHA-256 of the texts (each ended by a NUL), in hex: a cache key (`length` digits of it for a file name). */
export function contentHash(texts: readonly string[], length = 64): string {
  const h = createHash("sha256");
  for (const t of texts) h.update(t).update("\0");
  return h.digest("hex").slice(0, length);
}

/**
 * The cache directory of one kind for files under `dir`: the nearest `node_modules/.cache` above
 * it, else `$XDG_CACHE_HOME` (an absolute path; the XDG spec ignores a relative one), else `~/.cache`.
 */
export function cacheDir(
  dir: string,
  kind: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): string {
  for (let at = dir; ; at = dirname(at)) {
    const modules = join(at, "node_modules");
    if (existsSync(modules) && statSync(modules).isDirectory()) return join(modules, ".cache", CACHE_NAME, kind);
    if (dirname(at) === at) break;
  }
  const xdg = env.XDG_CACHE_HOME;
  return join(xdg !== undefined && isAbsolute(xdg) ? xdg : join(homedir(), ".cache"), CACHE_NAME, kind);
}

/**
 * Why a path of a cache cannot be trusted, or undefined (also when it does not exist yet: we
 * create it). Ownership and mode are POSIX; on Windows (no uid) nothing is refused.
 */
export function distrust(path: string): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  let info;
  try {
    info = lstatSync(path);
  } catch {
    return undefined;
  }
  if (info.isSymbolicLink()) return `${path} is a symbolic link`;
  if (info.uid !== uid) return `${path} is owned by another user (uid ${info.uid}, not ${uid})`;
  if ((info.mode & 0o022) !== 0)
    return `${path} is writable by others (mode ${(info.mode & 0o777).toString(8).padStart(3, "0")})`;
  return undefined;
}

/** The first untrusted directory from the `video-schema-kit` directory down to `root`, or undefined. */
export function distrustChain(root: string): string | undefined {
  const chain: string[] = [];
  for (let dir = root; ; dir = dirname(dir)) {
    chain.unshift(dir);
    if (basename(dir) === CACHE_NAME || dirname(dir) === dir) break;
  }
  for (const dir of chain) {
    const problem = distrust(dir);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** Writes a cache file whole or not at all (a temp file renamed into place), 0600 in 0700 directories. */
export function writeCacheFile(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.vsk-tmp-${process.pid}`;
  try {
    writeFileSync(temp, text, { mode: 0o600 });
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** What `module.enableCompileCache` answers (Node >= 22.1): its status and, on failure, why. */
interface CompileCacheResult {
  status: number;
  message?: string;
}
type EnableCompileCache = (dir: string) => CompileCacheResult;

/**
 * Node's on-disk cache of compiled JavaScript (`module.enableCompileCache`, Node >= 22.1) in vsk's
 * `v8` cache for the package at `packageDir`: a later start compiles nothing it compiled before
 * (vsk's bundle, yargs, prettier, ts-morph: `vsk generate --check` 2.0-2.9 s -> 1.2-1.4 s, `vsk lint
 * file.json` -10 ms on Node 22). Compiled code is code we run, so the folder must be trusted as every
 * cache of ours is; an untrusted one is not used and the reason is returned, to be said. Nothing
 * happens on a Node without the API (20; `enable` null), or when the user chose: `NODE_COMPILE_CACHE` (Node
 * enabled it already, in their folder) or `NODE_DISABLE_COMPILE_CACHE`.
 */
export function useCompileCache(
  packageDir: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
  enable: EnableCompileCache | null = (nodeModule as { enableCompileCache?: EnableCompileCache }).enableCompileCache ??
    null,
): { dir: string; refused?: string } | undefined {
  if (enable === null || env.NODE_COMPILE_CACHE !== undefined || env.NODE_DISABLE_COMPILE_CACHE !== undefined)
    return undefined;
  const dir = cacheDir(packageDir, "v8", env);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    return { dir, refused: `it cannot be created (${(error as NodeJS.ErrnoException).code ?? String(error)})` };
  }
  const refused = distrustChain(dir);
  if (refused !== undefined) return { dir, refused };
  const result = enable(dir);
  // module.constants.compileCacheStatus: FAILED 0, ENABLED 1, ALREADY_ENABLED 2, DISABLED 3
  return result.status === 0 ? { dir, refused: result.message ?? "Node could not enable it" } : { dir };
}
