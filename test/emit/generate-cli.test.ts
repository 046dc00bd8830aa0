/**
 * The real `vsk generate` (node dist/cli/vsk.js, a child process) in a temp directory with
 * a vsk.config.json pointing snapshotDir/outDir into it: determinism, `--check`, the header of
 * every generated file, hostile schemas (generated code type-checks; running it executes
 * nothing taken from the schema), and a broken snapshot (exit 3, file and JSON Pointer, no
 * stack trace). Needs the build (`npm run build`), as `npm test` does first.
 */
import { execFile } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { vskInProcess } from "../cli/run.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CLI = join(ROOT, "dist/cli/vsk.js");
const TSC = join(ROOT, "node_modules/typescript/bin/tsc");
const HOSTILE = join(ROOT, "test/fixtures/emit/hostile");
const HOSTILE_DRIVER = join(ROOT, "test/fixtures/emit/run-hostile.mjs");

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function node(args: string[], cwd: string): Promise<Run> {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd, env, encoding: "utf8", timeout: 60_000 }, (error, stdout, stderr) => {
      const status = error === null ? 0 : typeof error.code === "number" ? error.code : null;
      resolve({ status, stdout, stderr });
    });
  });
}

const vsk = (cwd: string, ...args: string[]) => node([CLI, "generate", ...args], cwd);
/**
 * `vsk generate` in this process (issue 42.4), where the run repeats a behaviour a child process
 * above already showed (the first of each kind is a real `node dist/cli/vsk.js generate`): the
 * same bundle, its output and exit code; each run after the first costs about half a spawn.
 */
const inProcess = async (cwd: string, ...args: string[]): Promise<Run> => {
  const run = await vskInProcess(["generate", ...args], cwd);
  return { status: run.code, stdout: run.stdout, stderr: run.stderr };
};

let work = "";
beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
  work = mkdtempSync(join(tmpdir(), "vsk-generate-"));
  // generated validators may import ajv-formats; resolve packages as an installed project would
  symlinkSync(join(ROOT, "node_modules"), join(work, "node_modules"), "dir");
});
afterAll(() => {
  if (work !== "") rmSync(work, { recursive: true, force: true });
});

/** A project directory in the temp dir: its own config, a copy of the snapshot, an output dir. */
function project(
  name: string,
  config: Record<string, unknown>,
  snapshot: string = join(ROOT, "schemas-cache"),
): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  if (snapshot !== "") cpSync(snapshot, join(dir, "snapshot"), { recursive: true });
  writeFileSync(
    join(dir, "vsk.config.json"),
    JSON.stringify({ snapshotDir: "snapshot", outDir: "out", ...config }, null, 2),
  );
  return dir;
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split("\\").join("/"))
    .sort();
}

function readTree(dir: string): Map<string, Buffer> {
  return new Map(listFiles(dir).map((f) => [f, readFileSync(join(dir, f))]));
}

