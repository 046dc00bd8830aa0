// kinds.ts is the one list of rule kinds: every kind file's record is in it, once, and each
// record names the file it lives in (scripts/embed.mjs copies that file's runtime region).
import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { SCHEMA_MESSAGES } from "../../src/diagnostics/wording.js";
import { RULE_DEFINITIONS, RULE_KINDS, UNKNOWN_FIELD_RULE } from "../../src/rules/index.js";

const RULES = resolve(import.meta.dirname, "../../src/rules");

describe("the list of rule kinds", () => {
  it("holds every file that exports a RuleKind record, each once, under its own file name", () => {
    const files = readdirSync(RULES)
      .filter((f) => /^export const \w+: RuleKind</m.test(readFileSync(resolve(RULES, f), "utf8")))
      .map((f) => f.replace(/\.ts$/, ""))
      .sort();
    expect(RULE_KINDS.map((k) => k.file).sort()).toEqual(files);
    expect(new Set(RULE_KINDS.map((k) => k.kind)).size).toBe(RULE_KINDS.length);
  });

  it("gives each spec rule one id, and every definition the kind of its record", () => {
    const ids = RULE_DEFINITIONS.map((d) => d.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const k of RULE_KINDS) for (const d of k.definitions) expect(d.spec.kind).toBe(k.kind);
  });

  it("is the order the generated support module holds the kinds' checks in", () => {
    const support = readFileSync(resolve(import.meta.dirname, "../../generated/support.mts"), "utf8");
    const at = RULE_KINDS.map((k) => support.indexOf(`// vsk's src/rules/${k.file}.ts\n`));
    expect(at.every((i) => i > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(support.indexOf("// vsk's src/rules/check.ts\n")).toBeGreaterThan(at.at(-1)!);
  });
});

describe("the diagnostics' names for rules (Diagnostic.rule and expected.kind types)", () => {
  const source = readFileSync(resolve(import.meta.dirname, "../../src/diagnostics/diagnostic.ts"), "utf8");
  const union = (name: string) =>
    [...new RegExp(`export type ${name} =([^;]*);`).exec(source)![1]!.matchAll(/"([^"]+)"/g)].map((m) => m[1]);

  it("RuleId lists every rule id, the spec's and the derived warning's", () => {
    expect(union("RuleId").sort()).toEqual([...RULE_DEFINITIONS.map((d) => d.id), UNKNOWN_FIELD_RULE].sort());
  });

  it("SchemaKeyword lists the keywords that have a sentence", () => {
    expect(union("SchemaKeyword").sort()).toEqual(Object.keys(SCHEMA_MESSAGES).sort());
  });
});
