/**
 * Issue 41: `vsk udf`'s script gives exactly `vsk lint`'s verdicts. vsk_lint.js and the Snowflake
 * function body (called with its upper-case ENDPOINT and PAYLOAD) run in a fresh node:vm context
 * that holds only ECMAScript built-ins (no eval either), and every payload of the repository's
 * lint corpora (test/fixtures/lint) and of a generated mixed log gets the same findings as the
 * lint library gives in process (valid, severity, rule id, pointer relative to the body, message),
 * the body passed as a JSON value and as its JSON text. The mixed log is seeded and small here;
 * VSK_FUZZ_LONG=1 runs 50 times as many payloads (50,000).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import vm from "node:vm";
import { beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/index.js";
import type { Diagnostic } from "../../src/diagnostics/index.js";
import { howItDiffers, type EmitInput } from "../../src/emit/index.js";
import { rewriteCodeOnly } from "../../src/emit/validator.js";
import { Linter, openRegistry, type LintResult } from "../../src/lint/index.js";
import { parse } from "../../src/lint/decode.js";
import { readSnapshot } from "../../src/snapshot/index.js";
import { LIMITS, minify, snowflakeBody, udfFiles, UdfSizeError, type UdfFile } from "../../src/udf/index.js";

const ROOT = resolve(import.meta.dirname, "../..");
const LONG = process.env.VSK_FUZZ_LONG === "1";

interface Finding {
  severity: string;
  rule: string;
  pointer: string;
  message: string;
}
type Lint = (endpoint: unknown, payload: unknown) => Finding[];

let models: EmitInput[];
let bigquery: UdfFile[];
let snowflake: UdfFile[];
const file = (files: UdfFile[], path: string) => files.find((f) => f.path === path)!.content;

/** A context with ECMAScript's built-ins only: no Node globals, no web APIs, no code from strings. */
function freshContext(): vm.Context {
  return vm.createContext({}, { codeGeneration: { strings: false, wasm: false } });
}

/** vsk_lint.js as BigQuery loads a library: a classic script, then `vskLint` called per row. */
function loadScript(script: string): { lint: Lint; context: vm.Context } {
  const context = freshContext();
  vm.runInContext(script, context, { filename: "vsk_lint.js" });
  return { lint: context.vskLint as Lint, context };
}

/** The BigQuery functions as BigQuery runs them: the library, then each function's body per row. */
function loadBigquery(files: UdfFile[]): { json: Lint; text: Lint; context: vm.Context } {
  const { context } = loadScript(file(files, "vsk_lint.js"));
  const bodies = [...file(files, "vsk_lint.bigquery.sql").matchAll(/\nAS r"""\n([^]*?)"""/g)].map((m) => m[1]!);
  expect(bodies).toHaveLength(2);
  const [json, text] = bodies.map(
    (body) => vm.runInContext(`(function (endpoint, payload) {\n${body}\n})`, context) as Lint,
  );
  return { json: json!, text: text!, context };
}

/** The Snowflake body as Snowflake runs it: a function of ENDPOINT and PAYLOAD, called per row. */
function loadSnowflake(sql: string): { lint: Lint; context: vm.Context } {
  const context = freshContext();
  const fn = vm.runInContext(`(function (ENDPOINT, PAYLOAD) {\n${snowflakeBody(sql)}\n})`, context) as (
    e: unknown,
    p: unknown,
  ) => Finding[];
  return { lint: (endpoint, payload) => fn(endpoint, payload), context };
}

beforeAll(() => {
  const config = loadConfig(ROOT);
  models = readSnapshot(config.snapshotDir, config.models).map((m) => ({
    ref: m.ref,
    sourceLabel: `schemas-cache/${m.ref.id}/latest.json`,
    sha256: m.sha256,
    endpoints: m.schema.endpoints,
  }));
  bigquery = udfFiles(models, { target: "bigquery" });
  snowflake = udfFiles(models, { target: "snowflake" });
}, 60_000);

