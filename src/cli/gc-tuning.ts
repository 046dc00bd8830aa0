/**
 * V8's garbage collector tuned for `vsk lint`'s stream (issue 40), by the CLI only: V8's flags
 * are the whole process's, and a library caller's process is not ours to tune. Lint allocates
 * short-lived strings and objects without end and keeps a small live set (~8 MB), so V8's
 * defaults, made for programs that keep what they allocate, cost it memory and time:
 *
 * - **The young generation is held at 2 MiB semispaces** (`hold`, one thread only). V8 doubles a
 *   semispace (1 → 2 → 4 → 8 MiB on Node 20, to 16 on Node 24) each time more than its size has
 *   survived scavenges since it last grew; over a long log it reached its maximum and peak RSS
 *   with it (1M → 3M lines: 81 → 107 MB on Node 20, 93 → 141 MB on Node 24). Once the semispaces
 *   are 2 MiB, `--semi-space-growth-factor` is set to 1; V8 reads it each time it would grow. At
 *   1 MiB the 64 KiB read chunks outlive their scavenges and pile up in the old generation.
 * - **A scavenge runs on the thread that allocated** (`--no-parallel-scavenge`, read at each
 *   scavenge). With small semispaces V8 scavenges every millisecond or so, and each scavenge
 *   posted helper tasks to the platform's threads: on a run with `--jobs` threads on as many
 *   cores they only take a core from another lint thread, and alone they cost more to start and
 *   join than they save.
 *
 * Both are put back when the run ends, before the lint script's code cache is written
 * (src/durable/cache.ts): V8 refuses a code cache made under other flags. Only on the V8 majors
 * where the flags are known to exist (Node 20, 22, 24); elsewhere V8 would print "unrecognized
 * flag" on stderr, so nothing is changed. Figures: docs/lint.md, "Memory on a long log".
 */
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { PerformanceObserver } from "node:perf_hooks";
import { getHeapSpaceStatistics, setFlagsFromString } from "node:v8";

/** Below this, a file is linted before the tuning would matter: it would only cost its ~3 ms (cold start, issue 40.4). */
const LONG_INPUT_BYTES = 1 << 20;

/** Whether a run on these inputs may be long enough to tune: stdin, a directory, a glob, or a file of 1 MiB or more. */
export function mayRunLong(inputs: readonly string[], cwd: string): boolean {
  return inputs.some((input) => {
    if (input === "-") return true;
    try {
      const stat = statSync(resolve(cwd, input));
      return !stat.isFile() || stat.size >= LONG_INPUT_BYTES;
    } catch {
      return /[*?[{]/.test(input); // a glob; a missing file is said when it is read
    }
  });
}

/** V8 majors where both flags exist with these defaults (node 20: 11, 22: 12, 24: 13). */
const KNOWN_V8 = new Set([11, 12, 13]);
const SEMISPACE_BYTES = 2 << 20;
const DEFAULT_GROWTH_FACTOR = 2;

/**
 * Tunes the collector for one lint run; returns the function that puts every flag back
 * (idempotent). `hold`: also hold the young generation (a run with no worker thread). The
 * young generation is watched after each garbage collection (a `gc` performance entry, seen on
 * the next turn of the event loop, which lint gives back after every 64 KiB it reads): a growth
 * past 2 MiB semispaces is seen at most a turn late.
 */
export function tuneGarbageCollector(
  { hold }: { hold: boolean },
  v8Version: string = process.versions.v8,
): () => void {
  if (!KNOWN_V8.has(Number.parseInt(v8Version, 10))) return () => {};
  setFlagsFromString("--no-parallel-scavenge");
  let held = false;
  const observer = new PerformanceObserver(() => {
    if (newSpaceBytes() < 2 * SEMISPACE_BYTES) return;
    setFlagsFromString("--semi-space-growth-factor=1");
    held = true;
    observer.disconnect();
  });
  if (hold) observer.observe({ entryTypes: ["gc"] });
  let tuned = true;
  return () => {
    observer.disconnect();
    if (held) setFlagsFromString(`--semi-space-growth-factor=${DEFAULT_GROWTH_FACTOR}`);
    if (tuned) setFlagsFromString("--parallel-scavenge");
    held = false;
    tuned = false;
  };
}

/** The new space's two semispaces, in bytes (0 when V8 does not name it so). */
export function newSpaceBytes(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === "new_space")?.space_size ?? 0;
}
