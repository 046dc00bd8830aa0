/**
 * `vsk generate --watch`, run as a user runs it: the built CLI in a child process over a project
 * of its own (config, a copy of the snapshot). Each step waits for the line the step causes, not
 * for a time: a first run, a run after a snapshot file changed, an error line after it broke
 * (and watching goes on), a run after it was fixed, then SIGINT and SIGTERM end it with exit 0.
 */
import { spawn, type ChildProcess } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CLI, ROOT, tempDir } from "./run.js";

interface Watching {
  child: ChildProcess;
  stdout: string[];
  stderr: string[];
  /** resolves with the first line (stdout or stderr) from now on that matches */
  next(pattern: RegExp): Promise<string>;
  exited: Promise<number | null>;
}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
});

function project(): string {
  const dir = tempDir("vsk-watch-");
  cpSync(join(ROOT, "schemas-cache"), join(dir, "snapshot"), { recursive: true });
  writeFileSync(join(dir, "vsk.config.json"), JSON.stringify({ snapshotDir: "snapshot", outDir: "out" }));
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  return dir;
}

/** The error line of a broken model-b snapshot file: proof that a write in that directory was seen. */
const BROKEN_B = /^vsk: example\/model-b: .*example\/model-b\/latest\.json: is not valid JSON/;

