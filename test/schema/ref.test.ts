/**
 * src/schema/ref.ts (issue 28.4): the one resolver of local `$ref`s, which the loader, drift's
 * view, the mock, the rules' shape matching and the editor schemas share.
 */
import { describe, expect, it } from "vitest";
import { followRef, followRefs, refTokens, resolveRef, type JsonSchemaObject } from "../../src/schema/index.js";

const root: JsonSchemaObject = {
  type: "object",
  properties: { a: { $ref: "#/$defs/A" }, loop: { $ref: "#/$defs/Loop1" } },
  $defs: {
    A: { type: "string" },
    "x/y": { type: "integer" },
    "t~": { type: "number" },
    Alias: { $ref: "#/$defs/A" },
    Loop1: { $ref: "#/$defs/Loop2" },
    Loop2: { $ref: "#/$defs/Loop1" },
    Either: { anyOf: [{ type: "null" }, { type: "boolean" }] },
    Flag: true,
  },
};

describe("refTokens", () => {
  it.each([
    ["#", []],
    ["#/$defs/A", ["$defs", "A"]],
    ["#/$defs/x~1y", ["$defs", "x/y"]],
    ["#/$defs/t~0", ["$defs", "t~"]],
  ])("%s is %j", (ref, tokens) => expect(refTokens(ref)).toEqual(tokens));

  it.each(["other.json#/A", "#anchor", "", "https://example.com/s.json"])("%j is not local", (ref) =>
    expect(refTokens(ref)).toBeUndefined(),
  );
});

describe("resolveRef", () => {
  it.each([
    ["the root", "#", root],
    ["a definition", "#/$defs/A", { type: "string" }],
    ["an escaped slash", "#/$defs/x~1y", { type: "integer" }],
    ["an escaped tilde", "#/$defs/t~0", { type: "number" }],
    ["into an array", "#/$defs/Either/anyOf/1", { type: "boolean" }],
    ["a boolean schema", "#/$defs/Flag", true],
  ])("%s", (_, ref, want) => expect(resolveRef(root, ref)).toEqual(want));

  it.each([
    ["a missing definition", "#/$defs/Nope"],
    ["an inherited member", "#/$defs/constructor"],
    ["an external reference", "other.json#/$defs/A"],
    ["an anchor", "#A"],
  ])("%s resolves to nothing", (_, ref) => expect(resolveRef(root, ref)).toBeUndefined());
});

describe("followRef (one hop, to a schema object)", () => {
  it("gives a schema without $ref as it is", () => {
    const schema = { type: "string" };
    expect(followRef(root, schema)).toBe(schema);
  });
  it("follows one reference", () => expect(followRef(root, { $ref: "#/$defs/A" })).toEqual({ type: "string" }));
  it("follows only one: an alias gives the alias's own $ref", () =>
    expect(followRef(root, { $ref: "#/$defs/Alias" })).toEqual({ $ref: "#/$defs/A" }));
  it.each([
    ["a dangling reference", { $ref: "#/$defs/Nope" }],
    ["a boolean target", { $ref: "#/$defs/Flag" }],
    ["no object", "string"],
    ["an array", [{ type: "string" }]],
  ])("%s gives undefined", (_, schema) => expect(followRef(root, schema)).toBeUndefined());
});

describe("followRefs (a chain, bounded)", () => {
  it("follows a chain to the schema", () =>
    expect(followRefs(root, { $ref: "#/$defs/Alias" }, 32)).toEqual({ type: "string" }));
  it("ends a cycle after the hops allowed, on a reference of the cycle", () => {
    // Loop1 is {$ref: Loop2} and Loop2 is {$ref: Loop1}: an even number of hops ends on Loop2's object
    expect(followRefs(root, { $ref: "#/$defs/Loop1" }, 32)).toEqual({ $ref: "#/$defs/Loop1" });
    expect(followRefs(root, { $ref: "#/$defs/Loop1" }, 3)).toEqual({ $ref: "#/$defs/Loop2" });
  });
  it("gives undefined for a dangling reference", () =>
    expect(followRefs(root, { $ref: "#/$defs/Nope" }, 32)).toBeUndefined());
  it("gives a value without $ref as it is", () => expect(followRefs(root, 7, 32)).toBe(7));
});
