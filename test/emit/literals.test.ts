import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createAjv } from "../../src/rules/index.js";
import { emitValidator, literalRanges } from "../../src/emit/validator.js";
import { toJs, writeSupportJs } from "./to-js.js";

// The emitter reads Ajv's output (which support functions it calls, whether a `require` is left)
// and rewrites only item paths (test/emit/item-paths.test.ts). Text a schema puts into that output,
// as property names, enum values or descriptions, must come out untouched and must not be taken for
// code.
const dir = mkdtempSync(join(tmpdir(), "vsk-literals-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const tricky = [
  "ucs2length(data) > 3",
  "func0(data0) < 1",
  'require("ajv/dist/runtime/equal").default',
  "a/b/c",
  "/*",
  "'",
];

describe("Ajv's output keeps the schema's own text as it is", () => {
  it("a validator whose property names look like the rewritten code checks exactly those fields", () => {
    const schema = {
      type: "object",
      description: 'say "hi" */ /x/ `y` ${z}',
      properties: Object.fromEntries(tricky.map((name) => [name, { type: "string", maxLength: 3, minLength: 1 }])),
      required: tricky,
    };
    const js = toJs(
      emitValidator(createAjv({ ownProperties: false }), schema, [], "./support.mjs", "// test", "tricky"),
    );
    writeFileSync(join(dir, "tricky.mjs"), js);
    // the length checks are our own keywords (cheap UTF-16 length first)...
    expect(js).toMatch(/data\d*\.length > 3 && func\d+\(data\d*\) > 3/);
    writeSupportJs(dir, "// test");
    const good = Object.fromEntries(tricky.map((name) => [name, "abc"]));
    const bad = { ...good, [tricky[0]!]: "abcd", [tricky[2]!]: "" };
    const driver = `import { validate } from "./tricky.mjs";
      const out = [${JSON.stringify(good)}, ${JSON.stringify(bad)}, {}].map((p) => validate(p).map((d) => d.pointer + " " + d.rule));
      process.stdout.write(JSON.stringify(out));`;
    writeFileSync(join(dir, "driver.mjs"), driver);
    const [ok, wrong, empty] = JSON.parse(
      execFileSync(process.execPath, [join(dir, "driver.mjs")], { encoding: "utf8" }),
    ) as string[][];
    expect(ok).toEqual([]);
    expect(wrong).toEqual([
      "/ucs2length(data) > 3 schema/maxLength",
      '/require("ajv~1dist~1runtime~1equal").default schema/minLength',
    ]);
    expect(empty).toHaveLength(tricky.length);
  });

  it("finds strings, comments and regular expressions, and tells a regex from a division", () => {
    const code = 'const a = "x/y"; /* c */ const r = /[/"]+/g; const d = data0/0.5; f(\'q\')';
    const literals = literalRanges(code).map(([b, e]) => code.slice(b, e));
    expect(literals).toEqual(['"x/y"', "/* c */", '/[/"]+/g', "'q'"]);
  });
});
