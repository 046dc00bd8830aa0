/**
 * The one rewrite of Ajv's output (issue 40): an array item's error path, built afresh by Ajv for
 * every error, becomes a call to the support module's `itemPath`, which gives the same string
 * (one object per item at the top level). The pointers must be Ajv's own, and nothing a schema
 * writes into the output (names, enum values, descriptions) may be taken for the code rewritten.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { createAjv } from "../../src/rules/index.js";
import { emitValidator, shareItemPaths } from "../../src/emit/validator.js";
import { toJs, writeSupportJs } from "./to-js.js";

const dir = mkdtempSync(join(tmpdir(), "vsk-item-paths-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// a property name and an enum value that spell the rewritten code
const LOOKALIKE = 'instancePath+"/a/" + i0+"/b"';
const schema = {
  type: "object",
  properties: {
    grid: {
      type: "array",
      items: {
        type: "object",
        required: ["cells"],
        properties: { cells: { type: "array", items: { type: "integer", minimum: 0 } } },
      },
    },
    tags: { type: "array", items: { type: "string", enum: [LOOKALIKE, "b"] } },
    [LOOKALIKE]: { type: "array", items: { type: "boolean" } },
  },
};

describe("item paths shared across errors", () => {
  it("gives every error Ajv's own pointer: nested arrays, indexes past the cache, names that look like the code", async () => {
    const code = emitValidator(createAjv(), schema, [], "./support.mjs", "// test", "paths");
    expect(code).toMatch(/itemPath\(vskItemPaths\[\d+\], instancePath, "\/grid\/", i\d+, ""\)/);
    // the lookalike name and enum value are data: still in the output exactly as written
    expect(code).toContain(JSON.stringify(LOOKALIKE));
    writeFileSync(join(dir, "paths.mjs"), toJs(code));
    writeSupportJs(dir, "// test");
    const { validate } = (await import(pathToFileURL(join(dir, "paths.mjs")).href)) as {
      validate: (input: unknown, limit?: { max: number }) => Array<{ pointer: string; rule: string }>;
    };
    const ajv = createAjv().compile(schema);
    const many = Array.from({ length: 300 }, (_, i) => (i % 7 === 0 ? { cells: [1, -1] } : { cells: [] }));
    const payloads = [
      { grid: [{ cells: [1, -2, 3, -4] }, {}, { cells: [-1] }], tags: ["b", "c", LOOKALIKE, 5] },
      { grid: many, [LOOKALIKE]: [true, "no", 1] },
      { grid: [{ cells: Array.from({ length: 400 }, (_, i) => (i === 299 ? -1 : i)) }] },
    ];
    for (const payload of payloads)
      for (let round = 0; round < 2; round++) {
        // a second round reads the pointers the first one kept
        expect(ajv(payload)).toBe(false);
        const expected = ajv.errors!.map((e) =>
          e.keyword === "required" ? `${e.instancePath}/${String(e.params.missingProperty)}` : e.instancePath,
        );
        const got = validate(payload, { max: 10_000 }).map((d) => d.pointer);
        expect(got).toEqual(expected);
      }
  });

  it("rewrites only that shape, where an expression begins and ends, and never inside a literal", () => {
    const inside = `const s = "{instancePath:instancePath+\\"/a/\\" + i0}";`;
    expect(shareItemPaths(inside)).toEqual({ code: inside, sites: 0 });
    const leftAlone = [
      'f(x + instancePath+"/a/" + i0)', // a sum that began before it
      'f({instancePath:instancePath+"/a/" + i0.x})', // an index that is not the whole operand
      'f({instancePath:instancePath+"/a/" + i0 * 2})',
      "f({instancePath:instancePath+`/a/` + i0})", // not Ajv's double quotes
    ];
    for (const code of leftAlone) expect(shareItemPaths(code)).toEqual({ code, sites: 0 });
    expect(
      shareItemPaths('e({instancePath:instancePath+"/a/" + i0+"/b",k:1}, {instancePath:instancePath+"/c/" + i1})'),
    ).toEqual({
      code: 'e({instancePath:itemPath(vskItemPaths[0], instancePath, "/a/", i0, "/b"),k:1}, {instancePath:itemPath(vskItemPaths[1], instancePath, "/c/", i1, "")})',
      sites: 2,
    });
    // a longer sum keeps its rest: the value is the same string
    expect(shareItemPaths('f(instancePath+"/a/" + i0+"/b/" + i1)').code).toBe(
      'f(itemPath(vskItemPaths[0], instancePath, "/a/", i0, "/b/") + i1)',
    );
  });
});
