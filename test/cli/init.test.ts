/**
 * `vsk init` end to end (the built CLI in a temp project): the starter it writes, the file it
 * never replaces without --force, its flags, and the config schema it points at, checked with Ajv
 * (the way an editor checks the file). The installed case runs a copy of the package placed in
 * the project's node_modules/, as `npm i -D` leaves it.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/index.js";
import { MIRROR, ROOT, tempDir, usageError, vsk, vskInProcess } from "./run.js";

const validateConfig = new Ajv2020({ strict: true, allErrors: true }).compile(
  JSON.parse(readFileSync(join(ROOT, "schemas/config.schema.json"), "utf8")) as object,
);
const read = (file: string): Record<string, unknown> =>
  JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;

describe("vsk init", () => {
  it("with no flags writes the commented starter of the embedded example models, valid against the shipped schema", () => {
    const dir = tempDir();
    const run = vsk(["init"], dir);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain(
      "Wrote vsk.config.json: 3 models (example/model-a (modelA), example/model-b (modelB), example/model-c (modelC)).",
    );
    expect(run.stdout).toContain("Next: replace the example models with the ids your app calls.");
    expect(run.stdout).toContain('Next: set "schemaUrl" (or VSK_SCHEMA_URL)');
    const config = read(join(dir, "vsk.config.json"));
    expect(config).toEqual({
      $schema: "./node_modules/video-schema-kit/schemas/config.schema.json",
      $comment: expect.stringMatching(/^Starter written by vsk init\. Replace the example models/),
      models: [
        { id: "example/model-a", alias: "modelA" },
        { id: "example/model-b", alias: "modelB" },
        { id: "example/model-c", alias: "modelC" },
      ],
      snapshotDir: "schemas-cache",
      outDir: "generated",
    });
    expect(validateConfig(config), JSON.stringify(validateConfig.errors)).toBe(true);
    expect(readdirSync(dir)).toEqual(["vsk.config.json"]); // no temp file left behind
  });

  it("a bare init leaves a project where pull and generate work offline on the example models (issue 42.3)", () => {
    const dir = tempDir();
    expect(vsk(["init"], dir).code).toBe(0);
    // generate reads the package's embedded snapshot while the project has none of its own
    expect(loadConfig(dir).snapshotDir).toBe(join(ROOT, "schemas-cache"));
    const pull = vsk(["pull"], dir);
    expect(pull.stderr).toBe(
      `vsk: no schema URL is set, and these are the example models: copied from video-schema-kit's embedded snapshot (set "schemaUrl" or pass --schema-url to pull published schemas)\n`,
    );
    expect(pull.code).toBe(0);
    expect(pull.stdout).toContain(`3 models in ${join(dir, "schemas-cache")}: 3 new, 0 updated, 0 unchanged`);
    for (const model of ["model-a", "model-b", "model-c"])
      expect(readFileSync(join(dir, `schemas-cache/example/${model}/latest.json`), "utf8")).toBe(
        readFileSync(join(ROOT, `schemas-cache/example/${model}/latest.json`), "utf8"),
      );
    expect(loadConfig(dir).snapshotDir).toBe(join(dir, "schemas-cache")); // then its own
  });

  it("--add ID=ALIAS adds a model in place, without --force, keeping the rest of the file (issue 42.3)", () => {
    const dir = tempDir();
    const file = join(dir, "vsk.config.json");
    const mine = {
      $comment: "ours",
      schemaUrl: "https://schemas.example.com",
      models: [{ id: "acme/video-a", alias: "videoA", rules: "modelA" }],
      outDir: "src/generated",
    };
    writeFileSync(file, JSON.stringify(mine));
    const run = vsk(["init", "--add", "acme/video-z=videoZ"], dir);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      "Added to vsk.config.json: acme/video-z (videoZ); it lists 2 models.\nNext: vsk pull --model videoZ, then vsk generate.\n",
    );
    expect(read(file)).toEqual({ ...mine, models: [...mine.models, { id: "acme/video-z", alias: "videoZ" }] });
    expect(Object.keys(read(file))).toEqual(Object.keys(mine));
    // a clash names the flag; the file is left as it was
    const before = readFileSync(file, "utf8");
    expect(usageError(vsk(["init", "--add", "acme/video-q=VIDEOZ"], dir))).toBe(
      'vsk: init: --add "acme/video-q=VIDEOZ": "VIDEOZ" names /models/1 already; ids and aliases must be unique (case-insensitive): rename or remove one; vsk.config.json left unchanged',
    );
    expect(readFileSync(file, "utf8")).toBe(before);
    expect(readdirSync(dir)).toEqual(["vsk.config.json"]);
  });

  it("--model ID[=ALIAS] (repeated) and --schema-url make a config that pull, generate, lint and drift use as is", async () => {
    const dir = tempDir();
    const run = vsk(
      ["init", "--model", "example/model-a=videoA", "--model", "example/model-c", "--schema-url", "./mirror"],
      dir,
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Wrote vsk.config.json: 2 models (example/model-a (videoA), example/model-c).");
    expect(run.stdout).not.toContain("Next:");
    const config = read(join(dir, "vsk.config.json"));
    expect(config).toMatchObject({
      schemaUrl: "./mirror",
      models: [{ id: "example/model-a", alias: "videoA" }, "example/model-c"],
    });
    expect(validateConfig(config), JSON.stringify(validateConfig.errors)).toBe(true);

    // the commands after init run in process (issue 42.4): the config they read is under test, not their spawn
    // drift before any pull: no snapshot, says how to make one
    cpSync(MIRROR, join(dir, "mirror"), { recursive: true });
    expect(usageError(await vskInProcess(["drift"], dir))).toBe(
      "vsk: drift: no snapshot in schemas-cache/ to compare with (example/model-a, example/model-c); make one with `vsk pull` and commit it",
    );
    expect((await vskInProcess(["pull"], dir)).stdout).toContain("2 models in");
    const generated = await vskInProcess(["generate"], dir);
    expect(generated.stdout).toMatch(/ for 3 endpoints of 2 models into generated\//);
    writeFileSync(join(dir, "bad.json"), JSON.stringify({ resolution: "720p" }));
    writeFileSync(join(dir, "good.json"), JSON.stringify({ prompt: "a paper boat" }));
    const lint = await vskInProcess(["lint", "bad.json", "--model", "example/model-c"], dir);
    expect(lint.code).toBe(1);
    expect(lint.stdout).toContain("1 request: 0 valid, 1 invalid, 0 warnings");
    expect(
      (await vskInProcess(["lint", "good.json", "--model", "videoa", "--endpoint", "text-to-video"], dir)).code,
    ).toBe(0);
    const drift = await vskInProcess(["drift"], dir);
    expect(drift.code).toBe(0);
    expect(drift.stdout).toContain("no drift: 2 models unchanged");
  }, 180_000);

  it("never replaces an existing file without --force; with --force it does, atomically", () => {
    const dir = tempDir();
    const file = join(dir, "vsk.config.json");
    writeFileSync(file, '{ "models": ["acme/mine"] }\n');
    expect(usageError(vsk(["init"], dir))).toBe(
      "vsk: init: vsk.config.json already exists; nothing written (pass --force to replace it)",
    );
    expect(readFileSync(file, "utf8")).toBe('{ "models": ["acme/mine"] }\n');
    expect(vsk(["init", "--force", "--model", "acme/video-a"], dir).code).toBe(0);
    expect(read(file).models).toEqual(["acme/video-a"]);
    expect(readdirSync(dir)).toEqual(["vsk.config.json"]);
  });

  it("--config FILE writes elsewhere, with $schema relative to that file", () => {
    const dir = tempDir();
    mkdirSync(join(dir, "config"));
    expect(vsk(["init", "--config", "config/vsk.json"], dir).stdout).toContain("Wrote config/vsk.json:");
    expect(read(join(dir, "config/vsk.json")).$schema).toBe(
      "./node_modules/video-schema-kit/schemas/config.schema.json",
    );
    expect(usageError(vsk(["init", "--config", "nowhere/vsk.json"], dir))).toBe(
      "vsk: init: cannot write nowhere/vsk.json: its directory does not exist",
    );
    expect(usageError(vsk(["init", "--config", "config"], dir))).toBe(
      "vsk: init: config is a directory; pass --config FILE to write the config elsewhere",
    );
  });

  it.each([
    [
      ["--model", "acme"],
      'vsk: init: --model "acme": "acme" is not a model id, <owner>/<name>, e.g. "acme/video-a" (see `vsk init --help`)',
    ],
    [
      ["--model", "acme/a=x y"],
      'vsk: init: --model "acme/a=x y": "x y" is not an alias: letters, digits, ., _ and -, e.g. "modelA" (see `vsk init --help`)',
    ],
    [
      ["--model", "acme/a=va", "--model", "acme/b=VA"],
      'vsk: init: --model "acme/b=VA": "VA" names --model "acme/a=va" already; ids and aliases must be unique (case-insensitive): rename or remove one (see `vsk init --help`)',
    ],
    [["--schema-url", ""], "vsk: init: --schema-url takes one value (see `vsk init --help`)"],
    [["--modle", "acme/a"], 'vsk: init: unknown option "--modle"; did you mean "--model"? (see `vsk init --help`)'],
    [["acme/a"], 'vsk: init: unexpected argument "acme/a" (see `vsk init --help`)'],
  ])("bad flags %j: one line, exit 2, nothing written", async (args, message) => {
    const dir = tempDir();
    // the first as a real process, the others in this process (issue 42.4): the message is under test
    const run = args[1] === "acme" ? vsk(["init", ...args], dir) : await vskInProcess(["init", ...args], dir);
    expect(usageError(run)).toBe(message);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('--lang js writes the "lang" key that generate, --check and the Action read', async () => {
    const dir = tempDir();
    expect((await vskInProcess(["init", "--lang", "js"], dir)).code).toBe(0);
    expect(read(join(dir, "vsk.config.json")).lang).toBe("js");
  });

  it("installed as a devDependency: $schema is the package's own copy, relative to the config", () => {
    const project = tempDir();
    const pkg = join(project, "node_modules/video-schema-kit");
    for (const part of ["package.json", "bin", "dist", "schemas", "schemas-cache", "templates"])
      cpSync(join(ROOT, part), join(pkg, part), { recursive: true });
    symlinkSync(join(ROOT, "node_modules"), join(pkg, "node_modules"), "dir");
    const cli = join(pkg, "bin/vsk.mjs");

    const run = vsk(["init"], project, {}, cli);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("$schema: ./node_modules/video-schema-kit/schemas/config.schema.json (editors");
    const ref = read(join(project, "vsk.config.json")).$schema as string;
    expect(existsSync(resolve(project, ref))).toBe(true);

    mkdirSync(join(project, "app"));
    expect(vsk(["init", "--config", "app/vsk.config.json"], project, {}, cli).code).toBe(0);
    const nested = read(join(project, "app/vsk.config.json")).$schema as string;
    expect(nested).toBe("../node_modules/video-schema-kit/schemas/config.schema.json");
    expect(existsSync(resolve(dirname(join(project, "app/vsk.config.json")), nested))).toBe(true);
  });

  it("-h, --help and `vsk help init` print its usage", async () => {
    const dir = tempDir();
    for (const args of [
      ["init", "-h"],
      ["init", "--help"],
      ["help", "init"],
    ]) {
      // the first as a real process, the others in this process (issue 42.4)
      const run = args[1] === "-h" ? vsk(args, dir) : await vskInProcess(args, dir);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^Usage: vsk init /);
      expect(run.stdout).toContain("--force");
    }
    expect(readdirSync(dir)).toEqual([]);
  });
});
