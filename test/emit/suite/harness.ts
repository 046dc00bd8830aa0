/**
 * Runs the official JSON Schema Test Suite (draft 2020-12) through the generator's pipeline:
 * normalize → simplify → Ajv standalone → plain-ESM module, executed by ONE plain `node` child
 * process (not vitest's module loader), and, for comparison, through plain Ajv compiled at run
 * time with the same options. Also emits each group's types and type-checks them with ONE
 * `tsc --noEmit`. Used by test/emit/json-schema-test-suite.test.ts.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { AnySchema } from "ajv";
import { createAjv, emitTypes, emitValidator, needsOwnProperties, simplifySchema } from "../../../src/emit/index.js";
import { toJs, writeSupportJs } from "../to-js.js";
import {
  normalizeNullable,
  transformSchema,
  type JsonSchema,
  type JsonSchemaObject,
} from "../../../src/schema/index.js";

export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));
/** The suite is vendored in the repository (see its README for the source commit and licence). */
export const SUITE_DIR = join(REPO_ROOT, "test", "fixtures", "json-schema-test-suite", "draft2020-12");

export interface SuiteCase {
  /** `<file> | <group description> | <case description>`; unique */
  key: string;
  file: string;
  group: string;
  description: string;
  optional: boolean;
  data: unknown;
  valid: boolean;
}

export interface SuiteGroup {
  index: number;
  file: string;
  description: string;
  optional: boolean;
  schema: JsonSchema;
  cases: SuiteCase[];
}

/** Every group of draft2020-12/*.json and optional/format/*.json, in a stable order. */
export function loadSuite(): SuiteGroup[] {
  if (!existsSync(SUITE_DIR))
    throw new Error(
      `JSON Schema Test Suite not found at ${SUITE_DIR} (it is vendored under test/fixtures/json-schema-test-suite)`,
    );
  const files = [
    ...readdirSync(SUITE_DIR)
      .filter((f) => f.endsWith(".json"))
      .sort(),
    ...readdirSync(join(SUITE_DIR, "optional", "format"))
      .filter((f) => f.endsWith(".json"))
      .sort()
      .map((f) => `optional/format/${f}`),
  ];
  const groups: SuiteGroup[] = [];
  const seen = new Set<string>();
  for (const file of files) {
    const optional = file.startsWith("optional/");
    const parsed = JSON.parse(readFileSync(join(SUITE_DIR, file), "utf8")) as Array<{
      description: string;
      schema: JsonSchema;
      tests: Array<{ description: string; data: unknown; valid: boolean }>;
    }>;
    for (const g of parsed) {
      const group: SuiteGroup = {
        index: groups.length,
        file,
        description: g.description,
        optional,
        schema: g.schema,
        cases: [],
      };
      for (const t of g.tests) {
        let key = `${file} | ${g.description} | ${t.description}`;
        for (let n = 2; seen.has(key); n++) key = `${file} | ${g.description} | ${t.description} #${n}`;
        seen.add(key);
        group.cases.push({
          key,
          file,
          group: g.description,
          description: t.description,
          optional,
          data: t.data,
          valid: t.valid,
        });
      }
      groups.push(group);
    }
  }
  return groups;
}

/** What the generator does to a plain 2020-12 schema before emitting (loader's normalization). */
export function normalize(schema: JsonSchema): JsonSchema {
  return transformSchema(schema, (node) => normalizeNullable(node, "openapi-3.1"));
}

/**
 * One Ajv per `ownProperties` setting, emptied before each group (`removeSchema()` drops every
 * schema but the meta-schemas): a fresh instance compiled the 2020-12 meta-schema again for each
 * group's schema check, ~30 ms a group, ~11 s of the file's 23 s in each of the two passes.
 */
const ajvs = new Map<boolean, ReturnType<typeof createAjv>>();

/** Ajv warns on unknown formats through its logger; keep the test output readable, count them. */
function quietAjv(warnings: string[], options: { ownProperties?: boolean } = {}) {
  const own = options.ownProperties ?? true;
  const ajv = ajvs.get(own) ?? createAjv(options);
  ajvs.set(own, ajv);
  ajv.removeSchema();
  (ajv as unknown as { logger: unknown }).logger = {
    log() {},
    warn: (...a: unknown[]) => warnings.push(a.map(String).join(" ")),
    error: (...a: unknown[]) => warnings.push(a.map(String).join(" ")),
  };
  return ajv;
}

