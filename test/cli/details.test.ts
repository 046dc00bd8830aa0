/**
 * The command line itself, as a user meets it: help on every command, "did you mean" for a
 * mistyped command or option (one line, exit 2), a model with two endpoints needing
 * --endpoint, aliases in .vsk-drift-accept.json, and counts that read "1 model".
 */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MIRROR, tempDir, usageError, vsk, vskAsync, vskInProcess } from "./run.js";

/**
 * A real child process for the first case of each behaviour; the others run the same program in
 * this process (issue 42.4): what they check is a message or a usage text, not the process.
 */
const spawnOrInProcess = (spawn: boolean, args: string[], dir: string) =>
  spawn ? vskAsync(args, dir) : vskInProcess(args, dir);

const COMMANDS = ["init", "pull", "generate", "lint", "drift", "explain", "udf"];

/** A URL with a password and a signed query: what a usage error must never show. */
const SIGNED = "https://user:SECRET@h.example/x?token=T0K";

describe("help", () => {
  it("vsk --help, -h and help list every command", async () => {
    const dir = tempDir();
    for (const run of await Promise.all([["--help"], ["-h"], ["help"]].map((args) => vskAsync(args, dir)))) {
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^Usage: vsk <command> \[options\]/);
      for (const command of COMMANDS) expect(run.stdout).toMatch(new RegExp(`^  vsk ${command} +\\S`, "m"));
    }
  });

  it.concurrent.each(COMMANDS)(
    "vsk %s: -h, --help and `vsk help <command>` print its usage on stdout and exit 0",
    async (command) => {
      const dir = tempDir();
      const runs = await Promise.all(
        [
          [command, "-h"],
          [command, "--help"],
          ["help", command],
        ].map((args) => spawnOrInProcess(command === "lint", args, dir)),
      );
      const outputs = runs.map((run) => {
        expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
        expect(run.stdout).toMatch(new RegExp(`^Usage: vsk ${command} `));
        return run.stdout;
      });
      expect(new Set(outputs).size).toBe(1);
    },
  );
});

describe("did you mean (one line, exit 2)", () => {
  const dir = tempDir();
  it.concurrent.each([
    [
      ["lnit"],
      'vsk: unknown command "lnit"; did you mean `vsk init`? (commands: init, pull, generate, lint, drift, explain, action, mock, udf; see `vsk --help`)',
    ],
    [
      ["generat"],
      'vsk: unknown command "generat"; did you mean `vsk generate`? (commands: init, pull, generate, lint, drift, explain, action, mock, udf; see `vsk --help`)',
    ],
    [
      ["frobnicate"],
      'vsk: unknown command "frobnicate" (commands: init, pull, generate, lint, drift, explain, action, mock, udf; see `vsk --help`)',
    ],
    [
      ["help", "drfit"],
      'vsk: unknown command "drfit"; did you mean `vsk drift`? (commands: init, pull, generate, lint, drift, explain, action, mock, udf; see `vsk --help`)',
    ],
    [["--hlep"], 'vsk: unknown option "--hlep" before the command; did you mean "--help"? (see `vsk --help`)'],
    [
      ["\u001b]0;pwned\u0007"],
      'vsk: unknown command "\\u001b]0;pwned\\u0007" (commands: init, pull, generate, lint, drift, explain, action, mock, udf; see `vsk --help`)',
    ],
    [
      ["generate", "--chek"],
      'vsk: generate: unknown option "--chek"; did you mean "--check"? (see `vsk generate --help`)',
    ],
    [["generate", "extra"], 'vsk: generate: unexpected argument "extra" (see `vsk generate --help`)'],
    [
      ["pull", "--schema-ur", "x"],
      'vsk: pull: unknown option "--schema-ur"; did you mean "--schema-url"? (see `vsk pull --help`)',
    ],
    [
      ["drift", "--fail-onn", "any"],
      'vsk: drift: unknown option "--fail-onn"; did you mean "--fail-on"? (see `vsk drift --help`)',
    ],
    [
      ["explain", "--formt", "json"],
      'vsk: explain: unknown option "--formt"; did you mean "--format"? (see `vsk explain --help`)',
    ],
    [
      ["lint", "--modle", "modelA"],
      'vsk: lint: unknown option "--modle"; did you mean "--model"? (see `vsk lint --help`)',
    ],
    [
      ["lint", "--max-warning=1"],
      'vsk: lint: unknown option "--max-warning"; did you mean "--max-warnings"? (see `vsk lint --help`)',
    ],
    [["lint", "--zzz"], 'vsk: lint: unknown option "--zzz" (see `vsk lint --help`)'],
    // what node's parseArgs refused when lint used it, lint (yargs since issue 42.5) refuses in the same words
    [["lint", "--model"], "vsk: lint: Option '--model <value>' argument missing (see `vsk lint --help`)"],
    [["lint", "--summary=yes"], "vsk: lint: Option '--summary' does not take an argument (see `vsk lint --help`)"],
    [["lint", "-x"], 'vsk: lint: unknown option "-x" (see `vsk lint --help`)'],
    // a URL pasted where an option or a command goes: every parser quotes it with its secrets redacted
    [[`--${SIGNED}`], 'vsk: unknown option "--https://h.example/x" before the command (see `vsk --help`)'],
    [
      [SIGNED],
      'vsk: unknown command "https://h.example/x" (commands: init, pull, generate, lint, drift, explain, action, mock, udf; see `vsk --help`)',
    ],
    [["drift", `--${SIGNED}`], 'vsk: drift: unknown option "--https://h.example/x" (see `vsk drift --help`)'],
    [["lint", `--${SIGNED}`], 'vsk: lint: unknown option "--https://h.example/x" (see `vsk lint --help`)'],
    [["generate", SIGNED], 'vsk: generate: unexpected argument "https://h.example/x" (see `vsk generate --help`)'],
    [
      ["drift", "--fail-on", SIGNED],
      'vsk: drift: --fail-on must be one of breaking, behavior, any, never, not "https://h.example/x" (see `vsk drift --help`)',
    ],
    // a choice mistyped gets the one "did you mean"
    [
      ["drift", "--fail-on", "brekaing"],
      'vsk: drift: --fail-on must be one of breaking, behavior, any, never, not "brekaing"; did you mean "breaking"? (see `vsk drift --help`)',
    ],
    [["udf", "--target"], "vsk: udf: Option '--target <value>' argument missing (see `vsk udf --help`)"],
    // every command, as lint: an option that takes a value, given none, is not its default
    [["drift", "--fail-on"], "vsk: drift: Option '--fail-on <value>' argument missing (see `vsk drift --help`)"],
    [
      ["explain", "--format", "--as", "x"],
      "vsk: explain: Option '--format <value>' argument missing (see `vsk explain --help`)",
    ],
  ])("%j", async (args, message) => {
    expect(usageError(await spawnOrInProcess(args[0] === "lnit", args, dir))).toBe(message);
  });
});

