/**
 * The classification table, row by row: each row of CHANGE_KINDS has a before/after pair under
 * test/fixtures/drift/rows/<direction>__<what>/ with the changes it must give (want.json,
 * written by hand): id, severity, field, both pointers, and the example payload where one exists.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CHANGE_KINDS, classifyModel, diffModels, type ChangeKindName } from "../../src/drift/index.js";
import { loadModelDocument, type ModelSchema } from "../../src/schema/index.js";

const ROWS = join(import.meta.dirname, "../fixtures/drift/rows");
// as `vsk drift` reads the source: an endpoint that is no longer queue-shaped is a change, not a load error
const load = (dir: string, side: string): ModelSchema =>
  loadModelDocument(
    JSON.parse(readFileSync(join(dir, `${side}.json`), "utf8")),
    { model: "fx/model", file: `${dir}/${side}.json` },
    { lenient: true },
  );

/**
 * What each row's pair gives read the other way round (after → before): narrowing one way is
 * widening the other, and a change that is both stays itself.
 */
const MIRROR: Record<ChangeKindName, ChangeKindName> = {
  "endpoint/removed": "endpoint/added",
  "endpoint/added": "endpoint/removed",
  "endpoint/method-changed": "endpoint/added",
  "endpoint/request-media-type-changed": "endpoint/added",
  "endpoint/response-status-changed": "endpoint/response-status-changed",
  "endpoint/response-media-type-changed": "endpoint/added",
  "request/enum-value-removed": "request/enum-value-added",
  "request/enum-value-added": "request/enum-value-removed",
  "request/enum-set": "request/enum-unset",
  "request/enum-unset": "request/enum-set",
  "request/upper-bound-lowered": "request/upper-bound-raised",
  "request/lower-bound-raised": "request/lower-bound-lowered",
  "request/bound-set": "request/bound-unset",
  "request/upper-bound-raised": "request/upper-bound-lowered",
  "request/lower-bound-lowered": "request/lower-bound-raised",
  "request/bound-unset": "request/bound-set",
  "request/constraint-set": "request/constraint-unset",
  "request/constraint-unset": "request/constraint-set",
  "request/schema-keyword-set": "request/schema-keyword-unset",
  "request/schema-keyword-unset": "request/schema-keyword-set",
  "request/condition-changed": "request/condition-changed",
  "request/multiple-of-narrowed": "request/multiple-of-widened",
  "request/multiple-of-changed": "request/multiple-of-changed",
  "request/multiple-of-widened": "request/multiple-of-narrowed",
  "request/additional-properties-narrowed": "request/additional-properties-widened",
  "request/additional-properties-widened": "request/additional-properties-narrowed",
  "request/property-became-required": "request/property-became-optional",
  "request/new-required-property": "request/property-removed",
  "request/property-became-optional": "request/property-became-required",
  "request/new-optional-property": "request/property-removed",
  "request/property-removed": "request/new-optional-property",
  "request/type-narrowed": "request/type-widened",
  "request/type-changed": "request/type-changed",
  "request/type-widened": "request/type-narrowed",
  "request/became-not-nullable": "request/became-nullable",
  "request/became-nullable": "request/became-not-nullable",
  "request/any-of-removed": "request/any-of-added",
  "request/any-of-added": "request/any-of-removed",
  // the copy removed: what it accepts is accepted again
  "request/one-of-duplicated": "request/any-of-added",
  // raising the bound back only widens: safe, and said as it is
  "request/any-of-narrowing-undecided": "request/upper-bound-raised",
  "request/default-added": "request/default-removed",
  "request/default-changed": "request/default-changed",
  "request/default-removed": "request/default-added",
  "request/docs-changed": "request/docs-changed",
  "request/keyword-changed": "request/keyword-changed",
  "request/unknown-keyword-changed": "request/unknown-keyword-changed",
  "request/too-deep": "request/too-deep",
  "response/required-property-removed": "response/required-property-added",
  "response/optional-property-removed": "response/optional-property-added",
  "response/property-became-optional": "response/property-became-required",
  "response/property-became-required": "response/property-became-optional",
  "response/required-property-added": "response/required-property-removed",
  "response/optional-property-added": "response/optional-property-removed",
  "response/became-nullable": "response/became-not-nullable",
  "response/became-not-nullable": "response/became-nullable",
  "response/type-changed": "response/type-changed",
  "response/type-narrowed": "response/type-changed",
  "response/enum-value-added": "response/enum-value-removed",
  "response/enum-value-removed": "response/enum-value-added",
  "response/enum-unset": "response/enum-set",
  "response/enum-set": "response/enum-unset",
  "response/bound-narrowed": "response/bound-widened",
  "response/bound-widened": "response/bound-narrowed",
  "response/constraint-set": "response/constraint-unset",
  "response/constraint-unset": "response/constraint-set",
  "response/schema-keyword-set": "response/schema-keyword-unset",
  "response/schema-keyword-unset": "response/schema-keyword-set",
  "response/type-shaping-keyword-unset": "response/type-narrowed",
  "response/required-property-became-write-only": "response/property-no-longer-write-only",
  "response/optional-property-became-write-only": "response/property-no-longer-write-only",
  "response/property-no-longer-write-only": "response/optional-property-became-write-only",
  "response/constraint-changed": "response/constraint-changed",
  "response/property-added-to-closed-object": "response/optional-property-removed",
  "request/content-changed": "request/content-changed",
  "response/content-changed": "response/content-changed",
  "response/write-only-property-changed": "response/write-only-property-changed",
  "response/condition-changed": "response/condition-changed",
  "response/multiple-of-narrowed": "response/multiple-of-widened",
  "response/multiple-of-changed": "response/multiple-of-changed",
  "response/multiple-of-widened": "response/multiple-of-narrowed",
  "response/additional-properties-narrowed": "response/additional-properties-widened",
  "response/additional-properties-widened": "response/additional-properties-narrowed",
  "response/any-of-added": "response/any-of-removed",
  "response/any-of-removed": "response/any-of-added",
  "response/one-of-duplicated": "response/any-of-added",
  // narrowing the bound back only narrows what is sent: safe, and said as it is
  "response/any-of-widening-undecided": "response/bound-narrowed",
  "response/docs-changed": "response/docs-changed",
  "response/keyword-changed": "response/keyword-changed",
  "response/unknown-keyword-changed": "response/unknown-keyword-changed",
  "response/too-deep": "response/too-deep",
};

