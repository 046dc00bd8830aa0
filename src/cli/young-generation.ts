/**
 * Keeps a long single-threaded `vsk lint` at a flat peak RSS (issue 40: "memory stays flat from
 * 100k to 3M lines"). V8 doubles a semispace of the young generation (1 → 2 → 4 → 8 MiB on a
 * 64-bit node 20) each time more than its size has survived scavenges since it last grew; lint
 * streams short-lived strings and objects without end, so over a long log the young generation
 * reaches its maximum and RSS grows with it, however small the live set (~8 MB). Once the
 * semispaces are 2 MiB, the growth factor is set to 1: V8 reads `--semi-space-growth-factor`
 * each time it would grow, and node lets flags change after start. At 1 MiB the 64 KiB read
 * chunks outlive their scavenges and pile up in the old generation instead.
 *
 * Measured on a 1M and a 3M-line log, `--jobs 1 --format json`: node 20 81 → 107 MB without,
 * 71 → 83 MB with; node 24 93 → 141 MB without, 82 → 85 MB with; the speed is the same within
 * the noise (`npm run bench`, part a). Only the CLI does this, and only with no worker thread:
 * the flag is the whole process's, and a library caller's process is not ours to tune.
 */
import { PerformanceObserver } from "node:perf_hooks";
import { getHeapSpaceStatistics, setFlagsFromString } from "node:v8";

/** V8 majors where the flag is known to exist (node 20, 22, 24): elsewhere V8 would print "unrecognized flag" on stderr. */
const KNOWN_V8 = new Set([11, 12, 13]);
const SEMISPACE_BYTES = 2 << 20;

/** The flag's default in those V8s. */
const DEFAULT_GROWTH_FACTOR = 2;

/**
 * Starts watching the young generation after each garbage collection (a `gc` performance entry,
 * delivered on the next turn of the event loop, which lint gives back after every 64 KiB it
 * reads): a growth past 2 MiB semispaces is seen at most a turn late. Returns the function that
 * stops watching and puts the flag back (idempotent): V8 refuses a code cache made under other
 * flags, and the lint script's cache (src/durable/cache.ts) is written after the run, so with the
 * flag left changed every later start would compile the script again.
 */
export function holdYoungGeneration(v8Version: string = process.versions.v8): () => void {
  if (!KNOWN_V8.has(Number.parseInt(v8Version, 10))) return () => {};
  let held = false;
  const observer = new PerformanceObserver(() => {
    if (newSpaceBytes() < 2 * SEMISPACE_BYTES) return;
    setFlagsFromString("--semi-space-growth-factor=1");
    held = true;
    observer.disconnect();
  });
  observer.observe({ entryTypes: ["gc"] });
  return () => {
    observer.disconnect();
    if (held) setFlagsFromString(`--semi-space-growth-factor=${DEFAULT_GROWTH_FACTOR}`);
    held = false;
  };
}

/** The new space's two semispaces, in bytes (0 when V8 does not name it so). */
export function newSpaceBytes(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === "new_space")?.space_size ?? 0;
}
