/**
 * Watch mode (`vsk generate --watch`): runs a job once, then again whenever a watched file or
 * directory changes, debounced, one line per run (an error too, after which watching goes on),
 * until SIGINT or SIGTERM, which end it with exit 0 once a run under way has finished.
 *
 * `fs.watch` is not recursive on Linux under Node 20, so a tree is watched directory by
 * directory (its root and two levels below: `<owner>/<name>/` of a snapshot), and the set is
 * looked at again after every run, so that a model added meanwhile is watched too. A watcher
 * follows an inode, not a path: a directory removed and recreated (even within the debounce) or
 * swapped in by rename is a new directory at the same path, so each refresh compares the inode
 * and re-arms the watcher; a run follows a re-arm, for what changed in the new directory before.
 * The inode number alone is not enough: a directory removed and recreated at once often gets the
 * same number back, so a watcher that saw its own directory go marks it for re-arming too.
 */
import { readdirSync, statSync, watch, type FSWatcher } from "node:fs";
import { basename, dirname, join, resolve, sep } from "node:path";
import { terminalText } from "../escape/index.js";

export interface WatchTargets {
  /** files watched through their directory (the config file, which may not exist yet) */
  files: string[];
  /** directories watched with two levels of subdirectories (the snapshot) */
  trees: string[];
  /** directories never watched, even inside a tree (the output directory) */
  ignore: string[];
}

export interface WatchRunResult {
  ok: boolean;
  /** one line: what was done, or what went wrong */
  line: string;
}

export interface WatchOptions {
  /** what to watch, asked again after every run (the config may have moved the snapshot) */
  targets(): WatchTargets;
  /** the line said once when watching starts */
  describe(): string;
  run(): Promise<WatchRunResult>;
  debounceMs?: number;
}

/** Files vsk itself writes beside the ones it reads (locks, journals, temporary copies): no reason to run. */
const OWN_FILES = /\.vsk-(lock|journal|tmp|new|old)/;
const TREE_DEPTH = 2;
/** No directory's identity: set when a watcher saw its own directory go, so the next refresh re-arms it. */
const SELF_EVENT = "self";

export function watchAndRun(options: WatchOptions): Promise<number> {
  const debounce = options.debounceMs ?? 200;
  /** directory → the names that matter in it (undefined: every name) */
  const watchers = new Map<string, { watcher: FSWatcher; names: Set<string> | undefined; inode: string }>();
  let armedOnce = false;
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let pending = false;
  let stopping = false;
  let finish: (code: number) => void = () => {};
  const done = new Promise<number>((resolve) => (finish = resolve));

  const wanted = (): Map<string, Set<string> | undefined> => {
    const { files, trees, ignore } = options.targets();
    const ignored = ignore.map((d) => resolve(d));
    const isIgnored = (dir: string) => ignored.some((i) => dir === i || dir.startsWith(i + sep));
    const dirs = new Map<string, Set<string> | undefined>();
    const name = (dir: string, file: string) => {
      const names = dirs.has(dir) ? dirs.get(dir) : new Set<string>();
      names?.add(file);
      dirs.set(dir, names);
    };
    for (const file of files) name(dirname(resolve(file)), basename(file));
    const walk = (dir: string, depth: number) => {
      if (isIgnored(dir)) return;
      let entries;
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        return; // gone or unreadable: the run says what is wrong with it
      }
      dirs.set(dir, undefined);
      if (depth < TREE_DEPTH)
        for (const e of entries) if (e.isDirectory() && !OWN_FILES.test(e.name)) walk(join(dir, e.name), depth + 1);
    };
    for (const tree of trees) {
      const root = resolve(tree);
      name(dirname(root), basename(root)); // its creation, removal or replacement
      walk(root, 0);
    }
    return dirs;
  };

  /** The directory's identity now ("" when it is gone): another one means another directory there. */
  const inodeOf = (dir: string): string => {
    const stat = statSync(dir, { throwIfNoEntry: false, bigint: true });
    return stat === undefined ? "" : `${stat.dev}:${stat.ino}`;
  };

  /** Watches what `targets()` names now; true when a directory was (re-)armed after the first time. */
  const refresh = (): boolean => {
    if (stopping) return false;
    let rearmed = false;
    const next = wanted();
    for (const [dir, entry] of watchers)
      if (!next.has(dir)) {
        entry.watcher.close();
        watchers.delete(dir);
      }
    for (const [dir, names] of next) {
      const inode = inodeOf(dir);
      const known = watchers.get(dir);
      if (known !== undefined && known.inode === inode) {
        known.names = names;
        continue;
      }
      if (known !== undefined) {
        // removed and recreated, or replaced by a rename: the old watcher follows a directory gone
        known.watcher.close();
        watchers.delete(dir);
      }
      try {
        const watcher = watch(dir, (_event, file) => {
          const entry = watchers.get(dir);
          // the directory itself was removed or moved away (inotify names the directory then): one
          // recreated at once may reuse the inode number, so the next refresh re-arms whatever is there
          if (file === basename(dir) && entry?.watcher === watcher) entry.inode = SELF_EVENT;
          if (file !== null && (OWN_FILES.test(file) || (entry?.names !== undefined && !entry.names.has(file)))) return;
          schedule();
        });
        watcher.on("error", () => {
          watcher.close();
          watchers.delete(dir);
          schedule(); // the directory went away: run, and watch what is there now
        });
        watchers.set(dir, { watcher, names, inode });
        rearmed ||= armedOnce;
      } catch {
        // vanished between listing and watching: the next refresh looks again
      }
    }
    armedOnce = true;
    return rearmed;
  };

  const schedule = () => {
    if (stopping) return;
    clearTimeout(timer);
    timer = setTimeout(() => void fire(), debounce);
  };

  const say = (result: WatchRunResult) => {
    const line = terminalText(result.line);
    if (result.ok) process.stdout.write(`${line}\n`);
    else process.stderr.write(`vsk: ${line}\n`);
  };

  const fire = async () => {
    if (running) {
      pending = true;
      return;
    }
    running = true;
    try {
      say(await options.run());
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      say({ ok: false, line: `internal error (a bug in vsk, please report it): ${message.split("\n")[0]}` });
    }
    running = false;
    if (stopping) return stop();
    // a directory watched anew may have changed while the run read it: one more run covers that
    if (refresh()) pending = true;
    if (pending) {
      pending = false;
      schedule();
    }
  };

  const stop = () => {
    stopping = true;
    clearTimeout(timer);
    for (const { watcher } of watchers.values()) watcher.close();
    watchers.clear();
    if (running) return; // the run under way finishes first (its files are written whole or not at all)
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
    finish(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);

  refresh();
  process.stderr.write(`${terminalText(options.describe())}\n`);
  void fire();
  return done;
}
