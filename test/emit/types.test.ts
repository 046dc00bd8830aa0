/**
 * Type tests of the generated builders, and the builders run under plain `node`.
 *
 * - test/fixtures/emit/types/*.ts are compiled with `tsc --noEmit` together with generated/:
 *   a valid `build…` call per endpoint compiles, and each `// @ts-expect-error` marks a call the
 *   types must reject (wrong enum literal, missing `prompt`, `duration: "auto"` on
 *   keyframes-to-video). An unused `@ts-expect-error` fails the compile (TS2578).
 * - Each `@ts-expect-error -- TSxxxx fragment` also names the error it expects: the fixtures are
 *   compiled again with the directives removed, and that error must be on the next line, so a
 *   directive cannot pass by swallowing some other error.
 * - After the build, `dist/generated/index.js` runs under plain node: `endpoints[key].build`
 *   returns the queue request of spec 4.1 or throws RequestValidationError; `safeBuild…` returns
 *   a result.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const FIXTURES = join(ROOT, "test/fixtures/emit/types");
const TSC = join(ROOT, "node_modules/typescript/bin/tsc");
const GENERATED_IMPORT = "../../../../generated/";

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "vsk-types-"));
  temps.push(dir);
  return dir;
}

/** tsc in `cwd` (its diagnostics name files relative to it) */
function tsc(project: string, cwd: string): { status: number | null; out: string } {
  const r = spawnSync(process.execPath, [TSC, "-p", project, "--pretty", "false"], {
    cwd,
    encoding: "utf8",
    timeout: 60_000,
  });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

interface TsError {
  file: string;
  line: number;
  code: string;
  message: string;
}

function parseErrors(out: string): TsError[] {
  const errors: TsError[] = [];
  for (const line of out.split("\n")) {
    const m = /^(.+?)\((\d+),\d+\): error (TS\d+): (.*)$/.exec(line);
    if (m !== null) errors.push({ file: m[1]!, line: Number(m[2]), code: m[3]!, message: m[4]! });
    else if (/^\s/.test(line) && errors.length > 0) errors[errors.length - 1]!.message += `\n${line.trim()}`;
  }
  return errors;
}

const fixtureFiles = readdirSync(FIXTURES).filter((f) => f.endsWith(".ts"));

/** A directive that names the error it expects: `// @ts-expect-error -- TS2322 fragment`. */
const DIRECTIVE = /^\s*\/\/ @ts-expect-error -- (TS\d+) (.+)$/;

/**
 * The three copies of the fixtures the tests compile, each in a folder of one temp dir, importing
 * generated/ by absolute path: as they are; with the directives blanked (line numbers kept); and
 * with one unused directive added.
 */
const COPIES = {
  asIs: (text: string) => text,
  withoutDirectives: (text: string) =>
    text
      .split("\n")
      .map((line) => (DIRECTIVE.test(line) ? "" : line))
      .join("\n"),
  unusedDirective: (text: string) =>
    text.includes("const c = buildModelCTextToVideo(")
      ? text.replace("const c = buildModelCTextToVideo(", "// @ts-expect-error\nconst c = buildModelCTextToVideo(")
      : text,
};
type Copy = keyof typeof COPIES;

/**
 * One tsc run over the three copies and generated/ (issue 42.4): they are modules of one
 * program with the fixtures' own compiler options, so generated/ is checked once instead of
 * three times; each test reads the diagnostics of its own folder (and the clean copy, those
 * outside the other two: generated/ included).
 */
let compiled: { status: number | null; out: string; errors: TsError[] } | undefined;
function compileCopies(): NonNullable<typeof compiled> {
  if (compiled !== undefined) return compiled;
  const dir = tempDir();
  for (const [name, transform] of Object.entries(COPIES)) {
    mkdirSync(join(dir, name));
    for (const f of fixtureFiles) {
      const text = readFileSync(join(FIXTURES, f), "utf8")
        .split(GENERATED_IMPORT)
        .join(join(ROOT, "generated") + "/");
      writeFileSync(join(dir, name, f), transform(text));
    }
  }
  const config = JSON.parse(readFileSync(join(FIXTURES, "tsconfig.json"), "utf8")) as { include: string[] };
  config.include = [...Object.keys(COPIES).map((name) => `./${name}/*.ts`), join(ROOT, "generated/**/*.mts")];
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(config, null, 2));
  const { status, out } = tsc(join(dir, "tsconfig.json"), dir);
  return (compiled = { status, out, errors: parseErrors(out) });
}
/** The diagnostics in one copy's files (file names relative to that copy). */
const errorsIn = (copy: Copy): TsError[] =>
  compileCopies()
    .errors.filter((e) => e.file.startsWith(`${copy}/`))
    .map((e) => ({ ...e, file: e.file.slice(copy.length + 1) }));

