/**
 * Issue 30.8: `vsk explain --format json` carries `$schema` and `schemaVersion` and is described by
 * schemas/explain.schema.json; every published schema has its `$id` on the one host, and a JSON
 * report's `$schema` is the `$id` of the file that describes it.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "../..");
const fixtures = join(root, "test/fixtures/runtime");
const schemaFile = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(root, "schemas", name), "utf8")) as Record<string, unknown>;

describe("vsk explain --format json: the published contract (issue 30.8)", () => {
  const schema = schemaFile("explain.schema.json");
  const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);
  const inputs = readdirSync(fixtures).filter((f) => f.endsWith(".json") && f !== "invalid.json");

  it("every fixture's output opens with $schema and schemaVersion and is valid against schemas/explain.schema.json", () => {
    expect(inputs.length).toBeGreaterThan(10);
    for (const input of inputs) {
      const run = spawnSync(
        process.execPath,
        [join(root, "bin/vsk.mjs"), "explain", join(fixtures, input), "--format", "json"],
        {
          cwd: root,
          encoding: "utf8",
        },
      );
      expect(run.status, `${input}: ${run.stderr}`).toBe(0);
      const output = JSON.parse(run.stdout) as Record<string, unknown>;
      expect(Object.keys(output).slice(0, 2)).toEqual(["$schema", "schemaVersion"]);
      expect(output.$schema).toBe(schema.$id);
      expect(validate(output), `${input}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  }, 180_000);

  it("every published schema has its $id on the one host, named after its file", () => {
    for (const file of readdirSync(join(root, "schemas")).filter((f) => f.endsWith(".schema.json")))
      expect(schemaFile(file).$id).toBe(`https://video-schema-kit.dev/schemas/${file}`);
  });
});