describe("classification table", () => {
  it("the committed fixtures are what test/fixtures/drift/make-rows.mjs writes, byte for byte", () => {
    const out = mkdtempSync(join(tmpdir(), "vsk-rows-"));
    try {
      execFileSync(process.execPath, [join(ROWS, "../make-rows.mjs"), out], { stdio: "pipe" });
      const files = (dir: string) => readdirSync(dir, { recursive: true, encoding: "utf8" }).sort();
      expect(files(out)).toEqual(files(ROWS));
      for (const file of files(ROWS).filter((f) => f.endsWith(".json")))
        expect(readFileSync(join(out, file), "utf8"), file).toBe(readFileSync(join(ROWS, file), "utf8"));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it("has one fixture pair per row and no fixture without a row", () => {
    const dirs = readdirSync(ROWS).sort();
    expect(dirs).toEqual(CHANGE_KINDS.map((r) => r.kind.replace("/", "__")).sort());
  });

  it("has unique kinds, and ids that tell request from response", () => {
    expect(new Set(CHANGE_KINDS.map((r) => r.kind)).size).toBe(CHANGE_KINDS.length);
    for (const row of CHANGE_KINDS)
      if (row.direction !== "endpoint") expect(row.id).toMatch(row.direction === "request" ? /request/ : /^response-/);
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
    // read the other way round, the pair gives the mirror row (narrowing one way is widening the other)
    expect(new Set(diffModels(after, before).map((f) => f.kind))).toEqual(new Set([MIRROR[row.kind]]));
  });
});