describe("the script (vsk_lint.js)", () => {
  it("is a classic script that names nothing of Node or the web, and defines vskLint alone", () => {
    const script = file(bigquery, "vsk_lint.js");
    const code: string[] = [];
    rewriteCodeOnly(script, (segment) => (code.push(segment), segment));
    const outside = code.join(" ");
    expect(outside).not.toMatch(/(^|[^.\w$])(import|export|require)\b/);
    for (const name of [
      "process",
      "Buffer",
      "globalThis.process",
      "setTimeout",
      "setInterval",
      "setImmediate",
      "queueMicrotask",
      "URL",
      "TextEncoder",
      "TextDecoder",
      "structuredClone",
      "console",
      "fetch",
      "__dirname",
      "module",
      "exports",
    ])
      expect(outside, name).not.toMatch(new RegExp(`(^|[^.\\w$])${name.replace(".", "\\.")}\\b`));
    const { context } = loadScript(script);
    const globals = vm.runInContext("Object.getOwnPropertyNames(globalThis)", context) as string[];
    const builtIns = vm.runInContext("Object.getOwnPropertyNames(globalThis)", freshContext()) as string[];
    expect(globals.filter((g) => !builtIns.includes(g))).toEqual(["vskLint"]);
    expect(builtIns).not.toContain("process");
  });

  it("is the same bytes every time, and what the Snowflake body runs", () => {
    expect(udfFiles(models, { target: "bigquery" })).toEqual(bigquery);
    const script = file(bigquery, "vsk_lint.js");
    const library = script.slice(script.indexOf("\nvar vskLint=") + "\nvar vskLint=".length, -2);
    const body = snowflakeBody(file(snowflake, "vsk_lint.snowflake.sql"));
    expect(body).toMatch(
      /^if\(typeof globalThis\.(vskLint_[0-9a-f]{12})!=="function"\)globalThis\.\1=\(function\(\)\{/,
    );
    expect(body).toMatch(/\nreturn globalThis\.vskLint_[0-9a-f]{12}\(ENDPOINT,PAYLOAD\);$/);
    expect(body).toContain(`=${library};\n`);
  });

  it("says an unknown endpoint and a string that is not JSON as one finding each, never by throwing", () => {
    const { lint } = loadScript(file(bigquery, "vsk_lint.js"));
    for (const endpoint of ["example/model-z/x", "modelA/text-to-video", "", null, 42, undefined])
      expect(lint(endpoint, {}).map((f) => [f.severity, f.rule, f.pointer])).toEqual([
        ["error", "lint/unknown-endpoint", ""],
      ]);
    const [unknown] = lint("example/model-z/x?X-Amz-Signature=SECRET", {});
    expect(unknown!.message).toContain("known: example/model-a/keyframes-to-video, example/model-a/text-to-video");
    expect(unknown!.message).not.toContain("SECRET");
    expect(lint("example/model-a/text-to-video", '{"prompt": ').map((f) => f.rule)).toEqual(["lint/invalid-json"]);
    // a logged body's top-level $schema was sent to the service: a field it does not know (as lint reads a log line)
    expect(lint("example/model-a/text-to-video", { $schema: "./x.schema.json", prompt: "ok" })).toEqual([
      expect.objectContaining({ severity: "warning", rule: "unknown-field", pointer: "/$schema" }),
    ]);
  });

  it("never returns a secret (issue S1): shaped values and fields named as secrets are withheld", () => {
    const { lint } = loadScript(file(bigquery, "vsk_lint.js"));
    const findings = lint("example/model-c/text-to-video", {
      prompt: "x",
      duration: "Key sk-live-QQQQ8888",
      resolution: "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln",
      api_key: "plainvalue-AAAA",
      headers: [{ authorization: "Basic dXNlcjpodW50ZXIy" }],
      ratio: "16:8",
    });
    const text = JSON.stringify(findings);
    for (const secret of ["QQQQ8888", "eyJzdWIiOiIxIn0", "plainvalue-AAAA", "dXNlcjpodW50ZXIy"])
      expect(text).not.toContain(secret);
    expect(text).toContain("(secret withheld)");
    expect(text).toContain('\\"16:8\\" is not one of'); // ordinary values are still shown
  });
});

/** The repository's lint corpora: every request file under test/fixtures/lint but the expected outputs and binaries. */
function corpusFiles(dir = join(ROOT, "test/fixtures/lint")): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return name === "expected" ? [] : corpusFiles(path);
      return /\.(json|ndjson|jsonl)$/.test(name) && !name.startsWith("binary.") ? [path] : [];
    });
}

