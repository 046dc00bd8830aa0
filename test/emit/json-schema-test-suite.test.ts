/**
 * The official JSON Schema Test Suite (draft 2020-12, vendored in test/fixtures/json-schema-test-suite) as
 * the external referee of the validator pipeline: every case goes normalize → simplify → Ajv
 * standalone → plain-ESM module, run by one plain `node` process. Plain Ajv (run-time compile,
 * same options, no simplify) runs beside it; every case it passes must pass through the
 * pipeline. Unsupported cases are listed, with a reason each, in suite/skip-list.json; the test
 * fails when a listed case starts passing or an unlisted one fails. The same groups' schemas go
 * through emitTypes, and the emitted types are type-checked with one `tsc --noEmit`.
 */
import { readFileSync, rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAjv, simplifySchema } from "../../src/emit/index.js";
import { ajvFormats } from "../../src/diagnostics/index.js";
import { fullFormats } from "ajv-formats/dist/formats.js";
import {
  groupKey,
  loadSuite,
  runPipeline,
  runPlainAjv,
  runTypes,
  type CaseOutcome,
  type SuiteGroup,
  type TypesOutcome,
} from "./suite/harness.js";

interface SkipEntry {
  file: string;
  group?: string;
  cases?: string[];
  reason: string;
}
interface SkipList {
  validation: SkipEntry[];
  types: Array<{ file: string; group: string; reason: string }>;
}

const skipList = JSON.parse(readFileSync(new URL("./suite/skip-list.json", import.meta.url), "utf8")) as SkipList;

function matches(entry: SkipEntry, c: { file: string; group: string; description: string }): boolean {
  return (
    entry.file === c.file &&
    (entry.group === undefined || entry.group === c.group) &&
    (entry.cases === undefined || entry.cases.includes(c.description))
  );
}

let groups: SuiteGroup[];
let ours: Map<string, CaseOutcome>;
let ajv: Map<string, CaseOutcome>;
let types: TypesOutcome;
let tempDir: string | undefined;

beforeAll(async () => {
  groups = loadSuite();
  ajv = runPlainAjv(groups).outcomes;
  const pipeline = runPipeline(groups);
  tempDir = pipeline.dir;
  ours = pipeline.outcomes;
  types = await runTypes(groups, pipeline.dir);

  const cases = groups.flatMap((g) => g.cases);
  const line = (optional: boolean) => {
    const part = cases.filter((c) => c.optional === optional);
    const count = (m: Map<string, CaseOutcome>) => part.filter((c) => m.get(c.key)?.pass).length;
    return `${optional ? "optional/format" : "required       "}: vsk pipeline ${count(ours)} / ${part.length}, plain Ajv ${count(ajv)} / ${part.length}`;
  };
  const vskBugs = skipList.types.filter((t) => t.reason.startsWith("vsk bug")).length;
  console.log(
    [
      "JSON Schema Test Suite, draft 2020-12 (cases passed)",
      `  ${line(false)}`,
      `  ${line(true)}`,
      `  types: ${types.compiled} of ${groups.length} groups emit types that compile with tsc --noEmit; ${types.crashed} crash json-schema-to-typescript (${types.crashed - vskBugs} its own limits, ${vskBugs} a vsk prepareForTypes bug), ${types.tscFailed} fail tsc`,
    ].join("\n"),
  );
}, 180_000);

afterAll(() => {
  if (tempDir !== undefined) rmSync(tempDir, { recursive: true, force: true });
});

