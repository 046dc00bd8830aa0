/**
 * The classification table, row by row: each row of CHANGE_KINDS has a before/after pair under
 * test/fixtures/drift/rows/<direction>__<what>/ with the changes it must give (want.json,
 * written by hand): id, severity, field, both pointers, and the example payload where one exists.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CHANGE_KINDS, classifyModel, diffModels } from "../../src/drift/index.js";
import { loadModelDocument, type ModelSchema } from "../../src/schema/index.js";

const ROWS = join(import.meta.dirname, "../fixtures/drift/rows");
const load = (dir: string, side: string): ModelSchema =>
  loadModelDocument(JSON.parse(readFileSync(join(dir, `${side}.json`), "utf8")), {
    model: "fx/model",
    file: `${dir}/${side}.json`,
  });

describe("classification table", () => {
  it("has one fixture pair per row and no fixture without a row", () => {
    const dirs = readdirSync(ROWS).sort();
    expect(dirs).toEqual(CHANGE_KINDS.map((r) => r.kind.replace("/", "__")).sort());
  });

  it("has unique kinds, and ids that tell request from response", () => {
    expect(new Set(CHANGE_KINDS.map((r) => r.kind)).size).toBe(CHANGE_KINDS.length);
    for (const row of CHANGE_KINDS)
      if (row.direction !== "endpoint") expect(row.id).toMatch(row.direction === "request" ? /request/ : /^response-/);
  });

  it("is documented row by row in docs/drift.md", () => {
    const docs = readFileSync(join(import.meta.dirname, "../../docs/drift.md"), "utf8");
    for (const row of CHANGE_KINDS)
      expect(docs).toContain(`| \`${row.kind}\` | \`${row.id}\` | ${row.direction} | ${row.severity} |`);
  });

  it.each(CHANGE_KINDS.map((row) => [row.kind, row] as const))("%s", (_kind, row) => {
    const dir = join(ROWS, row.kind.replace("/", "__"));
    expect(existsSync(dir)).toBe(true);
    const before = load(dir, "before");
    const after = load(dir, "after");
    const findings = diffModels(before, after);
    // the pair exercises this row and only this row
    expect(new Set(findings.map((f) => f.kind))).toEqual(new Set([row.kind]));
    const changes = classifyModel(findings, before, after);
    for (const c of changes) {
      expect(c.severity).toBe(row.severity);
      expect(c.direction).toBe(row.direction);
      expect(c.model).toBe("fx/model");
      expect(c.text.length).toBeGreaterThan(0);
      expect(c.text).not.toMatch(/\{\w+\}/); // every placeholder filled
    }
    const want = JSON.parse(readFileSync(join(dir, "want.json"), "utf8")) as unknown[];
    const got = changes.map(({ id, severity, direction, endpoint, pointer, field, example }) => ({
      id,
      severity,
      direction,
      endpoint,
      pointer,
      ...(field === undefined ? {} : { field }),
      ...(example === undefined ? {} : { example }),
    }));
    expect(got).toEqual(want);
    // a breaking row with an example strategy shows one in its fixture
    if (row.severity === "breaking" && "example" in row && row.example !== undefined) {
      expect(changes.every((c) => c.example !== undefined)).toBe(true);
    }
    // the reverse pair never gives this row's breaking verdict back (narrowing one way is widening the other)
    expect(diffModels(before, before)).toEqual([]);
  });
});