interface Case {
  where: string;
  /** the payload's JSON text as lint reads it */
  text: string;
}

function corpusCases(): Case[] {
  return corpusFiles().flatMap((path) => {
    const text = readFileSync(path, "utf8").replace(/^\uFEFF/, "");
    const where = relative(ROOT, path);
    if (!/\.json$/.test(path))
      return text
        .split("\n")
        .map((line, i) => ({ where: `${where}:${i + 1}`, text: line.replace(/\r$/, "") }))
        .filter((c) => c.text.trim() !== "");
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return [];
    }
    // an array of envelopes is linted element by element (src/lint/lint.ts)
    if (Array.isArray(value) && value.some((v) => typeof v === "object" && v !== null && "input" in v))
      return value.map((v, i) => ({ where: `${where}/${i}`, text: JSON.stringify(v) }));
    return [{ where, text }];
  });
}

/** What lint says of one payload text, in process (the same Linter `vsk lint` runs), and the body it linted. */
async function lintOne(linter: Linter, results: LintResult[], c: Case) {
  const at = { source: c.where, line: 1 };
  const { value, problem, warnings } = parse(c.text, at, true);
  if (problem !== undefined) return undefined; // not JSON: lint's reader, before any endpoint
  results.length = 0;
  await linter.payload(at, value, undefined, warnings, c.text);
  const result = results[0]!;
  if (result.endpoint === null || result.model === null) return undefined; // which endpoint: not the UDF's question
  const envelope = typeof value === "object" && value !== null && !Array.isArray(value) && "input" in value;
  const prefix = envelope ? "/input" : "";
  // a bare request file's top-level $schema is its editor's, set aside by lint (src/lint/resolve.ts)
  let body = envelope ? (value as { input: unknown }).input : value;
  if (!envelope && typeof body === "object" && body !== null && "$schema" in body) {
    const { $schema: _editor, ...request } = body as Record<string, unknown>;
    body = request;
  }
  const findings = result.diagnostics.map((d: Diagnostic) => ({
    severity: d.severity,
    rule: d.rule,
    pointer: d.pointer.slice(prefix.length),
    message: d.message,
  }));
  return { key: `${result.model}/${result.endpoint}`, body, valid: result.valid, findings };
}