/** Outcome of one case: did the validator agree with the suite, and if not, why. */
export interface CaseOutcome {
  pass: boolean;
  /** the validator's verdict, or undefined when it could not run (emit/compile/import failure) */
  verdict?: boolean;
  problem?: string;
}

/** Plain Ajv, compiled at run time in this process, no normalization or simplification. */
export function runPlainAjv(groups: readonly SuiteGroup[]): { outcomes: Map<string, CaseOutcome>; warnings: string[] } {
  const outcomes = new Map<string, CaseOutcome>();
  const warnings: string[] = [];
  for (const g of groups) {
    let validate: ((data: unknown) => boolean) | undefined;
    let problem: string | undefined;
    try {
      const ajv = quietAjv(warnings);
      validate = ajv.compile(g.schema as AnySchema);
    } catch (error) {
      problem = `Ajv cannot compile: ${error instanceof Error ? error.message : String(error)}`;
    }
    for (const c of g.cases) {
      if (!validate) {
        outcomes.set(c.key, { pass: false, problem });
        continue;
      }
      try {
        const verdict = validate(c.data);
        outcomes.set(c.key, { pass: verdict === c.valid, verdict });
      } catch (error) {
        outcomes.set(c.key, {
          pass: false,
          problem: `Ajv threw: ${error instanceof Error ? error.message : String(error)}`,
        });
      }
    }
  }
  return { outcomes, warnings };
}

const DRIVER = `// Generated by the JSON Schema Test Suite runner: imports every emitted validator with plain node.
import { readFileSync } from "node:fs";
const groups = JSON.parse(readFileSync(new URL("./cases.json", import.meta.url), "utf8"));
const out = {};
for (const g of groups) {
  let mod;
  try {
    mod = await import("./" + g.module);
  } catch (error) {
    out[g.index] = { importError: String(error && error.stack || error).split("\\n").slice(0, 3).join(" ") };
    continue;
  }
  out[g.index] = {
    verdicts: g.data.map((data) => {
      try {
        const diagnostics = mod.validate(data);
        return !diagnostics.some((d) => d.severity === "error");
      } catch (error) {
        return "threw: " + String(error && error.message || error);
      }
    }),
  };
}
process.stdout.write(JSON.stringify(out));
`;

/**
 * The generator's pipeline: normalize → simplify → emitValidator (one module per group, written
 * with the support files as generate writes them, in a temp dir), then one plain `node` process
 * imports them all and validates every case.
 */