const noStackTrace = (text: string) => expect(text).not.toMatch(/^\s+at .+[(:]\d+/m);

describe("vsk generate (default models, child process)", () => {
  let dir = "";
  let first: Map<string, Buffer>;
  beforeAll(async () => {
    dir = project("default", {});
    const run = await vsk(dir);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^Generated \d+ files for 4 endpoints of 3 models into out\/ in \d+ ms\.\n/);
    first = readTree(join(dir, "out"));
  });

  it("writes the files of every endpoint", () => {
    const files = [...first.keys()];
    for (const stem of [
      "example/model-a/keyframes-to-video",
      "example/model-a/text-to-video",
      "example/model-b/reference-to-video",
      "example/model-c/text-to-video",
    ]) {
      for (const suffix of [".mts", ".types.mts", ".validate.mts", ".schema.json"])
        expect(files).toContain(stem + suffix);
    }
    for (const f of ["index.mts", "support.mts", "redact.mts", "endpoints.json", "client.mts"])
      expect(files).toContain(f);
    // the queue client's copies of the package's client and runtime (src/client, src/runtime but redact.ts)
    expect(files.filter((f) => f.startsWith("_vsk/"))).toHaveLength(19);
    expect(files).toHaveLength(40);
  });

  // One `--check` run proves two things: it exits 0 and writes nothing on a fresh out/, and the
  // output does not depend on the directory (generate's own output there would have to be
  // byte-identical to what was written here: --check compares every byte). In process (issue
  // 42.4): the output of a run is what is compared, and --check's exit 0 through a child process
  // is test/emit/committed.test.ts's.
  it("--check in another directory: exit 0, writes nothing (machine-independent: the same bytes)", async () => {
    const other = join(work, "default-elsewhere");
    cpSync(dir, other, { recursive: true });
    const run = await inProcess(other, "--check");
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("out/ is up to date");
    const tree = readTree(join(other, "out"));
    expect([...tree.keys()]).toEqual([...first.keys()]);
    for (const [file, content] of first) expect(tree.get(file)!.equals(content), file).toBe(true);
    const text = [...first.values()].map((b) => b.toString("utf8")).join("\n");
    expect(text).not.toContain(work);
    expect(text).not.toMatch(/\b20\d\d-\d\d-\d\dT\d\d:\d\d/); // no timestamps
  });

  // issue 24.3: the consumer's own prettier (the real CLI, their .prettierrc) over the whole output
  const PRETTIER = join(ROOT, "node_modules/prettier/bin/prettier.cjs");
  const optionSets: Array<Record<string, unknown>> = [
    { printWidth: 40 },
    { useTabs: true, tabWidth: 4 },
    { singleQuote: true, quoteProps: "consistent", trailingComma: "none" },
    // without semicolons prettier writes `;(target as …)[name] = …`: a lone `;` that changes nothing
    { semi: false, arrowParens: "avoid", objectWrap: "collapse", bracketSpacing: false },
  ];
  /** A copy of the project per option set, all formatted by one prettier run (each file by its copy's .prettierrc.json). */
  let reformatting: Promise<string[]> | undefined;
  const reformatted = (): Promise<string[]> =>
    (reformatting ??= (async () => {
      const copies = optionSets.map((options, i) => {
        const copy = join(work, `reformatted-${i}`);
        cpSync(dir, copy, { recursive: true });
        writeFileSync(join(copy, ".prettierrc.json"), JSON.stringify(options));
        return copy;
      });
      // the endpoints' modules and the registry (not the 86 KB support module or _vsk/, the same
      // comparison on more text): what --check says depends on which files differ, listed whatever they are
      const formatted = await node(
        [
          PRETTIER,
          "--write",
          ...copies.flatMap((c) => [`${relative(work, c)}/out/example/`, `${relative(work, c)}/out/index.mts`]),
        ],
        work,
      );
      expect(formatted.status, formatted.stderr).toBe(0);
      return copies;
    })());
  it.each(optionSets)(
    "--check after the user's prettier %o ran over generated/: says it was reformatted and what to ignore",
    async (options) => {
      const copy = (await reformatted())[optionSets.indexOf(options)]!;
      const changed = listFiles(join(copy, "out")).filter(
        (f) => !readFileSync(join(copy, "out", f)).equals(first.get(f)!),
      );
      expect(changed.length).toBeGreaterThan(0); // prettier did rewrite files
      // the first option set through a child process, the others in process
      const run = optionSets.indexOf(options) === 0 ? await vsk(copy, "--check") : await inProcess(copy, "--check");
      expect(run.status).toBe(1);
      expect(run.stderr).toBe(
        `vsk: out/ was reformatted by a formatter (${changed.length} ${changed.length === 1 ? "file says" : "files say"} what vsk generates, in another layout: ${changed.join(", ")}): add "out/" and "snapshot/" to .prettierignore (and your linters' ignores), then run \`vsk generate\` and commit the result.\n`,
      );
      // a reformatted file that also says something else is stale, not reformatted (one option set
      // shows it: the comparison is the same for all, and each --check is a child process)
      if (optionSets.indexOf(options) !== 0) return;
      const file = join(copy, "out/example/model-c/text-to-video.types.mts");
      writeFileSync(file, readFileSync(file, "utf8").replace(/\bduration\b/, "durations"));
      const edited = await inProcess(copy, "--check");
      expect(edited.status).toBe(1);
      expect(edited.stderr).toMatch(/^vsk: out\/ is stale: \d+ files differ from what the snapshot gives/);
    },
    180_000,
  ); // one prettier run over the four copies (the first test waits for it), then one or two vsk runs

  it("says on the first line of every file that it is generated, and by which command", () => {
    for (const [file, content] of first) {
      const text = content.toString("utf8");
      if (file.endsWith(".schema.json")) {
        // an editor schema: its first member is the JSON Schema comment
        const [key, value] = Object.entries(JSON.parse(text) as object)[0]!;
        expect(key, file).toBe("$comment");
        expect(value, file).toMatch(
          /^Generated by `vsk generate` from schemas-cache\/example\/model-[abc]\/latest\.json\. Do not edit/,
        );
        continue;
      }
      if (file.endsWith(".json")) {
        // JSON has no comments: the first member says it
        expect(Object.entries(JSON.parse(text) as object)[0], file).toEqual(["generatedBy", "vsk generate"]);
        continue;
      }
      const firstLine = text.split("\n")[0]!;
      expect(firstLine, file).toMatch(
        /^\/\/ Generated by `vsk generate` from schemas-cache\/example\/model-[abc]\/latest\.json.*Do not edit/,
      );
    }
  });

  it("--check exits 1 with one sentence naming the edited files, a comment added by hand said as such, and writes nothing", async () => {
    const edited = join(dir, "out/example/model-b/reference-to-video.validate.mts");
    // a hand edit of the code
    const text = `${readFileSync(edited, "utf8")}export const handEdit = 1;\n`;
    writeFileSync(edited, text);
    // a comment appended by hand: no formatter adds words (issue 42.3; it read as "reformatted")
    const commented = join(dir, "out/example/model-c/text-to-video.mts");
    const original = readFileSync(commented, "utf8");
    writeFileSync(commented, `${original}// TODO: ask the vendor about 4K\n`);
    // in process: --check's exit 1 through a child process is the reformatted case's above
    const run = await inProcess(dir, "--check");
    writeFileSync(commented, original);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    const lines = run.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^vsk: out\/ is stale: 2 files .*\(example\/model-b\/reference-to-video\.validate\.mts, example\/model-c\/text-to-video\.mts \(comments edited by hand\)\).*`vsk generate`.*\.$/,
    );
    expect(lines[0]).toContain("an edit belongs in the snapshot or the config, not in them");
    expect(lines[0]).not.toContain("formatter");
    expect(readFileSync(edited, "utf8")).toBe(text); // --check wrote nothing
    noStackTrace(run.stderr);
  });

  it(
    "--check names missing and extra files too; generate restores the same bytes (a second run: byte-identical)",
    { timeout: 180_000 },
    async () => {
      rmSync(join(dir, "out/example/model-c/text-to-video.types.mts"));
      writeFileSync(join(dir, "out/example/stray.ts"), "export {};\n");
      const stale = await inProcess(dir, "--check");
      expect(stale.status).toBe(1);
      expect(stale.stderr.trimEnd().split("\n")).toHaveLength(1);
      expect(stale.stderr).toContain("example/model-c/text-to-video.types.mts (missing)");
      expect(stale.stderr).toContain("example/stray.ts (not generated)");
      expect(stale.stderr).toContain("example/model-b/reference-to-video.validate.mts");
      expect(stale.stderr).toMatch(/^vsk: out\/ is stale: 3 files /);

      // generate replaces the directory as a whole: it refuses while a file it did not write is there
      const refused = await inProcess(dir);
      expect(refused.status).toBe(2);
      expect(refused.stderr).toMatch(/holds files that vsk did not generate \(example\/stray\.ts\)/);
      rmSync(join(dir, "out/example/stray.ts"));
      // in process: the child process of this describe's beforeAll wrote the first bytes
      const regenerate = await inProcess(dir);
      expect(regenerate.status).toBe(0);
      const tree = readTree(join(dir, "out"));
      expect([...tree.keys()]).toEqual([...first.keys()]);
      for (const [file, content] of first) expect(tree.get(file)!.equals(content), file).toBe(true);
    },
  );
});

