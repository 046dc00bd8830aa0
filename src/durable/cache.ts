/**
 * vsk's caches on the user's disk, one home for every kind (`lint`: the JavaScript build of the
 * validators; `format`: generate's formatted modules; `v8`: Node's compiled code of vsk and the
 * packages it loads, on a Node that has `module.enableCompileCache`, and V8's of lint's script,
 * `runCachedScript`): where they live, when they may be trusted and how an entry is written. `<cache>/video-schema-kit/<kind>/`, where `<cache>` is the nearest
 * `node_modules/.cache` above the directory they serve, else the user's own cache directory
 * (`$XDG_CACHE_HOME`, else `~/.cache`; never a shared temp directory, issue 23.13).
 *
 * What a cache holds becomes code the user runs or commits, so it is trusted only when it is the
 * user's own: its directories are created 0700 and its files 0600, and a directory or file of it
 * that another user owns, that others may write, or that is a symbolic link is refused.
 */
import nodeModule from "node:module";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join } from "node:path";
import { pathToFileURL } from "node:url";
import { Script } from "node:vm";

/** The directory every cache path of ours sits in; it and everything below it is checked. */
export const CACHE_NAME = "video-schema-kit";

/** The SHA-256 of the texts (each ended by a NUL), in hex: a cache key (`length` digits of it for a file name). */
export function contentHash(texts: readonly string[], length = 64): string {
  // node:crypto loads with its first use: the program's start (lint's) imports this file, not a hash
  const { createHash } = nodeModule.createRequire(import.meta.url)("node:crypto") as typeof import("node:crypto");
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
export function writeCacheFile(file: string, text: string | Uint8Array): void {
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
  const folder = compiledCodeDir(packageDir, env);
  if (folder.refused !== undefined) return folder;
  const { dir } = folder;
  const result = enable(dir);
  // module.constants.compileCacheStatus: FAILED 0, ENABLED 1, ALREADY_ENABLED 2, DISABLED 3
  return result.status === 0 ? { dir, refused: result.message ?? "Node could not enable it" } : { dir };
}

/** The `v8` cache for the package at `packageDir`, created 0700: its path, and why it cannot be trusted (then unused). */
function compiledCodeDir(
  packageDir: string,
  env: Readonly<Record<string, string | undefined>>,
): { dir: string; refused?: string } {
  const dir = cacheDir(packageDir, "v8", env);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    return { dir, refused: `it cannot be created (${(error as NodeJS.ErrnoException).code ?? String(error)})` };
  }
  const refused = distrustChain(dir);
  return refused === undefined ? { dir } : { dir, refused };
}

/** What the program says, once, when the `v8` cache is refused (useCompileCache, runCachedScript). */
export function compileCacheWarning(dir: string, refused: string): string {
  return `not using the compile cache ${dir}: ${refused} (give the folder back to your user with mode 0700, or set NODE_DISABLE_COMPILE_CACHE=1)`;
}

/**
 * A script bundle (scripts/bundle.mjs: dist/cli/lint-script.js): one function expression, a CommonJS
 * module's body, with `import.meta` and `import()` handed in: a script has no `import.meta`, and
 * Node 20 loses a script's own `import()` when V8 took its code from a cache
 * (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING; Node's loader for scripts is experimental, and says so).
 */
type ScriptBody = (
  exports: Record<string, unknown>,
  require: NodeJS.Require,
  module: { exports: Record<string, unknown> },
  importMeta: { url: string },
  importModule: (specifier: string) => Promise<unknown>,
) => void;

/**
 * Builtins a script loads at its first use of one of their exports rather than when its top
 * requires them: each costs `vsk lint`'s start 3-8 ms (Node 20) and a plain lint of `.json` files
 * uses none (node:zlib reads compressed input, node:crypto hashes, yargs asserts only on its misuse).
 * esbuild's CommonJS reads an import at each use (`(0, import_node_zlib.crc32)(…)`), so a stand-in
 * that loads the module at its first property read is the module from then on.
 */
const LAZY_BUILTINS = new Set(["node:crypto", "crypto", "node:zlib", "zlib", "node:assert", "assert"]);

function lazyRequire(require: NodeJS.Require): NodeJS.Require {
  const lazy = (id: string): unknown => {
    if (!LAZY_BUILTINS.has(id)) return require(id);
    let loaded: object | undefined;
    const target = (): object => (loaded ??= require(id) as object);
    return new Proxy(
      {},
      {
        get: (_, key) => Reflect.get(target(), key),
        has: (_, key) => Reflect.has(target(), key),
        ownKeys: () => Reflect.ownKeys(target()),
        getOwnPropertyDescriptor: (_, key) => {
          const descriptor = Reflect.getOwnPropertyDescriptor(target(), key);
          // a proxy may not report as non-configurable what its own (empty) target does not hold
          return descriptor === undefined ? undefined : { ...descriptor, configurable: true };
        },
        getPrototypeOf: () => Reflect.getPrototypeOf(target()),
      },
    );
  };
  return Object.assign(lazy, { resolve: require.resolve, cache: require.cache, main: require.main }) as NodeJS.Require;
}

