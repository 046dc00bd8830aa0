/**
 * `vsk.config.json` as users write it, read through the real CLI: every problem is one line
 * naming the file, line and column, the JSON Pointer, what was expected and what to do (exit 2);
 * a UTF-8 BOM is fine; a directory is said to be one. The reader and the shipped
 * `schemas/config.schema.json` (what editors check with; here Ajv, strict) agree on every case.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { DEFAULT_MODELS, MODEL_ID } from "../../src/config/index.js";
import { checkConfig, type ConfigSchema } from "../../src/config/check.js";
import { MIRROR, ROOT, tempDir, usageError, vsk, vskInProcess } from "../cli/run.js";

const schema = JSON.parse(readFileSync(join(ROOT, "schemas/config.schema.json"), "utf8")) as ConfigSchema;
const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);

/** [name, config text, the line after "vsk: <file>" (undefined: accepted), what the schema says] */
const cases: [string, string, string | undefined, boolean][] = [
  [
    "an unknown key, with the known one it resembles",
    '{\n  "shemaUrl": "https://schemas.example.com"\n}',
    ':2:15 at /shemaUrl: unknown key "shemaUrl"; did you mean "schemaUrl"? (the keys here: $schema, $comment, schemaUrl, models, snapshotDir, outDir, lang); correct or remove it',
    false,
  ],
  [
    "a lang that is neither ts nor js",
    '{ "lang": "javascript" }',
    ':1:11 at /lang: expected the language of the generated code, one of "ts", "js"; got "javascript"',
    false,
  ],
  ["lang js", '{ "lang": "js" }', undefined, true],
  [
    "an unknown key in a model entry",
    '{ "models": [{ "Id": "acme/video-a" }] }',
    ':1:22 at /models/0/Id: unknown key "Id"; did you mean "id"? (the keys here: $comment, id, alias, rules); correct or remove it',
    false,
  ],
  [
    "every problem in one run: the first at its line and column, the others at their pointers and lines",
    '{\n  "models": [{ "id": "acme" }],\n  "outDir": 5,\n  "lang": "rust"\n}',
    ':2:22 at /models/0/id: "acme" is not a model id, <owner>/<name>, e.g. "acme/video-a"; also at /outDir (line 3): expected the generated code directory, e.g. "generated" (a string); got 5; at /lang (line 4): expected the language of the generated code, one of "ts", "js"; got "rust"',
    false,
  ],
  [
    "an id that is not <owner>/<name>",
    '{ "models": [\n  { "id": "acme" }\n] }',
    ':2:11 at /models/0/id: "acme" is not a model id, <owner>/<name>, e.g. "acme/video-a"',
    false,
  ],
  [
    "a model entry without an id",
    '{ "models": [{ "alias": "a" }] }',
    ':1:14 at /models/0/id: missing; expected a model id, <owner>/<name>, e.g. "acme/video-a"',
    false,
  ],
  [
    "a model entry of the wrong type",
    '{ "models": [42] }',
    ':1:14 at /models/0: expected a model id, <owner>/<name>, e.g. "acme/video-a", or a model entry { "id", "alias"?, "rules"? }; got 42',
    false,
  ],
  [
    "an empty model list",
    '{ "models": [] }',
    ":1:13 at /models: expected the list of models with at least 1 entry; got an empty array",
    false,
  ],
  [
    "rules naming no spec model",
    '{ "models": [{ "id": "acme/a", "rules": "modelD" }] }',
    ':1:41 at /models/0/rules: "modelD" is not a spec model name: modelA, modelB or modelC (any case), e.g. "modelA"',
    false,
  ],
  ["rules in any case", '{ "models": [{ "id": "acme/a", "rules": "MODELB" }] }', undefined, true],
  [
    "an alias used twice (case-insensitive; beyond what a schema can say)",
    '{ "models": [{ "id": "acme/a", "alias": "va" }, { "id": "acme/b", "alias": "VA" }] }',
    ':1:76 at /models/1/alias: "VA" names /models/0 already; ids and aliases must be unique (case-insensitive): rename or remove one',
    true,
  ],
  [
    "a directory that is not a string",
    '{ "outDir": 5 }',
    ':1:13 at /outDir: expected the generated code directory, e.g. "generated" (a string); got 5',
    false,
  ],
  [
    "an empty directory",
    '{ "snapshotDir": "" }',
    ':1:18 at /snapshotDir: expected the snapshot directory, e.g. "schemas-cache"; got an empty string',
    false,
  ],
  ["not an object", "[1]", ":1:1 at /: expected vsk.config.json (an object); got an array", false],
  [
    "a control character in a key is shown escaped",
    '{ "a\\u001b[31m": 1 }',
    ':1:18 at "/a\\u001b[31m": unknown key "a\\u001b[31m" (the keys here: $schema, $comment, schemaUrl, models, snapshotDir, outDir, lang); correct or remove it',
    false,
  ],
  ["$schema and $comment", '{ "$schema": "./x.json", "$comment": "ours", "models": ["acme/a"] }', undefined, true],
];