describe("rules follow each endpoint's schema (spec 2.2, 4.4, 4.5)", () => {
  const RULE_LINES = [
    "  acme/kf/keyframes-to-video: frame-index-unique, frame-index-within-duration",
    "  acme/kf/text-to-video: no cross-field rules",
    "  acme/refs/reference-to-video: file-url-requires-thinking, web-url-requires-thinking",
    "  acme/c/text-to-video: duration-auto-or-range, prompt-length-recommendation",
  ];
  let dir = "";
  let run: Run;
  beforeAll(async () => {
    // the spec's models under other ids, without aliases and without `rules`
    // (acme/kf with an alias: the names generate prints follow it, issue 42.3)
    dir = project(
      "renamed",
      { models: [{ id: "acme/kf", alias: "videoA" }, { id: "acme/refs" }, { id: "acme/c" }] },
      "",
    );
    for (const [from, to] of [
      ["model-a", "kf"],
      ["model-b", "refs"],
      ["model-c", "c"],
    ]) {
      const text = readFileSync(join(ROOT, `schemas-cache/example/${from}/latest.json`), "utf8");
      mkdirSync(join(dir, `snapshot/acme/${to}`), { recursive: true });
      writeFileSync(join(dir, `snapshot/acme/${to}/latest.json`), text.split(`example/${from}`).join(`acme/${to}`));
    }
    // in process: what generate prints is the same code path as the child process above
    run = await inProcess(dir);
  });

  it("generate prints each endpoint's rule ids, or that it has none", () => {
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    for (const line of RULE_LINES) expect(run.stdout).toContain(`${line}\n`);
  });

  it("generate prints each endpoint's exported names: the alias's, else the model name's (issue 42.3)", () => {
    expect(run.stdout).toContain("Exports per endpoint, from out/index.mjs (");
    const printed = [
      "  acme/kf/keyframes-to-video: buildVideoAKeyframesToVideo, safeBuildVideoAKeyframesToVideo, validateVideoAKeyframesToVideo, videoAKeyframesToVideoStandardSchema, videoAKeyframesToVideoJsonSchema, videoAKeyframesToVideoInputSchema, videoAKeyframesToVideoDefaults, videoAKeyframesToVideoPath; types VideoAKeyframesToVideoInput, VideoAKeyframesToVideoOutput",
      "  acme/refs/reference-to-video: buildRefsReferenceToVideo, safeBuildRefsReferenceToVideo, validateRefsReferenceToVideo, refsReferenceToVideoStandardSchema, refsReferenceToVideoJsonSchema, refsReferenceToVideoInputSchema, refsReferenceToVideoDefaults, refsReferenceToVideoPath; types RefsReferenceToVideoInput, RefsReferenceToVideoOutput",
    ];
    for (const line of printed) expect(run.stdout).toContain(`${line}\n`);
    // and they are the names the modules export
    const kf = readFileSync(join(dir, "out/acme/kf/keyframes-to-video.mts"), "utf8");
    for (const name of [
      "buildVideoAKeyframesToVideo",
      "safeBuildVideoAKeyframesToVideo",
      "validateVideoAKeyframesToVideo",
    ])
      expect(kf).toMatch(new RegExp(`export (async )?function ${name}\\b`));
    for (const name of [
      "videoAKeyframesToVideoStandardSchema",
      "videoAKeyframesToVideoJsonSchema",
      "videoAKeyframesToVideoInputSchema",
      "videoAKeyframesToVideoDefaults",
      "videoAKeyframesToVideoPath",
    ])
      expect(kf).toMatch(new RegExp(`export const ${name}\\b`));
    expect(kf).toContain("VideoAKeyframesToVideoInput,");
  });

  it("endpoints.json lists the same rules", () => {
    const manifest = JSON.parse(readFileSync(join(dir, "out/endpoints.json"), "utf8")) as {
      endpoints: Array<{ key: string; rules: string[] }>;
    };
    const listed = manifest.endpoints.map((e) => `  ${e.key}: ${e.rules.join(", ") || "no cross-field rules"}`);
    expect(listed.sort()).toEqual([...RULE_LINES].sort());
  });

  it("a rules override that does not fit the endpoint: exit 2 naming the model, the rule and the field", async () => {
    writeFileSync(
      join(dir, "vsk.config.json"),
      JSON.stringify({ snapshotDir: "snapshot", outDir: "out", models: [{ id: "acme/kf", rules: "modelC" }] }),
    );
    const bad = await inProcess(dir);
    expect(bad.status).toBe(2);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toBe(
      'vsk: acme/kf: "rules": "modelC": rule duration-auto-or-range does not fit text-to-video: it needs field "duration" to be an integer with minimum -1 (-1 means automatic) and a maximum, found types integer, string; remove "rules" from this model in the config to let the rules follow the schema, or fix the model id\n',
    );
  });
});

