/**
 * The emitted validator gets Ajv's run-time helpers from the generated support module through
 * Ajv's own options (`code.formats`, a shared `ajv.scope` value, the length keywords of
 * src/rules/ajv-config.ts), never by rewriting Ajv's output (the one rewrite, of item paths, is
 * test/emit/item-paths.test.ts's); anything Ajv would still `require` stops
 * generation with the module's name.
 */
import { _ } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { createAjv } from "../../src/rules/index.js";
import type { JsonSchemaObject } from "../../src/schema/index.js";
import { EmitError, emitValidator } from "../../src/emit/validator.js";

const emit = (schema: JsonSchemaObject, ajv = createAjv({ ownProperties: false })) =>
  emitValidator(ajv, schema, [], "./support.mjs", "// test", "test/endpoint");

describe("emitted validators need nothing but the support module", () => {
  it("imports equal, ucs2length and ajvFormats by name, and no module", () => {
    const code = emit({
      type: "object",
      properties: {
        tags: { type: "array", uniqueItems: true, items: { enum: [{ a: 1 }, "b"] } },
        name: { type: "string", minLength: 1, maxLength: 10 },
        link: { type: "string", format: "uri" },
      },
    });
    expect(code).toMatch(/^import \{ ajvFormats, diagnose, equal, itemPath, ucs2length \} from "\.\/support\.mjs";$/m);
    expect(code).not.toMatch(/\brequire\s*\(/);
    expect(code).toMatch(/= ajvFormats\.uri;/);
  });

  it("imports only what the schema's keywords call", () => {
    const code = emit({ type: "object", properties: { n: { type: "integer", minimum: 0 } } });
    expect(code).toMatch(/^import \{ diagnose \} from "\.\/support\.mjs";$/m);
  });

  it("names the run-time module a newer Ajv or a keyword would still load", () => {
    const ajv = createAjv({ ownProperties: false });
    ajv.addKeyword({
      keyword: "x-padded",
      code(cxt) {
        const pad = cxt.gen.scopeValue("func", { ref: () => true, code: _`require("left-pad").default` });
        cxt.fail(_`!${pad}(${cxt.data})`);
      },
    });
    expect(() => emit({ type: "string", "x-padded": true }, ajv)).toThrow(EmitError);
    expect(() => emit({ type: "string", "x-padded": true }, ajv)).toThrow(
      /test\/endpoint: Ajv's output needs run-time module "left-pad"/,
    );
  });

  it("keeps Ajv's order of a string's errors (length before pattern and format)", () => {
    const ajv = createAjv({ ownProperties: false });
    const validate = ajv.compile({ type: "string", pattern: "^a", maxLength: 2, format: "uri" });
    expect(validate("bcd")).toBe(false);
    expect(validate.errors!.map((e) => e.keyword)).toEqual(["maxLength", "pattern", "format"]);
    // code points, as JSON Schema counts: two astral characters are two, not four
    expect(ajv.compile({ type: "string", maxLength: 2 })("\u{1F600}\u{1F600}")).toBe(true);
    expect(ajv.compile({ type: "string", minLength: 3 })("\u{1F600}\u{1F600}")).toBe(false);
  });
});
