/**
 * The snapshot survives a SIGKILL at any instant of `pull` and `drift --update` (docs/pull.md,
 * "Crash safety"): the real CLI is killed right before each of its changes to the disk, then the
 * next command (a reader: lint or drift) runs, and the snapshot is byte for byte the old one or
 * the new one, with no in-flight file left anywhere in the project. Two writers at once keep
 * every manifest entry; a lock whose process is gone is taken over; a live one makes the second
 * writer give up, after a bounded wait, with exit 2.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, vskInProcess } from "../cli/run.js";
import { expectOneSwitch, killAtEveryStep, leftovers, MIRROR, tree, vsk, type Run } from "./crash-harness.js";

const work = mkdtempSync(join(tmpdir(), "vsk-crash-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
/** pull --config of a config that names model-c alone, writing the same ./schemas-cache */
const configC = (dir: string): void =>
  writeFileSync(join(dir, "c.json"), JSON.stringify({ models: [{ id: "example/model-c" }] }));
let counter = 0;
const fresh = (name: string): string => join(work, `${name}-${counter++}`);

/** The manifest records fetch times: compare everything else of it. */
const normalize = (path: string, bytes: Buffer): Buffer | string => {
  if (path !== "manifest.json") return bytes;
  const manifest = JSON.parse(bytes.toString("utf8")) as { models: Record<string, { fetchedAt: string }> };
  for (const entry of Object.values(manifest.models)) entry.fetchedAt = "-";
  return JSON.stringify(manifest);
};

/** A mirror whose model-a changed and whose model-c is new to the old snapshot. */
let mirror2: string;
/** A project whose snapshot holds the mirror's model-a and model-b. */
let oldProject: string;
let oldTree: Record<string, string>;

beforeAll(async () => {
  mirror2 = join(work, "mirror2");
  cpSync(MIRROR, mirror2, { recursive: true });
  const a = join(mirror2, "main/example/model-a/latest.json");
  const doc = JSON.parse(readFileSync(a, "utf8")) as { info: { title: string } };
  doc.info.title += " (revised)";
  writeFileSync(a, JSON.stringify(doc, null, 2) + "\n");
  oldProject = join(work, "old");
  mkdirSync(oldProject);
  // a project names its models (the example ones here): without a config, drift and generate --check
  // refuse to use the built-in examples beside a schemas-cache/ (issue 30.1)
  writeFileSync(
    join(oldProject, "vsk.config.json"),
    JSON.stringify({
      models: ["a", "b", "c"].map((m) => ({ id: `example/model-${m}`, alias: `model${m.toUpperCase()}` })),
    }),
  );
  // lint reads the example models' validators from this package's own build, as it did with no config
  writeFileSync(
    join(oldProject, "lint.json"),
    JSON.stringify({ models: [{ id: "example/model-c", alias: "modelC" }], outDir: join(ROOT, "generated") }),
  );
  const seeded = await vsk(["pull", "--schema-url", MIRROR, "--model", "modelA", "--model", "modelB"], oldProject);
  expect(seeded.code).toBe(0);
  oldTree = tree(join(oldProject, "schemas-cache"), normalize);
  writeFileSync(join(oldProject, "payload.json"), '{"prompt": "A paper boat drifts down a rain gutter"}\n');
});

function copyOfOld(): string {
  const dir = fresh("p");
  cpSync(oldProject, dir, { recursive: true });
  return dir;
}

/** What a command that is not killed makes of the old project. */
async function newTreeOf(command: string[]): Promise<Record<string, string>> {
  const dir = copyOfOld();
  const run = await vsk(command, dir);
  expect(run.code, run.stderr).toBe(0);
  const after = tree(join(dir, "schemas-cache"), normalize);
  expect(after).not.toEqual(oldTree);
  return after;
}

function outcome(
  dir: string,
  newTree: Record<string, string>,
  step: number,
  before: Record<string, string> = oldTree,
): string {
  expect(leftovers(dir), `nothing in flight is left after a kill at step ${step}`).toEqual([]);
  const now = tree(join(dir, "schemas-cache"), normalize);
  if (JSON.stringify(now) === JSON.stringify(before)) return "old";
  expect(now, `after a kill at step ${step} the snapshot is the old one or the new one`).toEqual(newTree);
  return "new";
}

/**
 * A reader after a kill, run in this process (issue 42.4): what it finds on disk is under test,
 * not its spawn (the killed writers are real processes, and "generate --check right after a kill"
 * below runs its reader as one).
 */
const inProcess = async (args: string[], cwd: string): Promise<Run> => ({
  ...(await vskInProcess(args, cwd)),
  signal: null,
});