export function runPipeline(groups: readonly SuiteGroup[]): {
  outcomes: Map<string, CaseOutcome>;
  dir: string;
  warnings: string[];
} {
  if (!existsSync(join(REPO_ROOT, "dist", "embed", "support.ts")))
    throw new Error("dist/embed/support.ts is missing: build the package first (npm run build)");
  const dir = mkdtempSync(join(tmpdir(), "vsk-jsts-"));
  // the support files exactly as `vsk generate` writes them (support.mts and the redact.mts it imports), compiled
  writeSupportJs(dir, "// JSON Schema Test Suite");
  const warnings: string[] = [];
  const emitProblems = new Map<number, string>();
  const driverInput: Array<{ index: number; module: string; data: unknown[] }> = [];
  for (const g of groups) {
    try {
      const simplified = simplifySchema(normalize(g.schema) as JsonSchemaObject);
      const js = toJs(
        emitValidator(
          quietAjv(warnings, { ownProperties: needsOwnProperties(simplified) }),
          simplified,
          [],
          "./support.mjs",
          "// JSON Schema Test Suite",
          `${g.file}: ${g.description}`,
        ),
      );
      const module = `g${g.index}.mjs`;
      writeFileSync(join(dir, module), js);
      driverInput.push({ index: g.index, module, data: g.cases.map((c) => c.data) });
    } catch (error) {
      emitProblems.set(g.index, `emit failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  writeFileSync(join(dir, "cases.json"), JSON.stringify(driverInput));
  writeFileSync(join(dir, "driver.mjs"), DRIVER);
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const stdout = execFileSync(process.execPath, [join(dir, "driver.mjs")], {
    cwd: dir,
    env,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const results = JSON.parse(stdout) as Record<string, { importError?: string; verdicts?: Array<boolean | string> }>;
  const outcomes = new Map<string, CaseOutcome>();
  for (const g of groups) {
    const r = results[g.index];
    g.cases.forEach((c, i) => {
      const emitProblem = emitProblems.get(g.index);
      if (emitProblem !== undefined) return outcomes.set(c.key, { pass: false, problem: emitProblem });
      if (!r || r.importError !== undefined)
        return outcomes.set(c.key, { pass: false, problem: `import failed: ${r?.importError ?? "no result"}` });
      const v = r.verdicts?.[i];
      if (typeof v !== "boolean") return outcomes.set(c.key, { pass: false, problem: String(v) });
      return outcomes.set(c.key, { pass: v === c.valid, verdict: v });
    });
  }
  return { outcomes, dir, warnings };
}

export interface TypesOutcome {
  /** group key `<file> | <group description>` → problem (crash of json-schema-to-typescript or tsc errors) */
  problems: Map<string, string>;
  emitted: number;
  compiled: number;
  crashed: number;
  tscFailed: number;
}

export function groupKey(g: { file: string; description: string }): string {
  return `${g.file} | ${g.description}`;
}

/**
 * Emits each group's types as the generator does (normalized schema, `emitTypes`), writes them
 * as one .ts module per group and type-checks them all with one `tsc --noEmit`.
 */
export async function runTypes(groups: readonly SuiteGroup[], dir: string): Promise<TypesOutcome> {
  const typesDir = join(dir, "types");
  mkdirSync(typesDir, { recursive: true });
  const problems = new Map<string, string>();
  const written = new Map<string, SuiteGroup>();
  let crashed = 0;
  const quiet = { log: console.log, warn: console.warn, error: console.error };
  console.warn = () => {};
  console.error = () => {};
  try {
    for (const g of groups) {
      try {
        const ts = await emitTypes(normalize(g.schema) as JsonSchemaObject, "SuiteSchema", "SuiteSchema");
        const file = `g${g.index}.ts`;
        writeFileSync(join(typesDir, file), `${ts}\nexport {};\n`);
        written.set(file, g);
      } catch (error) {
        crashed++;
        problems.set(
          groupKey(g),
          `json-schema-to-typescript crashed: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`,
        );
      }
    }
  } finally {
    console.warn = quiet.warn;
    console.error = quiet.error;
  }
  writeFileSync(
    join(typesDir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        lib: ["ES2022"],
        module: "NodeNext",
        moduleResolution: "NodeNext",
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: [],
        moduleDetection: "force",
      },
      include: ["*.ts"],
    }),
  );
  const tsc = join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc");
  const run = spawnSync(process.execPath, [tsc, "-p", join(typesDir, "tsconfig.json"), "--pretty", "false"], {
    cwd: typesDir,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const failedFiles = new Map<string, string[]>();
  for (const line of `${run.stdout}\n${run.stderr}`.split("\n")) {
    const m = /^(?:.*[\\/])?(g\d+\.ts)\(\d+,\d+\): error (TS\d+: .*)$/.exec(line.trim());
    if (m) failedFiles.set(m[1]!, [...(failedFiles.get(m[1]!) ?? []), m[2]!]);
    else if (/error TS/.test(line)) failedFiles.set("(tsc)", [...(failedFiles.get("(tsc)") ?? []), line.trim()]);
  }
  if (run.status !== 0 && failedFiles.size === 0)
    failedFiles.set("(tsc)", [`tsc exited with ${String(run.status)}: ${run.stdout}${run.stderr}`]);
  for (const [file, errors] of failedFiles) {
    const g = written.get(file);
    problems.set(g ? groupKey(g) : file, `tsc: ${errors.slice(0, 3).join("; ")}`);
  }
  const tscFailed = [...failedFiles.keys()].filter((f) => written.has(f)).length;
  return { problems, emitted: written.size, compiled: written.size - tscFailed, crashed, tscFailed };
}
