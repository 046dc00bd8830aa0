/**
 * Issue S1 (README: "No command prints an API key"): a secret in a payload never reaches any
 * output. Secrets by shape (an `Authorization` header's `Key …`, `Bearer …`, `Basic …`, key
 * prefixes, a JWT), the configured `VSK_API_KEY` by value, and any value of a field whose name
 * says secret (`api_key`, `token`, `authorization`, …), seeded in unknown fields, in wrong-typed
 * fields, in enum-violating fields and in nested arrays: no format of `vsk lint` (pretty, json,
 * sarif, github, markdown) shows their text, `received` is `<redacted>` and the JSON report still
 * matches its schema; ordinary values are still shown. One real spawn (bin/vsk.mjs, with
 * `VSK_API_KEY` set); the rest in process.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeValue, receivedOf, shownValue } from "../../src/diagnostics/index.js";
import { mayHoldSecret, namesSecret, redactSecrets, redactUrlsInText } from "../../src/runtime/redact.js";
import { vskInProcess } from "../cli/run.js";

const ROOT = resolve(import.meta.dirname, "../..");
const VSK = join(ROOT, "bin/vsk.mjs");
const validateReport = new Ajv2020({ allErrors: true, strict: true }).compile(
  JSON.parse(readFileSync(join(ROOT, "schemas/lint-report.schema.json"), "utf8")) as object,
);
const FORMATS = ["pretty", "json", "sarif", "github", "markdown"];

/** Secret-shaped values, each with the part that must never be printed. */
const SHAPED: ReadonlyArray<readonly [string, string]> = [
  ["Key sk-live-QQQQ8888", "QQQQ8888"],
  ["Key 0f3c9a1e-7b2d-4e5f:a9b8c7d6e5f4", "a9b8c7d6e5f4"],
  ["Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJl", "c2lnbmF0dXJl"],
  ["Basic dXNlcjpodW50ZXIy", "dXNlcjpodW50ZXIy"],
  ["sk-live-0123456789abcdef", "0123456789abcdef"],
  ["sk_live_51Hxyzxyzxyzxyz", "51Hxyzxyzxyzxyz"],
  ["pk_live_51Habcabcabcabc", "51Habcabcabcabc"],
  ["ghp_0123456789abcdefghijABCD", "0123456789abcdefghijABCD"],
  ["xoxb-1234567890-abcdefghij", "1234567890-abcdefghij"],
  ["AKIAIOSFODNN7EXAMPLE", "IOSFODNN7EXAMPLE"],
  ["eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI5OTkifQ.sig9sig9", "eyJzdWIiOiI5OTkifQ"],
];

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "vsk-lint-secrets-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const envelope = (input: string) => `{"model":"modelC","endpoint":"text-to-video","input":${input}}`;

/** Lines that place `value` where a payload can carry it: unknown, wrong-typed, enum-violating, nested. */
function linesFor(value: string): string[] {
  const v = JSON.stringify(value);
  return [
    envelope(`{"prompt":"x","notes":${v}}`), // an unknown field
    envelope(`{"prompt":"x","headers":[{"x":${v}}, [${v}]]}`), // nested arrays in an unknown field
    envelope(`{"prompt":"x","duration":${v}}`), // wrong type
    envelope(`{"prompt":"x","resolution":${v}}`), // not one of the enum
    envelope(`{"prompt":${JSON.stringify(`a cat, ${value}, on a sofa`)},"ratio":"16:8"}`), // inside a text
    envelope(`{"prompt":[${v}]}`), // an array where a string is wanted
  ];
}