/**
 * The next command is a reader: lint or drift, in turn. drift exits 3 on the old snapshot, which
 * has no model-c yet ("no snapshot at …"): that is its verdict on a whole snapshot, not a failure.
 */
const reader = (dir: string, step: number) =>
  step % 2 === 0
    ? inProcess(["lint", "--config", join(dir, "lint.json"), "--model", "modelC", "payload.json"], dir)
    : inProcess(["drift", "--schema-url", mirror2, "--fail-on", "never"], dir);

describe("a SIGKILL at any step of a snapshot write leaves the old or the new snapshot", () => {
  it("pull: killed before each change to the disk, then lint or drift: old or new, nothing left", async () => {
    // model-a changed, model-c new (a directory to make): 3 files, 16 steps
    const command = ["pull", "--schema-url", mirror2, "--model", "modelA", "--model", "modelC"];
    const newTree = await newTreeOf(command);
    let readerRuns = 0;
    const runs = await killAtEveryStep({
      prepare: copyOfOld,
      command,
      next: async (dir) => {
        const run = await reader(dir, readerRuns++);
        // drift names a model with no snapshot yet and exits 2 ("fetch it with `vsk pull`")
        if (run.code === 2) expect(run.stderr).toMatch(/no snapshot of example\/model-c .*vsk pull/);
        else expect([0, 1, 3], run.stderr).toContain(run.code);
        expect(run.stderr).not.toMatch(/cannot be read|not valid JSON/);
        return run;
      },
      check: (dir, step) => outcome(dir, newTree, step),
    });
    const names = runs.map((r) => r.name);
    for (const expected of [
      "create the lock",
      "make directory example/model-c",
      "write example/model-a/latest.json.vsk-tmp (half written)",
      "write manifest.json.vsk-tmp",
      "rename .vsk-journal.vsk-tmp to .vsk-journal (the commit point)",
      "rename example/model-c/latest.json.vsk-tmp to example/model-c/latest.json",
      "rename manifest.json.vsk-tmp to manifest.json",
      "remove .vsk-journal",
      "remove the lock",
    ])
      expect(names).toContain(expected);
    expectOneSwitch(runs, /the commit point/);
  }, 180_000);

  it("drift --update: the same, the next command being drift", async () => {
    // one model configured (fewer steps, same protocol): model-a and the manifest change
    const one = fresh("one");
    mkdirSync(one);
    writeFileSync(join(one, "vsk.config.json"), JSON.stringify({ models: [{ id: "example/model-a" }] }));
    expect((await vsk(["pull", "--schema-url", MIRROR], one)).code).toBe(0);
    const before = tree(join(one, "schemas-cache"), normalize);
    const copyOfOne = (): string => {
      const dir = fresh("o");
      cpSync(one, dir, { recursive: true });
      return dir;
    };
    const command = ["drift", "--schema-url", mirror2, "--update"];
    const updated = copyOfOne();
    expect((await vsk(command, updated)).code).toBe(0);
    const newTree = tree(join(updated, "schemas-cache"), normalize);
    expect(newTree).not.toEqual(before);
    const runs = await killAtEveryStep({
      prepare: copyOfOne,
      command,
      next: async (dir) => {
        const run = await inProcess(["drift", "--schema-url", mirror2, "--fail-on", "never"], dir);
        expect(run.code, run.stderr).toBe(0);
        return run;
      },
      check: (dir, step) => outcome(dir, newTree, step, before),
    });
    expect(runs.map((r) => r.name)).toContain(
      "rename example/model-a/latest.json.vsk-tmp to example/model-a/latest.json",
    );
    expectOneSwitch(runs, /the commit point/);
  }, 180_000);

  it("generate --check right after a kill between two renames reads the whole new snapshot", async () => {
    const dir = copyOfOld();
    // the second file rename: one model file is new, the others are still staged
    const killed = await vsk(["pull", "--schema-url", mirror2], dir, {
      VSK_TEST_KILL_AT: "rename example/model-b/latest.json.vsk-tmp to example/model-b/latest.json",
    });
    expect(killed.signal).toBe("SIGKILL");
    // the reader in process, as the readers above (the killed pull is a real process); taking over
    // a dead process's lock through a child process is "a lock left by a process that is gone" below
    const check = await inProcess(["generate", "--check"], dir);
    expect(check.stderr).toMatch(/^vsk: took over .*\.vsk-lock from pid \d+ \(pull\) that is no longer running\n/);
    expect(check.stderr).toMatch(/\nvsk: finished an interrupted pull in .*schemas-cache: /);
    expect(leftovers(dir)).toEqual([]);
    expect(tree(join(dir, "schemas-cache"), normalize)).toEqual(await newTreeOf(["pull", "--schema-url", mirror2]));
  }, 60_000);
});