describe("vsk.config.json problems, through the CLI", () => {
  it.each(cases)("%s", async (_name, text, message, schemaAccepts) => {
    const dir = tempDir("vsk-config-");
    writeFileSync(join(dir, "vsk.config.json"), text);
    expect(validate(JSON.parse(text)), "what the shipped schema says").toBe(schemaAccepts);
    if (message === undefined) {
      expect(checkConfig(JSON.parse(text), schema)).toEqual([]);
      return;
    }
    // lint reads the config first and fails before looking at any input; in this process (issue 42.4):
    // the message is under test, and the cases below spawn the CLI on a broken config
    expect(usageError(await vskInProcess(["lint", "p.json"], dir))).toBe(
      `vsk: ${join(dir, "vsk.config.json")}${message}`,
    );
  });

  it.each([
    [
      "a syntax error, at its line and column",
      '{\n  "models": ["acme/a",]\n}',
      ':2:23: not valid JSON: unexpected "]", expected a value',
    ],
    ["an empty file", "  \n", " is empty; expected a JSON object (`vsk init --force` writes a starter)"],
  ])("%s", (_name, text, message) => {
    const dir = tempDir("vsk-config-");
    writeFileSync(join(dir, "vsk.config.json"), text);
    expect(usageError(vsk(["generate", "--check"], dir))).toBe(`vsk: ${join(dir, "vsk.config.json")}${message}`);
  });

  it("a UTF-8 byte order mark is accepted", async () => {
    const dir = tempDir("vsk-config-");
    // the repository's own generated/ holds model C's validator; the alias is known from the config alone
    // (issue 42.4: lint in process, not a whole generate --check, reads the config the same way)
    writeFileSync(
      join(dir, "vsk.config.json"),
      `\uFEFF${JSON.stringify({ outDir: join(ROOT, "generated"), models: [{ id: "example/model-c", alias: "bomC" }] })}`,
    );
    writeFileSync(join(dir, "p.json"), JSON.stringify({ prompt: "a paper boat" }));
    const run = await vskInProcess(["lint", "p.json", "--model", "bomC"], dir);
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain("1 request: 1 valid, 0 invalid, 0 warnings");
    expect(run.code).toBe(0);
  });

  it("a directory given as config is said to be one, with the file it probably meant", () => {
    const dir = tempDir("vsk-config-");
    mkdirSync(join(dir, "empty"));
    mkdirSync(join(dir, "conf"));
    writeFileSync(join(dir, "conf/vsk.config.json"), "{}");
    expect(usageError(vsk(["lint", "p.json", "--config", "empty"], dir))).toBe(
      `vsk: config file ${join(dir, "empty")} is a directory; give the path of a config file (\`vsk init\` writes one)`,
    );
    expect(usageError(vsk(["generate", "--config", "conf"], dir))).toBe(
      `vsk: config file ${join(dir, "conf")} is a directory; did you mean --config conf/vsk.config.json?`,
    );
    expect(usageError(vsk(["lint", "p.json", "--config", "missing.json"], dir))).toBe(
      `vsk: config file ${join(dir, "missing.json")} does not exist; check the path, or write one with \`vsk init\``,
    );
    mkdirSync(join(dir, "vsk.config.json"));
    expect(usageError(vsk(["lint", "p.json"], dir))).toBe(
      `vsk: config file ${join(dir, "vsk.config.json")} is a directory; vsk reads its config from a file of that name: rename the directory, or pass --config FILE`,
    );
  });
});