/** Values of fields whose name says secret: shown by no format, whatever they look like. */
const NAMED = [
  envelope(`{"prompt":"x","api_key":"plainvalue-AAAA"}`),
  envelope(`{"prompt":"x","x-api-key":"plainvalue-BBBB"}`),
  envelope(`{"prompt":"x","token":"plainvalue-CCCC"}`),
  envelope(`{"prompt":"x","password":"plainvalue-DDDD"}`),
  envelope(`{"prompt":"x","credentials":{"user":"plainvalue-EEEE"}}`),
  envelope(`{"prompt":"x","authorization":["plainvalue-FFFF"]}`),
  envelope(`{"prompt":"x","api_keys":[["plainvalue-GGGG"]]}`),
];
const NAMED_SECRETS = ["AAAA", "BBBB", "CCCC", "DDDD", "EEEE", "FFFF", "GGGG"].map((s) => `plainvalue-${s}`);

async function lintAll(lines: string[]): Promise<Record<string, string>> {
  writeFileSync(join(dir, "log.ndjson"), lines.join("\n") + "\n");
  const out: Record<string, string> = {};
  let json = "";
  for (const format of FORMATS) {
    const run = await vskInProcess(["lint", "log.ndjson", "--format", format], dir, { GITHUB_STEP_SUMMARY: "" });
    expect(run.code, `${format}: ${run.stderr}`).toBe(1);
    expect(run.stderr).not.toMatch(/^\s+at /m);
    out[format] = run.stdout + run.stderr;
    if (format === "json") json = run.stdout;
  }
  return { ...out, report: json };
}

describe("vsk lint never prints a secret (issue S1)", () => {
  it("shows no secret-shaped value in any format, wherever it is placed", { timeout: 60_000 }, async () => {
    const lines = SHAPED.flatMap(([value]) => linesFor(value));
    const out = await lintAll(lines);
    for (const format of FORMATS)
      for (const [value, part] of SHAPED) {
        expect(out[format], `${format} shows ${value}`).not.toContain(part);
      }
    const report = JSON.parse(out.report!) as {
      results: { diagnostics: { message: string; received?: unknown }[] }[];
    };
    expect(validateReport(report) ? [] : validateReport.errors).toEqual([]);
    const findings = report.results.flatMap((r) => r.diagnostics);
    // the type and enum errors say that a secret was withheld; `received` is the marker
    expect(findings.filter((d) => d.message.includes("(secret withheld)")).length).toBeGreaterThanOrEqual(
      2 * SHAPED.length,
    );
    expect(findings.filter((d) => d.received === "<redacted>").length).toBeGreaterThanOrEqual(3 * SHAPED.length);
    // no over-redaction: the ordinary values of the same payloads are still shown
    expect(out.pretty).toContain('ratio: "16:8" is not one of');
    expect(out.pretty).toContain('did you mean "16:9"?');
  });

  it("shows no value of a field whose name says secret, in any format", { timeout: 60_000 }, async () => {
    const out = await lintAll([...NAMED, envelope(`{"prompt":"x","api_key":1234,"duration":"auto"}`)]);
    for (const format of FORMATS) for (const secret of NAMED_SECRETS) expect(out[format]).not.toContain(secret);
    const report = JSON.parse(out.report!) as { results: { diagnostics: { pointer: string; received?: unknown }[] }[] };
    expect(validateReport(report) ? [] : validateReport.errors).toEqual([]);
    const apiKey = report.results[0]!.diagnostics.find((d) => d.pointer === "/input/api_key");
    expect(apiKey?.received).toBe("<redacted>");
  });

  it("shows ordinary values as before (no over-redaction)", async () => {
    const out = await lintAll([
      envelope(`{"prompt":"sky is blue","ratio":"16:8","max_tokens":"Key Takeaways","duration":"Bearer of news"}`),
    ]);
    expect(out.pretty).toContain('ratio: "16:8" is not one of');
    expect(out.pretty).toContain('duration: expected integer, received string "Bearer of news"');
    const report = JSON.parse(out.report!) as { results: { diagnostics: { pointer: string; received?: unknown }[] }[] };
    const received = Object.fromEntries(report.results[0]!.diagnostics.map((d) => [d.pointer, d.received]));
    expect(received["/input/max_tokens"]).toBe("Key Takeaways");
    expect(received["/input/ratio"]).toBe("16:8");
    expect(out.pretty).not.toContain("withheld");
  });

  it("withholds the configured VSK_API_KEY by its value, whatever it looks like (the installed command)", () => {
    const key = "plainKeyWithoutShape";
    writeFileSync(join(dir, "key.ndjson"), envelope(`{"prompt":"x","notes":"${key}","duration":"${key}"}`) + "\n");
    const run = spawnSync(process.execPath, [VSK, "lint", "key.ndjson", "--format", "json"], {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, VSK_API_KEY: key },
    });
    expect(run.status).toBe(1);
    expect(run.stdout + run.stderr).not.toContain(key);
    expect(run.stdout).toContain("(secret withheld)");
  });
});