/** FNV-1a of a path, 8 hex digits: a name for it in a file name (no hash module to load at the start). */
function pathKey(path: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) h = Math.imul(h ^ path.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, "0");
}

/**
 * V8 reads a code cache it is given without checking its bytes (it checks its version, flags and
 * source length; a damaged one crashes Node 20 with "Fatal error … unreachable code", at every run
 * while it lasts), so an entry carries the CRC-32 of its code, as Node's own compile cache does,
 * in its first 4 bytes (little-endian), and one that does not match is not given to V8.
 */
function crc32(): ((data: Uint8Array) => number) | undefined {
  // node:zlib's crc32 is Node >= 20.15 and 22.2; loaded here only, a plain lint needs no zlib (~1.5 ms)
  const { crc32: native } = nodeModule.createRequire(import.meta.url)("node:zlib") as {
    crc32?: (data: Uint8Array) => number;
  };
  return native;
}

function seal(code: Buffer): Buffer | undefined {
  const check = crc32();
  if (check === undefined) return undefined;
  const sealed = Buffer.allocUnsafe(4 + code.length);
  sealed.writeUInt32LE(check(code), 0);
  code.copy(sealed, 4);
  return sealed;
}

function unsealed(entry: Buffer): Buffer | undefined {
  const check = entry.length > 4 ? crc32() : undefined;
  if (check === undefined) return undefined;
  const code = entry.subarray(4);
  return check(code) === entry.readUInt32LE(0) ? code : undefined;
}

/** A code cache larger than this is not read (a script's is ~0.4 MB). */
const MAX_CODE_CACHE_BYTES = 64 * 1024 * 1024;

export interface CachedScript {
  /** what the script exported */
  exports: Record<string, unknown>;
  /** the `v8` cache folder, and why it was refused (to be said); undefined when the user turned it off */
  cache?: { dir: string; refused?: string };
  /** whether V8 took the script's compiled code from the cache */
  fromCache: boolean;
  /**
   * After the script ran: writes its compiled code (every function that ran, not only its top) to
   * the cache, when it had none that V8 took. Never throws: the cache only saves time.
   */
  keep(): void;
}

/**
 * Runs a script bundle with its compiled code kept in vsk's `v8` cache for the package at
 * `packageDir` (`vm.Script` `cachedData`, written after the script ran, so it holds every function
 * that ran): Node 20 keeps no ES module's compiled code, Node >= 22.1 a module's top but not the
 * functions it ran. The cache is trusted as every cache of ours (0700 folders, 0600 files, the
 * user's own, no symbolic link; else refused, to be said) and belongs to one build of the script: its
 * entry is named for the script's path, size, modification time and inode and for the V8 version,
 * carries the CRC-32 of its code (a damaged entry is not used), and V8 itself refuses code of
 * another version, flags or source length. `NODE_DISABLE_COMPILE_CACHE`
 * turns it off, as it does Node's own.
 */
export function runCachedScript(
  file: string,
  packageDir: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): CachedScript {
  const source = readFileSync(file, "utf8");
  const info = statSync(file);
  const cache = env.NODE_DISABLE_COMPILE_CACHE === undefined ? compiledCodeDir(packageDir, env) : undefined;
  // one install's script: two installs sharing a cache folder keep an entry each
  const prefix = `${basename(file)}.${pathKey(file)}.`;
  const suffix = `.v8-${process.versions.v8}-${process.arch}.bin`;
  const entry =
    cache === undefined || cache.refused !== undefined
      ? undefined
      : join(cache.dir, `${prefix}${info.size}-${Math.trunc(info.mtimeMs)}-${info.ino}${suffix}`);
  let cachedData: Buffer | undefined;
  if (entry !== undefined && distrust(entry) === undefined) {
    try {
      if (statSync(entry).size <= MAX_CODE_CACHE_BYTES) cachedData = unsealed(readFileSync(entry));
    } catch {
      // none yet
    }
  }
  const script = new Script(source, { filename: file, cachedData });
  const fromCache = cachedData !== undefined && !script.cachedDataRejected;
  const body = script.runInThisContext() as ScriptBody;
  const module = { exports: {} as Record<string, unknown> };
  body(
    module.exports,
    lazyRequire(nodeModule.createRequire(file)),
    module,
    { url: pathToFileURL(file).href },
    (specifier) => import(specifier),
  );
  return {
    exports: module.exports,
    cache,
    fromCache,
    keep() {
      if (entry === undefined || fromCache) return;
      try {
        const sealed = seal(script.createCachedData());
        if (sealed === undefined) return;
        writeCacheFile(entry, sealed);
        // the entries of this script's earlier builds, for this V8, are of no further use
        for (const name of readdirSync(cache!.dir))
          if (name.startsWith(prefix) && name.endsWith(suffix) && name !== basename(entry))
            rmSync(join(cache!.dir, name), { force: true });
      } catch {
        // a full disk or a folder gone: the next run compiles again
      }
    },
  };
}