describe("yargs, bundled into the command (issue 42.5)", () => {
  it("says its usage errors in English whatever LANG is, so they are worded as vsk words them", async () => {
    // with yargs loaded from node_modules, its German locale turned this into "Unbekanntes Argument: extra"
    const run = await vskAsync(["generate", "extra"], tempDir(), { LANG: "de_DE.UTF-8", LC_ALL: "de_DE.UTF-8" });
    expect(usageError(run)).toBe('vsk: generate: unexpected argument "extra" (see `vsk generate --help`)');
  });
});

describe("lint --model for a model with two endpoints", () => {
  it("exits 2 and lists its endpoints; --endpoint or an envelope settles it", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "p.json"), JSON.stringify({ prompt: "a paper boat" }));
    expect(usageError(vsk(["lint", "p.json", "--model", "modelA"], dir))).toBe(
      "vsk: lint: example/model-a has 2 endpoints (keyframes-to-video, text-to-video); add --endpoint NAME to say which one the payloads are for (see `vsk lint --help`)",
    );
    expect((await vskInProcess(["lint", "p.json", "--model", "modelA", "--endpoint", "text-to-video"], dir)).code).toBe(
      0,
    );
    // a model with one endpoint needs no --endpoint
    const one = await vskInProcess(["lint", "p.json", "--model", "modelC"], dir);
    expect(one.code).toBe(0);
    expect(one.stdout).toContain("1 request: 1 valid, 0 invalid, 0 warnings");
  });
});

/** A project whose config names model A under an alias of its own, pulled from a mirror whose model A dropped "2:1". */
async function driftProject(): Promise<string> {
  const dir = tempDir();
  cpSync(MIRROR, join(dir, "mirror"), { recursive: true });
  writeFileSync(
    join(dir, "vsk.config.json"),
    JSON.stringify({ schemaUrl: "./mirror", models: [{ id: "example/model-a", alias: "videoA" }] }),
  );
  expect((await vskInProcess(["pull"], dir)).stdout).toContain("1 model in ");
  const file = join(dir, "mirror/main/example/model-a/latest.json");
  writeFileSync(
    file,
    readFileSync(file, "utf8")
      .replace(/"2:1",?/g, "")
      .replace(/,(\s*\])/g, "$1"),
  );
  return dir;
}