describe("the secret patterns (src/runtime/redact.ts)", () => {
  it.each(SHAPED)("redacts %s in free text, keeping the text around it", (value, part) => {
    const text = `HTTP 401: bad credentials: ${value}; try again`;
    expect(redactUrlsInText(text)).not.toContain(part);
    expect(redactUrlsInText(text)).toMatch(/^HTTP 401: bad credentials: .*<redacted>.*; try again$/);
    expect(mayHoldSecret(text)).toBe(true);
  });
  it.each([
    "sky is blue",
    "Key Takeaways from the talk",
    "Bearer of bad news",
    "the basic idea",
    "max_tokens=5000",
    "token: 5",
    'aspect_ratio: "17:9" is not one of "16:9"',
    "risk-management-plan",
  ])("leaves prose alone: %s", (text) => {
    expect(redactSecrets(text)).toBe(text);
    expect(mayHoldSecret(text)).toBe(false);
  });
  it("keeps the name before a value that a name says is secret", () => {
    expect(redactSecrets('{"api_key":"abc123xyz","password":"hunter2"}')).toBe(
      '{"api_key":"<redacted>","password":"<redacted>"}',
    );
    expect(redactSecrets("Authorization: Key abc123xyz")).toBe("Authorization: <redacted>");
    expect(redactSecrets('{"myApiKey":"abc123xyz","dbPassword":"hunter2","maxTokens":"1234567"}')).toBe(
      '{"myApiKey":"<redacted>","dbPassword":"<redacted>","maxTokens":"1234567"}',
    );
  });
  it.each([
    ["/input/api_key", true],
    ["/input/apiKey", true],
    ["/input/x-api-key", true],
    ["/input/access_token", true],
    ["/input/headers/0/authorization", true],
    ["/input/api_keys/0", true],
    ["/input/myApiKey", true],
    ["/input/openaiAPIKey", true],
    ["/input/dbPassword", true],
    ["/input/stripeSecretKey", true],
    ["/input/userSessionId", true],
    ["/input/maxTokens", false],
    ["/input/tokenCount", false],
    ["/input/authorName", false],
    ["/input/max_tokens", false],
    ["/input/token_count", false],
    ["/input/author", false],
    ["/input/keyframes/0/frame_index", false],
  ])("a field name that says secret: %s → %s", (pointer, expected) => {
    expect(namesSecret(pointer)).toBe(expected);
  });
  it("a withheld value keeps its type and length for the wording, never its text", () => {
    expect(describeValue(shownValue("/input/token", "abc"))).toBe('"<redacted>" (secret withheld)');
    expect(describeValue(shownValue("/input/token", 42))).toBe("<redacted> (secret withheld)");
    expect(receivedOf(shownValue("/input/token", 42))).toBe("<redacted>");
    expect(shownValue("/input/prompt", "abc")).toBe("abc");
  });
  it("the prefilter never lets through a text the redaction would change", () => {
    const piece = fc.constantFrom(
      ..."Key Bearer Basic sk- ghp_ eyJ . _ - : = \" ' 0 9 A Z a z / + ~ \t".split(" "),
      " ",
      "token",
      "api_key",
      "abc",
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 24 }), (pieces) => {
        const text = pieces.join("");
        if (!mayHoldSecret(text)) expect(redactSecrets(text)).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });
});