/** Runs both UDFs on every case, the body as a JSON value of the context's own realm and as JSON text. */
async function compare(cases: readonly Case[]): Promise<{ compared: number; invalid: number; rules: Set<string> }> {
  const registry = openRegistry(loadConfig(ROOT));
  const results: LintResult[] = [];
  const linter = new Linter(
    registry,
    { model: "example/model-a", endpoint: "keyframes-to-video" },
    { result: (r) => void results.push(r), end: () => undefined },
  );
  const bq = loadBigquery(bigquery);
  const script = loadScript(file(bigquery, "vsk_lint.js"));
  const sf = loadSnowflake(file(snowflake, "vsk_lint.snowflake.sql"));
  const parseIn = (context: vm.Context) => vm.runInContext("JSON.parse", context) as (t: string) => unknown;
  const rules = new Set<string>();
  let compared = 0;
  let invalid = 0;
  for (const c of cases) {
    const want = await lintOne(linter, results, c);
    if (want === undefined) continue;
    const text = JSON.stringify(want.body);
    const asValue = (context: vm.Context) => (typeof want.body === "string" ? text : parseIn(context)(text));
    const got = {
      // vskLint reads a string as JSON text (docs/udf.md): a body that is a string goes in as its text
      "vsk_lint.js, a JSON value": script.lint(want.key, asValue(script.context)),
      "vsk_lint.js, JSON text": script.lint(want.key, text),
      "BigQuery vsk_lint (JSON)": bq.json(want.key, parseIn(bq.context)(text)),
      "BigQuery vsk_lint_text (STRING)": bq.text(want.key, text),
      "Snowflake vsk_lint (VARIANT)": sf.lint(want.key, asValue(sf.context)),
    };
    for (const [how, findings] of Object.entries(got)) {
      expect(JSON.parse(JSON.stringify(findings)), `${c.where} (${how})`).toEqual(want.findings);
      expect(
        findings.every((f) => f.severity !== "error"),
        `${c.where} (${how}): valid`,
      ).toBe(want.valid);
    }
    for (const f of want.findings) rules.add(f.rule);
    compared++;
    if (!want.valid) invalid++;
  }
  return { compared, invalid, rules };
}

describe("the same verdicts as vsk lint", () => {
  it("on the repository's lint corpora (test/fixtures/lint)", async () => {
    const { compared, invalid, rules } = await compare(corpusCases());
    expect(compared).toBeGreaterThanOrEqual(20);
    expect(invalid).toBeGreaterThanOrEqual(8);
    expect(rules.size).toBeGreaterThanOrEqual(6);
  }, 60_000);

  it(`on a generated mixed log (${LONG ? "long run" : "seeded, a few seconds"})`, async () => {
    const cases = mixedLog(LONG ? 50_000 : 1_000, 41);
    const { compared, invalid, rules } = await compare(cases);
    expect(compared).toBe(cases.length);
    expect(invalid).toBeGreaterThan(compared / 4);
    expect(invalid).toBeLessThan(compared);
    // schema keywords, cross-field rules and warnings all came up
    expect([...rules].filter((r) => r.startsWith("schema/")).length).toBeGreaterThanOrEqual(5);
    expect([...rules].filter((r) => !r.startsWith("schema/")).length).toBeGreaterThanOrEqual(3);
  }, 600_000);

  it("the Snowflake body sets up once per JavaScript environment, then only calls", () => {
    const sql = file(snowflake, "vsk_lint.snowflake.sql");
    const global = /globalThis\.(vskLint_[0-9a-f]{12})/.exec(sql)![1]!;
    const sf = loadSnowflake(sql);
    expect(sf.context[global]).toBeUndefined();
    sf.lint("example/model-c/text-to-video", { prompt: "a" });
    const first = sf.context[global] as unknown;
    expect(typeof first).toBe("function");
    expect(sf.lint("example/model-c/text-to-video", { prompt: 5 }).map((f) => f.rule)).toEqual(["schema/type"]);
    expect(sf.context[global]).toBe(first);
    // another set of models is another script: another global, never the first one's library
    const other = udfFiles(models.slice(2), { target: "snowflake", name: "lint_c" })[0]!.content;
    expect(other).toContain("CREATE OR REPLACE FUNCTION lint_c(ENDPOINT VARCHAR, PAYLOAD VARIANT)");
    expect(/globalThis\.(vskLint_[0-9a-f]{12})/.exec(other)![1]).not.toBe(global);
  });
});

/** A small seeded PRNG (mulberry32): the same log on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Envelopes for every endpoint: a valid body of the corpora, then a few random edits (a field
 * removed, set to an odd value, an array item repeated, an unknown field added), some bodies no
 * object at all.
 */
