/**
 * Crash-safe, serialised file writes and reads that never hang on what a user's tree holds: the
 * lock every writer takes, the directory swap of `generated/`, the file operations the snapshot
 * journal (src/snapshot) is built from, the crash test hook, and where vsk's caches live and when
 * they are trusted. Imports nothing else of vsk.
 */
export { announce, printable } from "./recovery-notice.js";
export {
  entryAt,
  kindOf,
  listTree,
  mkdirStep,
  readHead,
  readRegularFile,
  removeTree,
  renameStep,
  SpecialFileError,
  syncDir,
  unlinkStep,
  writeFileDurable,
  type Listing,
} from "./files.js";
export { acquireLock, isAlive, LockBusyError, lockTimeoutMs, readLock, type Lock, type LockInfo } from "./lock.js";
export { step } from "./crash-hook.js";
export {
  CACHE_NAME,
  cacheDir,
  contentHash,
  distrust,
  distrustChain,
  useCompileCache,
  compileCacheWarning,
  runCachedScript,
  type CachedScript,
  writeCacheFile,
} from "./cache.js";
export {
  readableDirectory,
  recoverDirectory,
  replaceDirectory,
  swapNames,
  type DirectoryFile,
  type SwapNames,
} from "./swap.js";