describe("JSON Schema Test Suite, draft 2020-12, through the validator pipeline", () => {
  it("loads the suite: every required file and the format files", () => {
    const files = new Set(groups.map((g) => g.file));
    for (const f of [
      "ref.json",
      "anyOf.json",
      "unevaluatedProperties.json",
      "optional/format/uri.json",
      "optional/format/date-time.json",
    ])
      expect(files).toContain(f);
    expect(groups.flatMap((g) => g.cases).length).toBeGreaterThan(1400);
  });

  it("passes every case that plain Ajv (same options) passes: the rewrites cost no case", () => {
    const lost = groups.flatMap((g) => g.cases).filter((c) => ajv.get(c.key)?.pass && !ours.get(c.key)?.pass);
    expect(
      lost.map((c) => `${c.key}: ${ours.get(c.key)?.problem ?? `said ${String(ours.get(c.key)?.verdict)}`}`),
    ).toEqual([]);
  });

  it("passes every case that is not in the skip list", () => {
    const failing = groups
      .flatMap((g) => g.cases)
      .filter((c) => !ours.get(c.key)?.pass && !skipList.validation.some((e) => matches(e, c)))
      .map(
        (c) =>
          `${c.key}: ${ours.get(c.key)?.problem ?? `expected valid=${String(c.valid)}, the validator said ${String(ours.get(c.key)?.verdict)}`}`,
      );
    expect(failing).toEqual([]);
  });

  it("still fails every skipped case, and plain Ajv fails it too (else the entry is stale)", () => {
    const skipped = groups.flatMap((g) => g.cases).filter((c) => skipList.validation.some((e) => matches(e, c)));
    expect(
      skipped.filter((c) => ours.get(c.key)?.pass).map((c) => `now passes, remove from skip-list.json: ${c.key}`),
    ).toEqual([]);
    expect(
      skipped.filter((c) => ajv.get(c.key)?.pass).map((c) => `plain Ajv passes it, so the pipeline must too: ${c.key}`),
    ).toEqual([]);
  });

  it("has a reason for every skip entry, and every entry matches cases", () => {
    const cases = groups.flatMap((g) => g.cases);
    for (const e of skipList.validation) {
      expect(e.reason.length, JSON.stringify(e)).toBeGreaterThan(20);
      const hit = cases.filter((c) => matches(e, c));
      expect(hit.length, `skip entry matches nothing: ${JSON.stringify(e)}`).toBeGreaterThan(0);
      for (const name of e.cases ?? [])
        expect(
          hit.some((c) => c.description === name),
          `no case "${name}" in ${e.file} | ${e.group}`,
        ).toBe(true);
    }
    for (const e of skipList.types) {
      expect(e.reason.length, JSON.stringify(e)).toBeGreaterThan(20);
      expect(
        groups.some((g) => groupKey(g) === groupKey({ file: e.file, description: e.group })),
        `types skip entry matches no group: ${JSON.stringify(e)}`,
      ).toBe(true);
    }
  });

  it("simplify leaves a schema alone when a $ref points into an anyOf (dropping a branch would re-point it)", () => {
    const schema = {
      properties: {
        a: { anyOf: [{ type: "string", maxLength: 2 }, { type: "string" }, { type: "number" }, { type: "boolean" }] },
        b: { $ref: "#/properties/a/anyOf/2" },
      },
    };
    expect(simplifySchema(schema)).toBe(schema);
    expect(createAjv().validate(simplifySchema(schema), { b: true })).toBe(false);
    // without such a reference the branch is dropped as before
    const plain = { anyOf: [{ type: "string", format: "uri" }, { type: "string" }] };
    expect(simplifySchema(plain)).toEqual({ type: "string" });
  });

  it("support.js mirrors ajv-formats for every function-valued format it replaces", () => {
    const strings = [
      ...new Set(
        groups
          .flatMap((g) => g.cases)
          .map((c) => c.data)
          .filter((d): d is string => typeof d === "string"),
      ),
    ];
    strings.push("2024-02-29", "2023-02-29", "23:59:60Z", "2020-01-01T00:00:00", "12:00:00", "aGVsbG8=", "[", "a\\Z");
    // the uri fast path (plain http(s) URLs) must agree with ajv-formats' full check
    strings.push(
      "https://a.b/c%20d?x=%2F#f",
      "https://a.b/%2",
      "http://x",
      "HTTPS://X.IO/A",
      "https://a:b:c",
      "https://[::1]/x",
      "https://h:8080",
      "https://h:80x/",
      "https://a.b/c d",
      "https://a.b/?q=a?b#c#d",
      "http:/x",
      "https://",
    );
    const full = fullFormats as unknown as Record<string, unknown>;
    for (const [name, ours] of Object.entries(ajvFormats)) {
      const theirs = full[name];
      expect(typeof ours, name).toBe(typeof theirs);
      const call = (f: unknown, s: unknown) =>
        typeof f === "function"
          ? (f as (x: unknown) => boolean)(s)
          : (f as { validate: (x: unknown) => boolean }).validate(s);
      const inputs: unknown[] =
        typeof theirs === "object" && (theirs as { type?: string }).type === "number"
          ? [0, 1.5, 2 ** 31, -(2 ** 31), 2 ** 53]
          : strings;
      for (const s of inputs) expect(call(ours, s), `${name}(${JSON.stringify(s)})`).toBe(call(theirs, s));
    }
    // every function-valued ajv-formats format has a stand-in (uri too: support.js adds a fast path)
    const functionValued = Object.entries(full).filter(
      ([, f]) =>
        typeof f === "function" ||
        (typeof f === "object" &&
          f !== null &&
          !(f instanceof RegExp) &&
          typeof (f as { validate?: unknown }).validate === "function"),
    );
    expect(functionValued.map(([n]) => n).sort()).toEqual(Object.keys(ajvFormats).sort());
  });
});

describe("JSON Schema Test Suite, draft 2020-12, through emitTypes + tsc --noEmit", () => {
  it("emits types for every group not in the skip list, and they compile", () => {
    const unexpected = [...types.problems].filter(
      ([key]) => !skipList.types.some((e) => groupKey({ file: e.file, description: e.group }) === key),
    );
    expect(unexpected.map(([k, p]) => `${k}: ${p}`)).toEqual([]);
  });

  it("still fails every skipped group (else the entry is stale)", () => {
    const stale = skipList.types.filter((e) => !types.problems.has(groupKey({ file: e.file, description: e.group })));
    expect(stale.map((e) => `now emits and compiles, remove from skip-list.json: ${e.file} | ${e.group}`)).toEqual([]);
  });
});