function mixedLog(count: number, seed: number): Case[] {
  const next = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const bases: Array<{ model: string; endpoint: string; input: Record<string, unknown> }> = [
    {
      model: "modelA",
      endpoint: "keyframes-to-video",
      input: {
        prompt: "a cat walks across the room",
        keyframes: [
          { image_url: "https://cdn.example/frame-0.png", frame_index: 0 },
          { image_url: "https://cdn.example/frame-1.png", frame_index: 96 },
        ],
        duration: 5,
      },
    },
    { model: "modelA", endpoint: "text-to-video", input: { prompt: "a sunrise", aspect_ratio: "16:9", duration: 5 } },
    {
      model: "modelB",
      endpoint: "reference-to-video",
      input: { prompt: "image 1 dances", reference_images: ["https://cdn.example/a.png"], enable_thinking: true },
    },
    { model: "modelC", endpoint: "text-to-video", input: { prompt: "a red kite", ratio: "9:16", duration: 5 } },
  ];
  const odd: unknown[] = [
    null,
    true,
    -1,
    0,
    2.5,
    1e21,
    24,
    96,
    "",
    "9:16",
    "https://cdn.example/x.png?X-Amz-Signature=SECRET",
    "file:///etc/passwd",
    "x".repeat(3000),
    "一二三".repeat(400),
    [],
    [1, "a"],
    {},
    { image_url: "https://cdn.example/f.png", frame_index: 24 },
  ];
  const names = [
    "prompt",
    "duration",
    "seed",
    "file_url",
    "web_url",
    "enable_thinking",
    "durration",
    "__proto__",
    "$schema",
  ];
  const edit = (value: Record<string, unknown>): void => {
    const keys = Object.keys(value);
    const r = next();
    if (r < 0.2 && keys.length > 0) delete value[pick(keys)];
    else if (r < 0.5 && keys.length > 0) value[pick(keys)] = structuredClone(pick(odd));
    else if (r < 0.7)
      Object.defineProperty(value, pick(names), {
        value: pick(odd),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else {
      const lists = keys.filter((k) => Array.isArray(value[k]) && (value[k] as unknown[]).length > 0);
      if (lists.length > 0) {
        const list = value[pick(lists)] as unknown[];
        if (next() < 0.5) list.push(structuredClone(pick(list)));
        else {
          const item = pick(list);
          if (typeof item === "object" && item !== null && !Array.isArray(item)) edit(item as Record<string, unknown>);
        }
      }
    }
  };
  const cases: Case[] = [];
  for (let i = 0; i < count; i++) {
    const base = pick(bases);
    const input = structuredClone(base.input);
    const edits = Math.floor(next() * 4);
    for (let e = 0; e < edits; e++) edit(input);
    const body = next() < 0.04 ? pick(odd) : input;
    cases.push({
      where: `mixed log #${i}`,
      text: JSON.stringify({ model: base.model, endpoint: base.endpoint, input: body }),
    });
  }
  return cases;
}

describe("the warehouses' size limits", () => {
  it(`BigQuery: each function body within ${LIMITS.bigqueryBody} bytes, the library within ${LIMITS.bigqueryLibrary}`, () => {
    const sql = file(bigquery, "vsk_lint.bigquery.sql");
    const bodies = [...sql.matchAll(/\nAS r"""\n([^]*?)"""/g)].map((m) => Buffer.byteLength(m[1]!));
    expect(bodies).toHaveLength(2);
    for (const bytes of bodies) expect(bytes).toBeLessThanOrEqual(LIMITS.bigqueryBody);
    expect(sql).toContain("CREATE TEMP FUNCTION vsk_lint(endpoint STRING, payload JSON)");
    expect(sql).toContain("CREATE TEMP FUNCTION vsk_lint_text(endpoint STRING, payload STRING)");
    expect(sql).toMatch(/UNNEST\(vsk_lint\(r\.endpoint, r\.body\)\) AS f\nGROUP BY f\.rule/);
    expect(Buffer.byteLength(file(bigquery, "vsk_lint.js"))).toBeLessThanOrEqual(LIMITS.bigqueryLibrary);
  });

  it(`Snowflake: the function body, library inline, within ${LIMITS.snowflakeBody} bytes`, () => {
    const sql = file(snowflake, "vsk_lint.snowflake.sql");
    expect(sql).toContain(
      "CREATE OR REPLACE FUNCTION vsk_lint(ENDPOINT VARCHAR, PAYLOAD VARIANT)\nRETURNS ARRAY\nLANGUAGE JAVASCRIPT\nAS $$\n",
    );
    expect(Buffer.byteLength(snowflakeBody(sql))).toBeLessThanOrEqual(LIMITS.snowflakeBody);
    expect(sql).toContain("LATERAL FLATTEN(input => vsk_lint(r.endpoint, r.body))");
  });

  it("more models than Snowflake's body holds: refused with the size and what to do", () => {
    const many = [1, 2].flatMap((n) =>
      models.map((m) => ({
        ...m,
        ref: { ...m.ref, id: `${m.ref.id}${n}` },
        endpoints: m.endpoints.map((e) => ({ ...e, key: `${m.ref.id}${n}/${e.endpoint}` })),
      })),
    );
    let thrown: unknown;
    try {
      udfFiles(many, { target: "snowflake" });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UdfSizeError);
    expect((thrown as Error).message).toMatch(
      /^the Snowflake function body would be \d+ bytes, over the 100000 bytes .*--model/,
    );
  }, 30_000);
});

describe("Snowflake's $$-quoted body", () => {
  it("a schema whose text holds $$ is refused, not written into a body it would end", () => {
    const [model] = models.slice(2);
    const endpoint = model!.endpoints[0]!;
    const input = { ...endpoint.input, description: "costs $$ per second" };
    const odd = [{ ...model!, endpoints: [{ ...endpoint, input }] }];
    expect(() => udfFiles(odd, { target: "snowflake" })).toThrow(
      /^the validators' code holds `\$\$` \(in a schema's text\), which cannot go into Snowflake's \$\$-quoted function body$/,
    );
    // BigQuery's library is a file of its own: nothing to end there
    expect(file(udfFiles(odd, { target: "bigquery" }), "vsk_lint.js")).toContain("costs $$ per second");
  });
});

describe("minify", () => {
  it.each([
    ["a line break that ends a statement stays", "let a = 1\nlet b = a\n++b\nexport default 0"],
    ["return and its value on two lines", "function f() {\n  return\n  1\n}"],
    [
      "operators that would run together",
      "let a = 1, b = 2; let c = a - -b + +a - --b; let d = a / /x/g.source.length",
    ],
    ["a regular expression then a name", "let r = /a/\nlet s = r.test('a') ? /b/g : /c/i"],
    ["a number then a dot", "let n = 1 .toString() + 1.5.toFixed(1) + 0x10 .toString()"],
    ["templates", "let t = `a ${1 + 2} b ${`c ${'d'}`} e`"],
    ["comments, also ones holding a line break", "let a = 1 /* x\n */\nlet b = 2 // y\n/** z */ let c = a"],
    ["keywords and names", "if (typeof a === 'undefined' && a instanceof Object) for (const k in a) void k"],
  ])("%s", (_name, code) => {
    const plain = code.replace(/\nexport default 0$/, "");
    const small = minify(plain);
    expect(howItDiffers("x.js", plain, small)).not.toBe("content");
    expect(small.length).toBeLessThan(plain.length);
  });

  it("keeps what automatic semicolon insertion reads", () => {
    const run = (code: string) => vm.runInContext(`(function () { ${code} })()`, freshContext()) as unknown;
    const code = "let a = 1\nlet b = a\n++b\nreturn [a, b, function () {\n  return\n  1\n}()]";
    expect(run(minify(code))).toEqual(run(code));
    expect(run(minify(code))).toEqual([1, 2, undefined]);
  });
});