describe("schemas/config.schema.json", () => {
  it("accepts the embedded default config and the README's example", () => {
    expect(validate({ models: DEFAULT_MODELS })).toBe(true);
    expect(validate({})).toBe(true);
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const example = /## The config file[\s\S]*?```json\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(example).toBeDefined();
    expect(validate(JSON.parse(example!)), JSON.stringify(validate.errors)).toBe(true);
    expect(checkConfig(JSON.parse(example!), schema)).toEqual([]);
  });

  it("says what the reader does: the id pattern and the directory defaults", () => {
    const defs = schema.$defs as Record<string, { pattern: string }>;
    // the one id pattern: the schema's, and the reader's (also used by fetch)
    expect(new RegExp(defs.modelId!.pattern).source).toBe(MODEL_ID.source);
    const properties = schema.properties as Record<string, { default?: string; description: string }>;
    expect([properties.snapshotDir!.default, properties.outDir!.default]).toEqual(["schemas-cache", "generated"]);
    for (const [key, property] of Object.entries(properties))
      expect(property.description.length, `${key} has a description`).toBeGreaterThan(10);
  });

  it("the reader refuses a schema keyword it does not implement, rather than skip it", () => {
    expect(() => checkConfig({}, { type: "object", maxProperties: 1 })).toThrow(/maxProperties/);
  });
});

describe("finding the config (issue 30.1)", () => {
  const NOTICE =
    /^vsk: no vsk\.config\.json \(nor a "vsk" key in package\.json\) in .*: using the built-in example models/m;

  /** A project with one model (not the examples), run from a directory two levels below it. */
  function project(config: { file?: object; packageKey?: object }): { root: string; sub: string } {
    const root = tempDir("vsk-find-");
    writeFileSync(
      join(root, "package.json"),
      JSON.stringify({ name: "app", ...(config.packageKey ? { vsk: config.packageKey } : {}) }),
    );
    if (config.file) writeFileSync(join(root, "vsk.config.json"), JSON.stringify(config.file));
    const sub = join(root, "src", "deep");
    mkdirSync(sub, { recursive: true });
    return { root, sub };
  }
  const ONE_MODEL = { schemaUrl: MIRROR, models: [{ id: "example/model-b", alias: "b" }] };

  it.each([
    ["vsk.config.json", { file: ONE_MODEL }],
    ['a "vsk" key in package.json', { packageKey: ONE_MODEL }],
  ])("from a subdirectory, %s at the package root is found and used", (_name, config) => {
    const { root, sub } = project(config);
    const run = vsk(["pull"], sub);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
    expect(readdirSync(join(root, "schemas-cache", "example"))).toEqual(["model-b"]);
    expect(existsSync(join(sub, "schemas-cache"))).toBe(false);
  });

  it('a problem in package.json\'s "vsk" key names the file, line and column and the pointer under /vsk', () => {
    const { root, sub } = project({ packageKey: { models: [{ id: "acme" }] } });
    expect(usageError(vsk(["pull"], sub))).toBe(
      `vsk: pull: ${join(root, "package.json")}:1:38 at /vsk/models/0/id: "acme" is not a model id, <owner>/<name>, e.g. "acme/video-a"`,
    );
  });

  it("the search stops at the package root: a config above it is not read, and the example models are said on stderr", () => {
    const outer = tempDir("vsk-find-");
    writeFileSync(join(outer, "vsk.config.json"), JSON.stringify(ONE_MODEL));
    const inner = join(outer, "app");
    mkdirSync(inner);
    writeFileSync(join(inner, "package.json"), '{ "name": "app" }');
    const run = vsk(["pull", "--schema-url", MIRROR], inner);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(NOTICE);
    expect(run.stderr).toContain("write your own with `vsk init`");
    expect(readdirSync(join(inner, "schemas-cache", "example")).sort()).toEqual(["model-a", "model-b", "model-c"]);
  });

  it.each([
    ["generate --check", ["generate", "--check"], "generated"],
    ["drift", ["drift", "--schema-url", MIRROR], "schemas-cache"],
  ])(
    "%s in a directory with generated/ or schemas-cache/ but no config is an error naming the missing config",
    (name, args, present) => {
      const dir = tempDir("vsk-find-");
      mkdirSync(join(dir, present));
      const line = usageError(vsk(args, dir));
      expect(line).toContain(`no vsk.config.json (nor a "vsk" key in package.json) in ${dir}`);
      expect(line).toContain(`this directory has ${present}/: ${name} would use the built-in example models`);
      expect(line).toContain("`vsk init`");
    },
  );
});