describe("one writer at a time", () => {
  it("two pulls at once, each of another model, keep every manifest entry (3 tries)", async () => {
    for (let i = 0; i < 3; i++) {
      const dir = fresh("two");
      mkdirSync(dir);
      const runs = await Promise.all([
        vsk(["pull", "--schema-url", MIRROR, "--model", "modelA"], dir),
        vsk(["pull", "--schema-url", MIRROR, "--model", "modelB"], dir),
        vsk(["pull", "--schema-url", MIRROR, "--model", "modelC"], dir),
      ]);
      for (const run of runs) expect(run.code, run.stderr).toBe(0);
      const manifest = JSON.parse(readFileSync(join(dir, "schemas-cache/manifest.json"), "utf8")) as {
        models: Record<string, unknown>;
      };
      expect(Object.keys(manifest.models)).toEqual(["example/model-a", "example/model-b", "example/model-c"]);
      expect(leftovers(dir)).toEqual([]);
    }
  }, 120_000);

  it("pull and drift --update at once keep every entry too", async () => {
    const dir = copyOfOld();
    writeFileSync(
      join(dir, "vsk.config.json"),
      JSON.stringify({ models: [{ id: "example/model-a" }, { id: "example/model-b" }] }),
    );
    configC(dir);
    const runs = await Promise.all([
      vsk(["pull", "--schema-url", MIRROR, "--model", "example/model-c", "--config", join(dir, "c.json")], dir),
      vsk(["drift", "--schema-url", mirror2, "--update", "--fail-on", "never"], dir),
    ]);
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    const manifest = JSON.parse(readFileSync(join(dir, "schemas-cache/manifest.json"), "utf8")) as {
      models: Record<string, unknown>;
    };
    expect(Object.keys(manifest.models)).toEqual(["example/model-a", "example/model-b", "example/model-c"]);
    expect(leftovers(dir)).toEqual([]);
  }, 60_000);

  it("a lock left by a process that is gone is taken over, and said so", async () => {
    const dir = copyOfOld();
    const gone = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], {
      encoding: "utf8",
    });
    const lock = { pid: Number(gone.stdout), command: "pull", host: hostname(), startedAt: "2026-01-01T00:00:00Z" };
    writeFileSync(join(dir, "schemas-cache/.vsk-lock"), JSON.stringify(lock));
    const run = await vsk(["pull", "--schema-url", mirror2], dir);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`vsk: took over ${join(dir, "schemas-cache/.vsk-lock")} from pid ${lock.pid} (pull)`);
    expect(leftovers(dir)).toEqual([]);
  });

  it("a lock held by a live process: the second writer waits VSK_LOCK_TIMEOUT, then exits 2 naming it", async () => {
    const dir = copyOfOld();
    const lockFile = join(dir, "schemas-cache/.vsk-lock");
    const lock = { pid: process.pid, command: "pull", host: hostname(), startedAt: "2026-11-23T12:00:00.000Z" };
    writeFileSync(lockFile, JSON.stringify(lock));
    const run = await vsk(["pull", "--schema-url", mirror2], dir, { VSK_LOCK_TIMEOUT: "0.3" });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `vsk: pull: another vsk pull is running (pid ${process.pid}, since 2026-11-23T12:00:00.000Z); waited 0 s for ${lockFile}. Try again when it has finished; if no vsk is running, delete that file\n`,
    );
    // not its lock: left alone, and nothing else changed
    expect(JSON.parse(readFileSync(lockFile, "utf8"))).toEqual(lock);
    rmSync(lockFile);
    expect(tree(join(dir, "schemas-cache"), normalize)).toEqual(oldTree);
  });
});

describe("a missing manifest beside model files", () => {
  it("pull --model X rebuilds the other models' entries from the files on disk, and says so", async () => {
    const dir = copyOfOld();
    rmSync(join(dir, "schemas-cache/manifest.json"));
    const run = await vsk(["pull", "--schema-url", MIRROR, "--model", "modelC"], dir);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(
      /^vsk: .*manifest\.json was missing: rebuilt the entries of example\/model-a, example\/model-b from the files on disk/,
    );
    const manifest = JSON.parse(readFileSync(join(dir, "schemas-cache/manifest.json"), "utf8")) as {
      models: Record<string, { sha256: string; source: string }>;
    };
    expect(Object.keys(manifest.models)).toEqual(["example/model-a", "example/model-b", "example/model-c"]);
    const a = readFileSync(join(dir, "schemas-cache/example/model-a/latest.json"));
    expect(manifest.models["example/model-a"]).toMatchObject({
      sha256: createHash("sha256").update(a).digest("hex"),
      source: "unknown (manifest.json was rebuilt from the file on disk)",
    });
  });
});