describe("generate --lang js", () => {
  it("writes ESM .js with .d.ts that run under plain node, and lint reads them", { timeout: 180_000 }, async () => {
    const dir = project("lang-js", {});
    const run = await vsk(dir, "--lang", "js");
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const files = listFiles(join(dir, "out"));
    expect(files.filter((f) => /\.m?ts$/.test(f) && !f.endsWith(".d.ts"))).toEqual([]);
    for (const f of [
      "index.js",
      "index.d.ts",
      "support.js",
      "support.d.ts",
      "redact.js",
      "example/model-c/text-to-video.validate.js",
      "example/model-c/text-to-video.schema.json",
      "client.js",
      "client.d.ts",
      "_vsk/client/index.js",
      "_vsk/runtime/readers.d.ts",
    ])
      expect(files).toContain(f);
    for (const f of files.filter((f) => !f.endsWith(".json")))
      expect(readFileSync(join(dir, "out", f), "utf8"), f).toMatch(/^\/\/ Generated by `vsk generate`/);
    // the .js files are ES modules in any project: out/package.json says so (npm init's default "type" is commonjs)
    expect(JSON.parse(readFileSync(join(dir, "out/package.json"), "utf8"))).toMatchObject({ type: "module" });
    writeFileSync(join(dir, "package.json"), '{"type":"commonjs"}');
    const driver = `import { validateRequest, RequestValidationError } from ${JSON.stringify(join(dir, "out/index.js"))};
      import { createClient } from ${JSON.stringify(join(dir, "out/client.js"))};
      const client = createClient({ baseUrl: "http://127.0.0.1:1", credentials: "k", fetch: () => { throw new Error("sent"); } });
      const thrown = await client.submit("example/model-c/text-to-video", { input: { prompt: "x", duration: 2 } }).catch((e) => e);
      import { endpoints } from ${JSON.stringify(join(dir, "out/index.js"))};
      const standard = endpoints["example/model-c/text-to-video"]["~standard"];
      process.stdout.write(JSON.stringify([thrown instanceof RequestValidationError, validateRequest("example/model-c/text-to-video", { prompt: "x", duration: 2 }), standard.vendor, standard.validate({ prompt: "x", duration: 2 })]));`;
    writeFileSync(join(dir, "driver.mjs"), driver);
    const ran = await node([join(dir, "driver.mjs")], dir);
    expect(ran.stderr).toBe("");
    const [clientThrew, diagnostics, vendor, standard] = JSON.parse(ran.stdout) as [
      boolean,
      Array<{ message: string }>,
      string,
      unknown,
    ];
    expect(clientThrew).toBe(true);
    expect(diagnostics.map((d) => d.message)).toEqual([
      "duration: 2 is not allowed; expected -1 (automatic) or 4 to 15 (spec 4.5)",
    ]);
    // issue 27: Standard Schema v1 under --lang js too, its types in the .d.ts
    expect(vendor).toBe("video-schema-kit");
    expect(standard).toEqual({ issues: [{ message: diagnostics[0]!.message, path: ["duration"] }] });
    writeFileSync(
      join(dir, "types.mts"),
      `import { endpoints, modelCTextToVideoStandardSchema, type StandardSchemaV1, type ModelCTextToVideoInput } from "./out/index.js";
      type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
      export const checks: true[] = [
        true satisfies Equal<StandardSchemaV1.InferInput<(typeof endpoints)["example/model-c/text-to-video"]>, ModelCTextToVideoInput>,
        true satisfies Equal<StandardSchemaV1.InferOutput<typeof modelCTextToVideoStandardSchema>, ModelCTextToVideoInput>,
      ];
      // @ts-expect-error a wrong field type
      export const wrong: StandardSchemaV1.InferInput<typeof modelCTextToVideoStandardSchema> = { prompt: 1 };\n`,
    );
    const types = await node(
      [
        TSC,
        "--noEmit",
        "--strict",
        "--exactOptionalPropertyTypes",
        "--module",
        "nodenext",
        "--target",
        "es2022",
        // the generated .d.ts are checked (skipLibCheck false); TypeScript's own lib files are
        // not ours: checking them too cost ~2 s of CPU (issue 42.4)
        "--skipLibCheck",
        "false",
        "--skipDefaultLibCheck",
        "types.mts",
      ],
      dir,
    );
    expect(types.stdout + types.stderr).toBe("");
    writeFileSync(join(dir, "c.json"), JSON.stringify({ prompt: "x", duration: 2 }));
    const lint = await node([CLI, "lint", "c.json", "--model", "example/model-c", "--format", "json"], dir);
    expect(lint.stderr).toBe("");
    expect(lint.status).toBe(1);
    expect(lint.stdout).toContain('"rule":"duration-auto-or-range"');
    const check = await inProcess(dir, "--check", "--lang", "js");
    expect(check.stderr).toBe("");
    expect(check.status).toBe(0);
  });

  it("keeps a js project js: plain --check and generate follow the layout found, a mismatch is said, and the config's lang is used", async () => {
    const dir = join(work, "lang-js"); // the test above left the js layout in out/
    // what vsk used to advise (plain `vsk generate`) swapped .js for .mts under the project's imports
    const check = await inProcess(dir, "--check");
    expect(check.stderr).toBe("");
    expect(check.status).toBe(0);
    expect(check.stdout).toContain("the js layout found there");
    const plain = await inProcess(dir);
    expect(plain.stderr).toBe("");
    expect(plain.status).toBe(0);
    expect(plain.stdout).toContain(
      'Kept the js layout found in out/ (.js with .d.ts): no language is configured; to say so, set "lang": "js" in vsk.config.json (or pass --lang js).',
    );
    expect(existsSync(join(dir, "out/index.js"))).toBe(true);
    expect(existsSync(join(dir, "out/index.mts"))).toBe(false);
    // out/package.json: the one a project had to write by hand before is replaced by generate's;
    // any other is the project's own file, never replaced
    writeFileSync(join(dir, "out/package.json"), '{ "type": "module" }\n');
    expect((await inProcess(dir, "--lang", "js")).status).toBe(0);
    expect(readFileSync(join(dir, "out/package.json"), "utf8")).toContain("Generated by `vsk generate --lang js`");
    writeFileSync(join(dir, "out/package.json"), '{ "name": "mine", "type": "module" }\n');
    const refused = await inProcess(dir, "--lang", "js");
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain("holds files that vsk did not generate (package.json)");
    expect((await inProcess(dir, "--lang", "js", "--check")).status).toBe(1);
    rmSync(join(dir, "out/package.json"));
    expect((await inProcess(dir, "--lang", "js")).status).toBe(0);
    // an explicit other language ("lang" in the config): said as such, never "run `vsk generate`"
    writeFileSync(join(dir, "vsk.config.json"), JSON.stringify({ snapshotDir: "snapshot", outDir: "out", lang: "ts" }));
    const ts = await inProcess(dir, "--check");
    expect(ts.status).toBe(1);
    expect(ts.stderr).toBe(
      'vsk: out/ holds the js layout (.js with .d.ts), but "lang": "ts" in vsk.config.json asks for ts (.mts modules), so every file differs: to keep js, set "lang": "js" in vsk.config.json (or pass --lang js); to switch to ts, run `vsk generate --lang ts`, update what imports out/ (index.mjs) and commit the result.\n',
    );
    // the command line overrides the config
    expect((await inProcess(dir, "--check", "--lang", "js")).status).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------
// Hostile schemas: test/fixtures/emit/hostile/hostile/model-h/latest.json has descriptions,
// titles, defaults and enum values with `*/`, backticks, `${`, quotes, U+2028, and
// `"); process.exit(9); ("`, and property names with quotes, spaces, unicode, `*/`, `${x}`,
// `a/b~c` and `__proto__`.

const TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    lib: ["ES2022"],
    module: "NodeNext",
    moduleResolution: "NodeNext",
    types: [],
    strict: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: true,
    declaration: false,
  },
  include: ["out/**/*.mts"],
};

/**
 * One project holds both hostile models (model-h, and model-o of the describe after the hostile
 * one): one generate and one tsc run serve both describes, each asserting on its own model.
 */
let hostileRun: Promise<{ dir: string; generated: Run }> | undefined;
function hostile(): Promise<{ dir: string; generated: Run }> {
  hostileRun ??= (async () => {
    const dir = project("hostile", { models: [{ id: "hostile/model-h" }, { id: "hostile/model-o" }] }, HOSTILE);
    // in process: the generated code is what is under test here (tsc and plain node run it)
    return { dir, generated: await inProcess(dir) };
  })();
  return hostileRun;
}

/** tsc over the whole hostile output: its diagnostics, one per line. */
let compileRun: Promise<{ status: number | null; lines: string[] }> | undefined;
function typeCheckAndCompile(): Promise<{ status: number | null; lines: string[] }> {
  compileRun ??= (async () => {
    const { dir } = await hostile();
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(TSCONFIG));
    // emits each .mts as .mjs beside it, so the builders can run under plain node
    const run = await node([TSC, "-p", join(dir, "tsconfig.json"), "--pretty", "false"], dir);
    return { status: run.status, lines: (run.stdout + run.stderr).split("\n").filter((l) => l !== "") };
  })();
  return compileRun;
}
/** tsc's diagnostics in model-o's files */
const inModelO = (line: string) => line.includes("hostile/model-o/");

/** The hostile driver's run over model-h's endpoint (after tsc compiled it), shared by the tests that read it. */
let driverRun: Promise<Run> | undefined;

describe("hostile schemas", () => {
  let dir = "";
  let generated: Run;
  beforeAll(async () => {
    ({ dir, generated } = await hostile());
  });

  it("generate succeeds", () => {
    expect(generated.stderr).toBe("");
    expect(generated.status).toBe(0);
  });

  it("the generated code type-checks with tsc (strict)", async () => {
    const run = await typeCheckAndCompile();
    // everything but model-o's files (their own test below)
    expect(run.lines.filter((l) => !inModelO(l))).toEqual([]);
    expect(run.status === 0).toBe(run.lines.length === 0);
  });

  const driver = async (): Promise<Run> => {
    await typeCheckAndCompile();
    expect(existsSync(join(dir, "out/index.mjs")), "compiled by tsc").toBe(true);
    return (driverRun ??= node([HOSTILE_DRIVER, join(dir, "out"), "hostile/model-h/text-to-video"], dir));
  };

  it("running it under plain node executes nothing taken from the schema", async () => {
    const run = await driver();
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0); // no process.exit(…) from a description, title, default or enum
    const out = JSON.parse(run.stdout) as {
      diagnostics: Record<string, Array<{ pointer: string; rule: string; severity: string; message: string }>>;
      built: unknown;
      thrown: unknown;
      defaults: { ownProto: boolean; protoIsObjectPrototype: boolean; keys: string[]; values: unknown[] };
      schemaOwnProto: boolean;
      rules: unknown;
      canary: unknown;
      polluted: unknown;
      globalsAdded: string[];
      done: boolean;
    };
    expect(out.done).toBe(true);
    expect(out.canary).toBeNull();
    expect(out.polluted).toBeNull();
    expect(out.globalsAdded).toEqual([]);

    // `__proto__` is an ordinary own field everywhere: defaults, schema, validation
    expect(out.defaults).toEqual({
      ownProto: true,
      protoIsObjectPrototype: true,
      keys: ["with space", "ünïcødé_名前", "__proto__", "*/", "style"],
      values: [3, true, { polluted: true }, "*/ process.exit(2) /*", "it's"],
    });
    expect(out.schemaOwnProto).toBe(true);
    expect(out.diagnostics.valid).toEqual([]);
    expect(out.built).toEqual({ method: "POST", path: "/v1/queue/hostile/model-h/text-to-video", sameBody: true });

    // pointers escape `/` and `~` (RFC 6901); strange names are labelled, not mangled
    // (a missing required `__proto__` is a known bug, checked on its own below)
    const pointers = (name: string) =>
      out.diagnostics[name]!.map((d) => `${d.pointer} ${d.rule}`)
        .filter((p) => p !== "/__proto__ schema/required")
        .sort();
    expect(pointers("enumsAndNames")).toEqual(
      [
        "/with space schema/maximum",
        "/ünïcødé_名前 schema/type",
        "/*~1 schema/type",
        "/${x} schema/pattern",
        "/a~1b~0c schema/minimum",
        "/style schema/enum",
      ].sort(),
    );
    expect(pointers("missing")).toEqual(['/it\'s "quoted" schema/required', "/prompt schema/required"].sort());
    expect(out.diagnostics.unknown).toEqual([
      expect.objectContaining({ pointer: "/with_space", rule: "unknown-field", severity: "warning" }),
    ]);
    expect(out.diagnostics.unknown![0]!.message).toContain('did you mean "with space"');
    expect(out.thrown).toMatchObject({ name: "RequestValidationError" });
    // the rules are data, with the hostile names kept verbatim
    expect(out.rules).toEqual([
      {
        id: "unknown-field",
        kind: "unknownFields",
        known: ["prompt", 'it\'s "quoted"', "with space", "ünïcødé_名前", "__proto__", "*/", "${x}", "a/b~c", "style"],
        // the object under "__proto__" is described too: its fields by position, never as a key
        inner: [null, null, null, null, { object: 0 }, null, null, null, null],
        objects: [{ known: ["polluted"] }],
      },
    ]);
  });

  // Was a bug (fixed with Ajv's ownProperties): Ajv checked `data.__proto__ === undefined`, never true for an
  // object, so a payload without the required field `__proto__` passes. Fix: Ajv option
  // `ownProperties: true` in createAjv (src/emit/validator.ts).
  it("a missing required field named __proto__ is reported", async () => {
    const run = await driver();
    const out = JSON.parse(run.stdout) as { diagnostics: Record<string, Array<{ pointer: string; rule: string }>> };
    expect(out.diagnostics.missing).toContainEqual(
      expect.objectContaining({ pointer: "/__proto__", rule: "schema/required" }),
    );
  });

  it("the schema's strings reach the code only as string literals or comments", () => {
    const validator = readFileSync(join(dir, "out/hostile/model-h/text-to-video.validate.mts"), "utf8");
    const builders = readFileSync(join(dir, "out/hostile/model-h/text-to-video.mts"), "utf8");
    const types = readFileSync(join(dir, "out/hostile/model-h/text-to-video.types.mts"), "utf8");
    for (const text of [validator, builders, types]) {
      // a statement-level `process.exit(` would begin a line or follow `;`/`{` outside a string
      for (const line of text.split("\n")) expect(line, line).not.toMatch(/^\s*process\.exit\(/);
      // no comment is closed early by a description: every `*/` inside a doc comment is escaped
      for (const comment of text.match(/\/\*\*[\s\S]*?\*\//g) ?? [])
        expect(comment.slice(3, -2), comment).not.toContain("*/");
    }
  });
});

describe("hostile schemas: property names that are Object.prototype members", () => {
  // test/fixtures/emit/hostile/hostile/model-o: optional `constructor`, `toString`, `valueOf`.
  let dir = "";
  beforeAll(async () => {
    const { generated } = await hostile();
    dir = join(work, "hostile");
    expect(generated.status).toBe(0);
  });

  // Was a bug (fixed: no `satisfies` for such inputs): `defaults … as const satisfies Partial<Input>` failed with
  // TS1360: the literal's inherited `constructor: Function` does not satisfy `constructor?: string`.
  it("the generated code type-checks", async () => {
    const run = await typeCheckAndCompile();
    expect(run.lines.filter(inModelO)).toEqual([]);
    expect(run.status === 0).toBe(run.lines.length === 0);
  });

  // Was a bug (fixed with ownProperties): Ajv read `data.constructor` / `data.toString` / `data.valueOf` without an own-
  // property check, so `{ prompt: "x" }` gets three false errors ("constructor: expected string,
  // received undefined nothing"). Fix: Ajv option `ownProperties: true` (src/emit/validator.ts).
  it("a payload without those fields is valid", async () => {
    await typeCheckAndCompile(); // the .validate.mjs it loads
    const run = await new Promise<Run>((resolve) => {
      const env = { ...process.env };
      delete env.NODE_OPTIONS;
      const child = execFile(
        process.execPath,
        [join(ROOT, "test/fixtures/emit/run-validator.mjs")],
        { env, encoding: "utf8" },
        (error, stdout, stderr) => resolve({ status: error === null ? 0 : 1, stdout, stderr }),
      );
      child.stdin!.end(
        JSON.stringify({
          module: join(dir, "out/hostile/model-o/text-to-video.validate.mjs"),
          cases: [{ prompt: "x" }],
        }),
      );
    });
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([[]]);
  });
});

// ---------------------------------------------------------------------------------------------

describe("a broken snapshot", () => {
  const MODEL_A = join(ROOT, "schemas-cache/example/model-a/latest.json");
  const config = { models: [{ id: "example/model-a", alias: "modelA" }] };

  function brokenProject(name: string, text: string): string {
    const dir = project(name, config, "");
    mkdirSync(join(dir, "snapshot/example/model-a"), { recursive: true });
    writeFileSync(join(dir, "snapshot/example/model-a/latest.json"), text);
    return dir;
  }

  it("a dangling $ref: exit 3, the file and the JSON Pointer, no stack trace, nothing written", async () => {
    const doc = JSON.parse(readFileSync(MODEL_A, "utf8")) as {
      components: { schemas: Record<string, { properties: Record<string, { items: { $ref: string } }> }> };
    };
    doc.components.schemas.KeyframesToVideoInput!.properties.keyframes!.items.$ref = "#/components/schemas/Nowhere";
    const dir = brokenProject("dangling", JSON.stringify(doc, null, 2));
    const run = await vsk(dir);
    expect(run.status).toBe(3);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(join(dir, "snapshot/example/model-a/latest.json"));
    expect(run.stderr).toContain("/components/schemas/KeyframesToVideoInput/properties/keyframes/items/$ref");
    expect(run.stderr).toContain("#/components/schemas/Nowhere");
    noStackTrace(run.stderr);
    expect(existsSync(join(dir, "out"))).toBe(false);
  });

  it("not JSON: exit 3, the file and the line, no stack trace, nothing written", async () => {
    const dir = brokenProject("not-json", readFileSync(MODEL_A, "utf8").slice(0, 700));
    const run = await inProcess(dir);
    expect(run.status).toBe(3);
    expect(run.stderr).toContain(join(dir, "snapshot/example/model-a/latest.json"));
    expect(run.stderr).toMatch(/not valid JSON \(line \d+, column \d+\)/);
    noStackTrace(run.stderr);
    expect(existsSync(join(dir, "out"))).toBe(false);
  });

  it("--check on a broken snapshot: exit 3 as well, not 'stale'", async () => {
    const dir = brokenProject("not-json-check", "<html>502 Bad Gateway</html>");
    const run = await inProcess(dir, "--check");
    expect(run.status).toBe(3);
    expect(run.stderr).toContain("latest.json");
    expect(run.stderr).not.toContain("stale");
    noStackTrace(run.stderr);
  });
});