function watchIn(dir: string): Watching {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first (npm test does)`);
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("VSK_")));
  const child = spawn(process.execPath, [CLI, "generate", "--watch"], {
    cwd: dir,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  const stdout: string[] = [];
  const stderr: string[] = [];
  let waiters: Array<{ pattern: RegExp; resolve: (line: string) => void }> = [];
  const onLine = (into: string[]) => {
    let buffer = "";
    return (chunk: Buffer) => {
      buffer += chunk.toString("utf8");
      const lines = buffer.split("\n");
      buffer = lines.pop()!;
      for (const line of lines) {
        into.push(line);
        const matched = waiters.filter((w) => w.pattern.test(line));
        waiters = waiters.filter((w) => !matched.includes(w));
        for (const w of matched) w.resolve(line);
      }
    };
  };
  child.stdout!.on("data", onLine(stdout));
  child.stderr!.on("data", onLine(stderr));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return {
    child,
    stdout,
    stderr,
    exited,
    next: (pattern) => new Promise((resolve) => waiters.push({ pattern, resolve })),
  };
}

const REGENERATED = /^regenerated out\/ \(40 files, 4 endpoints\) in \d+ ms$/;
const REGENERATED_GEN = /^regenerated gen\/ \(40 files, 4 endpoints\) in \d+ ms$/;

describe("vsk generate --watch", () => {
  // SIGTERM: the tests after this one end with it, and check exit 0
  it(
    "regenerates when a snapshot file or the config changes, says an error in one line and goes on, exits 0 on SIGINT",
    { timeout: 240_000 },
    async () => {
      const dir = project();
      const w = watchIn(dir);
      await w.next(REGENERATED);
      expect(w.stderr[0]).toBe("vsk: watching vsk.config.json and snapshot/ (Ctrl-C to stop)");
      expect(existsSync(join(dir, "out/example/model-a/keyframes-to-video.schema.json"))).toBe(true);

      // a model file changes (here: touched, as an editor's save or a checkout does)
      const modelB = join(dir, "snapshot/example/model-b/latest.json");
      const original = readFileSync(modelB);
      let line = w.next(REGENERATED);
      utimesSync(modelB, new Date(), new Date());
      await line;

      // broken: one line naming the file, and the old out/ stays
      line = w.next(/^vsk: /);
      writeFileSync(modelB, "{");
      expect(await line).toMatch(
        /^vsk: example\/model-b: .*snapshot\/example\/model-b\/latest\.json: is not valid JSON \(line 1, column 2\)/,
      );
      expect(existsSync(join(dir, "out/example/model-b/reference-to-video.mts"))).toBe(true);

      // fixed: it is still watching
      line = w.next(REGENERATED);
      writeFileSync(modelB, original);
      await line;

      // the config changes (here its outDir): it regenerates into the new one
      line = w.next(REGENERATED_GEN);
      writeFileSync(join(dir, "vsk.config.json"), JSON.stringify({ snapshotDir: "snapshot", outDir: "gen" }));
      await line;
      expect(existsSync(join(dir, "gen/index.mts"))).toBe(true);

      w.child.kill("SIGINT");
      expect(await w.exited).toBe(0);
      expect(
        w.stdout.every((l) => REGENERATED.test(l) || REGENERATED_GEN.test(l)),
        w.stdout.join("\n"),
      ).toBe(true);
      expect(w.stderr.join("\n")).not.toMatch(/^\s+at /m);
    },
  );

  // A directory removed and recreated at once usually gets its inode number back: the watcher must
  // notice its own directory going, not only compare inode numbers (it hung at the first write here).
  it(
    "re-arms a directory removed and recreated within the debounce, or swapped in by rename (issue 23.15)",
    { timeout: 240_000 },
    async () => {
      const dir = project();
      const w = watchIn(dir);
      await w.next(REGENERATED);
      const modelDir = join(dir, "snapshot/example/model-b");
      const original = readFileSync(join(modelDir, "latest.json"));

      // removed and recreated at once (a checkout, `rm -rf` then a copy): a new directory at the same path
      let line = w.next(REGENERATED);
      rmSync(modelDir, { recursive: true });
      mkdirSync(modelDir);
      writeFileSync(join(modelDir, "latest.json"), original);
      await line;
      // a write inside the new directory is seen (it was not: the watcher followed the removed one)
      line = w.next(BROKEN_B);
      writeFileSync(join(modelDir, "latest.json"), "{");
      await line;
      line = w.next(REGENERATED);
      writeFileSync(join(modelDir, "latest.json"), original);
      await line;

      // swapped in by rename (a tool writing model-b.next, then renaming it over model-b)
      mkdirSync(`${modelDir}.next`);
      writeFileSync(join(`${modelDir}.next`, "latest.json"), original);
      line = w.next(REGENERATED);
      renameSync(modelDir, `${modelDir}.prev`);
      renameSync(`${modelDir}.next`, modelDir);
      await line;
      line = w.next(BROKEN_B);
      writeFileSync(join(modelDir, "latest.json"), "{");
      await line;

      w.child.kill("SIGTERM");
      expect(await w.exited).toBe(0);
    },
  );

  it(
    "with no config, follows the project's schemas-cache/ deleted and recreated (issue 23.15)",
    { timeout: 240_000 },
    async () => {
      const dir = tempDir("vsk-watch-");
      cpSync(join(ROOT, "schemas-cache"), join(dir, "schemas-cache"), { recursive: true });
      symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
      const regenerated = /^regenerated generated\/ \(40 files, 4 endpoints\) in \d+ ms$/;
      const w = watchIn(dir);
      await w.next(regenerated);

      // deleted: the embedded example snapshot is read instead
      let line = w.next(regenerated);
      rmSync(join(dir, "schemas-cache"), { recursive: true });
      await line;

      // recreated (here with a broken model file): the project's own is read again, and said broken
      line = w.next(BROKEN_B);
      cpSync(join(ROOT, "schemas-cache"), join(dir, "schemas-cache"), { recursive: true });
      writeFileSync(join(dir, "schemas-cache/example/model-b/latest.json"), "{");
      await line;
      // and its tree is watched again
      line = w.next(regenerated);
      cpSync(
        join(ROOT, "schemas-cache/example/model-b/latest.json"),
        join(dir, "schemas-cache/example/model-b/latest.json"),
      );
      await line;

      w.child.kill("SIGTERM");
      expect(await w.exited).toBe(0);
    },
  );

  it("--watch with --check is a usage error", async () => {
    const dir = project();
    const w = spawn(process.execPath, [CLI, "generate", "--watch", "--check"], {
      cwd: dir,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    w.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((resolve) => w.on("exit", resolve));
    expect(code).toBe(2);
    expect(stderr).toBe(
      "vsk: --watch and --check do not go together: --check is for CI, --watch for your editor session\n",
    );
  });
});