describe("generated types (tsc on test/fixtures/emit/types)", () => {
  it("has the fixtures the issue asks for", () => {
    expect(fixtureFiles.sort()).toEqual([
      "keyframes-duration-auto.ts",
      "missing-prompt.ts",
      "narrow-types.ts",
      "valid-builds.ts",
      "wrong-enum.ts",
    ]);
  });

  it("compiles: valid calls type-check and every @ts-expect-error is used", () => {
    const { status, out, errors } = compileCopies();
    // the other two copies fail on purpose: nothing else may
    const others = errors.filter(
      (e) => !e.file.startsWith("withoutDirectives/") && !e.file.startsWith("unusedDirective/"),
    );
    expect(others).toEqual([]);
    // every line of tsc's output is a diagnostic of those two copies or continues one
    expect(out.split("\n").filter((l) => l !== "" && !/^(withoutDirectives|unusedDirective)\/|^\s/.test(l))).toEqual(
      [],
    );
    expect(status).not.toBe(0);
  });

  it("each directive stands on the error it names (compiled again without the directives)", () => {
    const perFile: Array<{ file: string; line: number; code: string; fragment: string }> = [];
    for (const f of fixtureFiles) {
      readFileSync(join(FIXTURES, f), "utf8")
        .split("\n")
        .forEach((line, i) => {
          const m = DIRECTIVE.exec(line);
          if (m !== null) perFile.push({ file: f, line: i + 2, code: m[1]!, fragment: m[2]! });
        });
    }
    expect(perFile.length).toBeGreaterThanOrEqual(10);
    const errors = errorsIn("withoutDirectives");
    expect(errors.length).toBeGreaterThan(0);
    for (const e of perFile) {
      const here = errors.filter((x) => x.file === e.file && x.line === e.line);
      expect(
        here.some((x) => x.code === e.code && x.message.includes(e.fragment)),
        `${e.file}:${e.line} expects ${e.code} mentioning ${e.fragment}; got ${JSON.stringify(here)}`,
      ).toBe(true);
    }
    // and no error anywhere else: valid-builds.ts is clean, every other error is expected
    const unexpected = errors.filter((x) => !perFile.some((e) => x.file === e.file && x.line === e.line));
    expect(unexpected).toEqual([]);
  });

  it("an unused @ts-expect-error fails the check (the check is not vacuous)", () => {
    expect(errorsIn("unusedDirective").map((e) => e.code)).toEqual(["TS2578"]);
  });
});

// ---------------------------------------------------------------------------------------------

const BUILT_INDEX = join(ROOT, "dist/generated/index.mjs");
const DRIVER = join(ROOT, "test/fixtures/emit/run-builders.mjs");

describe("builders under plain node (dist/generated/index.mjs, after the build)", () => {
  it("run and return the queue request, throw or report diagnostics", () => {
    expect(existsSync(BUILT_INDEX), `${BUILT_INDEX} is missing: run \`npm run build\` first`).toBe(true);
    const env = { ...process.env };
    delete env.NODE_OPTIONS;
    const r = spawnSync(process.execPath, [DRIVER, BUILT_INDEX], { encoding: "utf8", env, timeout: 20_000 });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, unknown>;

    expect(out.keys).toEqual([
      "example/model-a/keyframes-to-video",
      "example/model-a/text-to-video",
      "example/model-b/reference-to-video",
      "example/model-c/text-to-video",
    ]);
    expect(out.valid).toEqual({
      "example/model-a/keyframes-to-video": {
        method: "POST",
        path: "/v1/queue/example/model-a/keyframes-to-video",
        body: { prompt: "a cat", keyframes: [{ image_url: "https://cdn.example.com/a.png", frame_index: 120 }] },
      },
      "example/model-a/text-to-video": {
        method: "POST",
        path: "/v1/queue/example/model-a/text-to-video",
        body: { prompt: "a cat", duration: "auto" },
      },
      "example/model-b/reference-to-video": {
        method: "POST",
        path: "/v1/queue/example/model-b/reference-to-video",
        body: { duration: null },
      },
      "example/model-c/text-to-video": {
        method: "POST",
        path: "/v1/queue/example/model-c/text-to-video",
        body: { prompt: "a cat", duration: -1 },
      },
    });
    expect(out.sameBody).toBe(true);

    expect(out.thrown).toMatchObject({
      name: "RequestValidationError",
      isRequestValidationError: true,
      isError: true,
      code: "invalid_input",
      reason: "input_validation_failed",
      retryable: false,
      endpoint: "example/model-a/keyframes-to-video",
    });
    const thrown = out.thrown as {
      message: string;
      diagnostics: Array<{ pointer: string; rule: string; severity: string }>;
    };
    expect(thrown.diagnostics.map((d) => [d.pointer, d.rule, d.severity])).toEqual([
      ["/duration", "schema/type", "error"],
      ["/keyframes/0/frame_index", "frame-index-unique", "error"],
      ["/keyframes/1/frame_index", "frame-index-unique", "error"],
    ]);
    expect(thrown.message).toContain("example/model-a/keyframes-to-video");
    expect(thrown.message).toContain("3 invalid fields");
    // the error message (often logged) never carries a URL's query string
    expect(r.stdout.split("SECRETSIG").length - 1).toBe(0);

    expect(out.safeInvalid).toMatchObject({
      ok: false,
      isRequestValidationError: true,
      pointers: ["/seed", "/file_url"],
    });
    expect(out.safeWarning).toEqual({
      ok: true,
      request: {
        method: "POST",
        path: "/v1/queue/example/model-c/text-to-video",
        body: { prompt: "a cat", aspect_ratio: "16:9" },
      },
      warnings: [expect.objectContaining({ severity: "warning", pointer: "/aspect_ratio", rule: "unknown-field" })],
    });
    expect(out.buildWithWarningOnly).toEqual({
      method: "POST",
      path: "/v1/queue/example/model-c/text-to-video",
      body: { prompt: "a cat", aspect_ratio: "16:9" },
    });
    expect(out.validateRequest).toEqual([["/duration", "duration-auto-or-range"]]);
    expect(out.defaults).toEqual({
      "example/model-a/keyframes-to-video": {
        aspect_ratio: "auto",
        duration: 5,
        generate_audio: true,
        resolution: "720p",
      },
      "example/model-a/text-to-video": {
        aspect_ratio: "auto",
        duration: "auto",
        generate_audio: true,
        resolution: "720p",
      },
      "example/model-b/reference-to-video": {
        aspect_ratio: "adaptive",
        audio: true,
        duration: 5,
        enable_thinking: false,
        resolution: "1080p",
      },
      "example/model-c/text-to-video": { duration: 5, generate_audio: true, ratio: "adaptive", resolution: "720p" },
    });
  });
});
