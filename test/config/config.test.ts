/**
 * `vsk.config.json` as users write it, read through the real CLI: every problem is one line
 * naming the file, line and column, the JSON Pointer, what was expected and what to do (exit 2);
 * a UTF-8 BOM is fine; a directory is said to be one. The reader and the shipped
 * `schemas/config.schema.json` (what editors check with; here Ajv, strict) agree on every case.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { DEFAULT_MODELS, MODEL_ID } from "../../src/config/index.js";
import { checkConfig, type ConfigSchema } from "../../src/config/check.js";
import { ROOT, tempDir, usageError, vsk } from "../cli/run.js";

const schema = JSON.parse(readFileSync(join(ROOT, "schemas/config.schema.json"), "utf8")) as ConfigSchema;
const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);

/** [name, config text, the line after "vsk: <file>" (undefined: accepted), what the schema says] */
const cases: [string, string, string | undefined, boolean][] = [
  [
    "an unknown key, with the known one it resembles",
    '{\n  "shemaUrl": "https://schemas.example.com"\n}',
    ':2:15 at /shemaUrl: unknown key "shemaUrl"; did you mean "schemaUrl"? (the keys here: $schema, $comment, schemaUrl, models, snapshotDir, outDir); correct or remove it',
    false,
  ],
  [
    "an unknown key in a model entry",
    '{ "models": [{ "Id": "acme/video-a" }] }',
    ':1:22 at /models/0/Id: unknown key "Id"; did you mean "id"? (the keys here: $comment, id, alias, rules); correct or remove it',
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
    ':1:18 at "/a\\u001b[31m": unknown key "a\\u001b[31m" (the keys here: $schema, $comment, schemaUrl, models, snapshotDir, outDir); correct or remove it',
    false,
  ],
  ["$schema and $comment", '{ "$schema": "./x.json", "$comment": "ours", "models": ["acme/a"] }', undefined, true],
];

describe("vsk.config.json problems, through the CLI", () => {
  it.each(cases)("%s", (_name, text, message, schemaAccepts) => {
    const dir = tempDir("vsk-config-");
    writeFileSync(join(dir, "vsk.config.json"), text);
    expect(validate(JSON.parse(text)), "what the shipped schema says").toBe(schemaAccepts);
    if (message === undefined) {
      expect(checkConfig(JSON.parse(text), schema)).toBeUndefined();
      return;
    }
    // lint reads the config first and fails before looking at any input
    expect(usageError(vsk(["lint", "p.json"], dir))).toBe(`vsk: ${join(dir, "vsk.config.json")}${message}`);
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

  it("a UTF-8 byte order mark is accepted", () => {
    const dir = tempDir("vsk-config-");
    // the repository's own generated/ is current for the embedded models: --check reads it and writes nothing
    writeFileSync(join(dir, "vsk.config.json"), `\uFEFF${JSON.stringify({ outDir: join(ROOT, "generated") })}`);
    const run = vsk(["generate", "--check"], dir);
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(/is up to date \(\d+ files, 4 endpoints\)/);
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
    expect(checkConfig(JSON.parse(example!), schema)).toBeUndefined();
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