// in process (issue 42.4): the messages and counts are under test here; test/drift spawns drift itself
describe("drift", () => {
  it("an alias (any case) names the model in .vsk-drift-accept.json; a name that is neither is an error", async () => {
    const dir = await driftProject();
    const before = await vskInProcess(["drift", "--format", "json"], dir);
    expect(before.code).toBe(1);
    const changes = (JSON.parse(before.stdout) as { changes: { id: string; pointer: { before: string } }[] }).changes;
    expect(changes.length).toBeGreaterThan(0);
    const accept = (model: string): void =>
      writeFileSync(
        join(dir, ".vsk-drift-accept.json"),
        JSON.stringify({
          accept: changes.map((c) => ({ model, id: c.id, pointer: c.pointer.before, reason: "we never send 2:1" })),
        }),
      );
    accept("VIDEOA");
    const after = await vskInProcess(["drift"], dir);
    expect(after.code).toBe(0);
    expect(after.stdout).toContain("accepted");
    accept("videoB");
    expect(usageError(await vskInProcess(["drift"], dir))).toBe(
      `vsk: drift: ${join(dir, ".vsk-drift-accept.json")} at /accept/0/model: "videoB" is not a configured model id or alias (known: example/model-a (videoA)); correct or remove the entry`,
    );
  }, 180_000);

  it("with no local snapshot says so and how to make one (exit 2); one model missing names it", async () => {
    const dir = tempDir();
    cpSync(MIRROR, join(dir, "mirror"), { recursive: true });
    writeFileSync(
      join(dir, "vsk.config.json"),
      JSON.stringify({ schemaUrl: "./mirror", models: ["example/model-a", { id: "example/model-b", alias: "mb" }] }),
    );
    expect(usageError(await vskInProcess(["drift"], dir))).toBe(
      "vsk: drift: no snapshot in schemas-cache/ to compare with (example/model-a, example/model-b); make one with `vsk pull` and commit it",
    );
    expect((await vskInProcess(["pull", "--model", "example/model-a"], dir)).stdout).toContain(
      "1 model in " + join(dir, "schemas-cache") + ": 1 new, 0 updated, 0 unchanged",
    );
    expect(usageError(await vskInProcess(["drift"], dir))).toBe(
      "vsk: drift: no snapshot of example/model-b in schemas-cache/ to compare with; fetch it with `vsk pull --model mb` and commit the snapshot",
    );
    await vskInProcess(["pull"], dir);
    const run = await vskInProcess(["drift"], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("no drift: 2 models unchanged");
  }, 180_000);

  it('counts read "1 model", never "1 models" or "model(s)"', async () => {
    const dir = await driftProject();
    const drift = await vskInProcess(["drift", "--update"], dir);
    expect(drift.stderr).toContain("vsk: drift --update: 1 model written to");
    const again = await vskInProcess(["drift"], dir);
    expect(again.stdout).toContain("no drift: 1 model unchanged");
    const generated = await vskInProcess(["generate"], dir);
    expect(generated.stdout).toMatch(/^Generated \d+ files for 2 endpoints of 1 model into generated\/ in \d+ ms\.\n/);
    for (const run of [drift, again, generated]) expect(run.stdout + run.stderr).not.toMatch(/\(s\)|\b1 models\b/);
  }, 180_000);
});

describe("one help style (issue 30.4)", () => {
  it.each(["init", "pull", "generate"])(
    "vsk %s --help: usage, a description wrapped whole (no line broken mid-sentence), its exit codes, then options",
    async (command) => {
      const run = await vskInProcess([command, "--help"], tempDir());
      expect(run.code).toBe(0);
      const [usage, ...rest] = run.stdout.split("\n\n");
      expect(usage).toMatch(new RegExp(`^Usage: vsk ${command} `));
      const options = rest.findIndex((p) => p.startsWith("Options:"));
      const about = rest.slice(0, options);
      expect(about.length, run.stdout).toBeGreaterThanOrEqual(2);
      expect(about.at(-1)).toMatch(/^Exit codes: 0 /);
      for (const paragraph of about) {
        const lines = paragraph.split("\n");
        // wrapped by yargs to 100 columns: every line but a paragraph's last is nearly full
        for (const line of lines.slice(0, -1)) expect(line.length, paragraph).toBeGreaterThan(80);
        expect(lines.at(-1)).toMatch(/[.)]$/);
      }
    },
  );
});
