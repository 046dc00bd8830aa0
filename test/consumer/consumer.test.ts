/**
 * The package as a consumer gets it: `npm pack`, the tarball unpacked into consumer projects
 * under a temp dir as a devDependency (its dependencies linked to this repository's installed
 * node_modules, so no registry is needed), then what a user runs: `vsk pull` from a mirror
 * directory under their own model ids and aliases (no `rules`), `vsk generate`, their own
 * `tsc` with strict flags in three module setups, `vsk lint`, and the compiled app under plain
 * `node` with the package removed: the spec's cross-field rules fire (spec 2.2, 4.4, 4.5), and
 * the generated queue client validates, submits and polls against the mock over HTTP.
 * The ESM project also proves, as its user sees them, issue 24's items 1 and 5–9 (line:col of
 * `.json` findings, the types a user had to cast, the mock's `fetch` as the client's, per-call
 * headers, tree-shaking), issue 27 (Standard Schema) and issue 30.10 (every entry's `.d.ts`
 * compiles with `lib: ["ES2022"]` and `types: []`): type tests compiled by its one `tsc` run, a
 * program run under plain node, its installed `vsk`, esbuild on its compiled modules.
 * Needs the build (`npm run build`), as `npm test` does first.
 */
import { execFile } from "node:child_process";
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMockService } from "../../src/mock/index.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const MIRROR = join(ROOT, "test/fixtures/pull/mirror/main/example");
const TSC = join(ROOT, "node_modules/typescript/bin/tsc");
const SLOW = { timeout: 300_000 };

interface Run {
  status: number;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], cwd: string): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1" };
  // node_modules/.bin/vsk runs by its shebang: this node first on the PATH
  env.PATH = `${dirname(process.execPath)}${delimiter}${env.PATH ?? ""}`;
  delete env.NODE_OPTIONS;
  delete env.VSK_SCHEMA_URL;
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env, encoding: "utf8", timeout: 240_000 }, (error, stdout, stderr) => {
      const status = error === null ? 0 : typeof error.code === "number" ? error.code : 1;
      resolve({ status, stdout, stderr });
    });
  });
}
const node = (args: string[], cwd: string) => run(process.execPath, args, cwd);
const vsk = (cwd: string, ...args: string[]) =>
  node([join(cwd, "node_modules/video-schema-kit/bin/vsk.mjs"), ...args], cwd);

/** The consumer's own models: the spec's three under other ids, two with aliases, none with `rules`. */
const MODELS = [
  { from: "model-a", id: "acme/video-a", alias: "alpha" },
  { from: "model-b", id: "acme/refs" },
  { from: "model-c", id: "studio/cee-1", alias: "Gamma" },
];

const STRICT = {
  strict: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  verbatimModuleSyntax: true,
  isolatedModules: true,
  skipLibCheck: false,
  // TypeScript's own lib files are TypeScript's: every other declaration file (the package's, the
  // generated ones) is still checked; checking lib.es2022 too cost ~2 s of CPU per tsc run (issue 42.4)
  skipDefaultLibCheck: true,
  noEmitOnError: true,
  target: "ES2022",
  lib: ["ES2022"],
  types: [],
  rootDir: "src",
  outDir: "out",
};

/** Builds the payloads the spec rejects; prints the rule ids each one gets (the app's run-time use). */
const APP_BODY = `
declare const console: { log(text: string): void };
const dupes = gen.validateAlphaKeyframesToVideo({
  prompt: "a boat",
  keyframes: [
    { image_url: "https://cdn.example.com/a.png", frame_index: 0 },
    { image_url: "https://cdn.example.com/b.png", frame_index: 0 },
  ],
});
const thinking = gen.validateRequest("acme/refs/reference-to-video", { file_url: "https://d.example/x.pdf?sig=SECRET" });
const duration = gen.validateGammaTextToVideo({ prompt: "a fox", duration: 2 });
let thrown = "";
try {
  gen.buildGammaTextToVideo({ prompt: "a fox", duration: 2 });
} catch (error) {
  if (error instanceof gen.RequestValidationError) thrown = error.diagnostics.map((d) => d.rule).join(",");
}
const ok = gen.buildAlphaKeyframesToVideo({ prompt: "p", keyframes: [{ image_url: "a", frame_index: 120 }] });

// the generated queue client, against the mock the test started (its URL in argv)
declare const process: { argv: string[] };
const client = queue.createClient({ baseUrl: process.argv[2] ?? "", credentials: "sk_consumer_0123456789", pollIntervalMs: 5 });
async function main(): Promise<void> {
  let invalid = "";
  try {
    await client.submit("studio/cee-1/text-to-video", { input: { prompt: "a fox", duration: 2 } });
  } catch (error) {
    if (error instanceof gen.RequestValidationError && error instanceof queue.RequestValidationError) invalid = error.diagnostics.map((d) => d.rule).join(",");
  }
  const output = await client.subscribe("studio/cee-1/text-to-video", { input: { prompt: "a fox" } });
  console.log(JSON.stringify({
    dupes: dupes.map((d) => d.rule),
    thinking: thinking.map((d) => d.message),
    duration: duration.map((d) => d.message),
    thrown,
    path: ok.path,
    client: { invalid, url: output.video.url },
  }));
}
void main();
`;

/**
 * Type tests, compiled by the project's one tsc run and never run (issue 24.5, 24.6, 27): what a
 * user writes with no cast. Each `@ts-expect-error` line must be an error, or tsc fails on the
 * unused directive.
 */
const CONTRACT_TYPES = `// Compiled, never run: the types a user reads (issue 24.5, 24.6, 27), no casts.
import { endpoints, type AlphaKeyframesToVideoInput, type Diagnostic, type Expected, type StandardSchemaV1 } from "./generated/index.mjs";
import * as gen from "./generated/index.mjs";
import { PredictionFailedError, type Client, type QueueStatus } from "./generated/client.mjs";
import { RequestValidationError as PackageRequestValidationError, type QueueStatus as PackageQueueStatus } from "video-schema-kit/client";
import { endpoints as packaged, type ModelCTextToVideoInput } from "video-schema-kit/models";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <A, B>(proof: Equal<A, B>): Equal<A, B> => proof;
/** the known literals of an open union: Known | (string & {}) */
type Known<T> = T extends string ? (string extends T ? never : T) : never;
type Five = "queued" | "running" | "succeeded" | "failed" | "cancelled";

// 24.5: requestId is typed
export const requestIdOf = (error: PredictionFailedError): string | undefined => error.requestId;

// 24.6: open unions, narrowing to known literals and still taking unknown strings
declare const diagnostic: Diagnostic;
export const rules: Known<Diagnostic["rule"]>[] = ["schema/maximum", "frame-index-unique", "duration-auto-or-range"];
// @ts-expect-error a rule id no version of vsk has
export const misspelt: Known<Diagnostic["rule"]> = "frame-index-uniqe";
export const tomorrows: Diagnostic["rule"] = "a-rule-of-a-later-vsk";
export const kinds: Known<Expected["kind"]>[] = ["maximum", "requiresFlag"];
// @ts-expect-error a schema keyword that does not exist
export const badKind: Known<Expected["kind"]> = "maximun";
export const laterKind: Expected["kind"] = "a-later-keyword";
export const isUnique: boolean = diagnostic.rule === "frame-index-unique" && diagnostic.expected?.kind === "uniqueItemField";
export const statuses = [
  same<Known<QueueStatus["status"]>, Five>(true),
  same<Known<PackageQueueStatus["status"]>, Five>(true),
  same<Known<Awaited<ReturnType<Client["getPrediction"]>>["status"]>, Five>(true),
];
export const unknownStatus: QueueStatus["status"] = "paused";
// @ts-expect-error spec 3 has no such status
export const badStatus: Known<QueueStatus["status"]> = "complete";

// 24.6: safeBuild…().request.path is the literal, the error's endpoint too
const built = gen.safeBuildAlphaKeyframesToVideo({ prompt: "p", keyframes: [{ image_url: "a", frame_index: 0 }] });
if (built.ok) {
  const path: "/v1/queue/acme/video-a/keyframes-to-video" = built.request.path;
  // @ts-expect-error another endpoint's path
  const other: "/v1/queue/acme/video-a/text-to-video" = built.request.path;
  void [path, other];
} else {
  const endpoint: "acme/video-a/keyframes-to-video" = built.error.endpoint;
  // @ts-expect-error another endpoint's key
  const other: "studio/cee-1/text-to-video" = built.error.endpoint;
  void [endpoint, other];
}
export const endpointOf = (error: PackageRequestValidationError): string => error.endpoint;

// 27: each registry entry is a Standard Schema v1 validator typed by the endpoint's Input
type Alpha = (typeof endpoints)["acme/video-a/keyframes-to-video"];
export const standard = [
  same<StandardSchemaV1.InferInput<Alpha>, AlphaKeyframesToVideoInput>(true),
  same<StandardSchemaV1.InferOutput<Alpha>, AlphaKeyframesToVideoInput>(true),
  same<StandardSchemaV1.InferInput<(typeof packaged)["example/model-c/text-to-video"]>, ModelCTextToVideoInput>(true),
];
// @ts-expect-error InferInput is not any: a wrong field type fails
export const wrong: StandardSchemaV1.InferInput<Alpha> = { prompt: 1, keyframes: [] };
`;

/**
 * Run under plain node (issue 24.7, 24.8, 27): the mock's in-process `fetch` as the generated
 * client's `fetch` option, a submit → status → result round trip, a per-call `Prefer` header
 * the mock fails the prediction by, and `~standard.validate` from the installed package and
 * from the project's own generated modules.
 */
const CONTRACT_RUN = `// Run under plain node: the mock's in-process fetch as the generated client's fetch (issue 24.7),
// per-call headers reaching the mock (24.8), Standard Schema validate from the package and from
// the consumer's own generated modules (27).
import { createMockService } from "video-schema-kit/mock";
import { endpoints as packaged } from "video-schema-kit/models";
import { endpoints } from "./generated/index.mjs";
import { createClient, PredictionFailedError } from "./generated/client.mjs";

declare const console: { log(text: string): void };
const mock = createMockService({ key: "sk_consumer_0123456789", queueMs: 0, runMs: 0 });
const client = createClient({ baseUrl: "http://mock.invalid", credentials: "sk_consumer_0123456789", fetch: mock.fetch, pollIntervalMs: 1 });

async function main(): Promise<void> {
  const key = "studio/cee-1/text-to-video";
  const { requestId } = await client.submit(key, { input: { prompt: "a fox" } });
  // queueMs and runMs 0: the mock's clock has finished it by the first status
  const status = await client.status(key, requestId);
  const output = await client.result(key, requestId);
  let failed: Record<string, unknown> = {};
  try {
    await client.subscribe(key, { input: { prompt: "a fox" }, headers: { Prefer: "reason=provider_timeout" } });
  } catch (error) {
    if (error instanceof PredictionFailedError)
      failed = { code: error.code, reason: error.reason, retryable: error.retryable, requestId: typeof error.requestId };
  }
  const dupes = {
    prompt: "p",
    keyframes: [
      { image_url: "a", frame_index: 3 },
      { image_url: "b", frame_index: 3 },
    ],
  };
  console.log(
    JSON.stringify({
      roundTrip: { status: status.status, video: typeof output.video.url },
      failed,
      requests: mock.requests.map((r) => r.method + " " + r.path + " " + r.status),
      standard: {
        own: endpoints["acme/video-a/keyframes-to-video"]["~standard"].validate(dupes),
        packaged: packaged["example/model-a/keyframes-to-video"]["~standard"].validate(dupes),
        valid: endpoints["studio/cee-1/text-to-video"]["~standard"].validate({ prompt: "a fox" }),
        vendor: endpoints["studio/cee-1/text-to-video"]["~standard"].vendor,
      },
    }),
  );
}
void main();
`;

/** Every entry point, for issue 30.10: their declarations compile with lib ES2022 and no types. */
const ENTRIES = `import * as root from "video-schema-kit";
import * as mock from "video-schema-kit/mock";
import * as client from "video-schema-kit/client";
import * as runtime from "video-schema-kit/runtime";
import * as models from "video-schema-kit/models";
export const entries = [root, mock, client, runtime, models];
`;

interface Fixture {
  name: string;
  type: "module" | "commonjs";
  module: Record<string, string>;
  app: string;
  appFile: string;
  /** the consumer's own formatting settings, which must not reach the generated files */
  styled: boolean;
  /** more files under src/, compiled by the same tsc run */
  extra?: Record<string, string>;
  /**
   * A project that differs from this one only in its tsconfig.json: vsk reads no tsconfig, so its
   * pull, generate and lint would repeat that project's byte for byte. It gets that project's
   * schemas-cache/ and src/generated/ copied and runs what a tsconfig changes: tsc and the app.
   */
  sameVskAs?: string;
}

const FIXTURES: Fixture[] = [
  {
    name: "esm-nodenext",
    type: "module",
    module: { module: "nodenext" },
    appFile: "app.ts",
    app: `import * as gen from "./generated/index.mjs";\nimport * as queue from "./generated/client.mjs";\n${APP_BODY}`,
    styled: true,
    extra: { "contract-types.ts": CONTRACT_TYPES, "contract-run.ts": CONTRACT_RUN, "entries.ts": ENTRIES },
  },
  {
    name: "cjs-nodenext",
    type: "commonjs",
    module: { module: "nodenext" },
    appFile: "app.ts",
    // a CommonJS module requires the generated ES modules (Node >= 20.19 loads them with require)
    app: `import gen = require("./generated/index.mjs");\nimport queue = require("./generated/client.mjs");\n${APP_BODY}`,
    styled: false,
  },
  {
    name: "bundler",
    type: "module",
    module: { module: "preserve", moduleResolution: "bundler" },
    appFile: "app.ts",
    app: `import * as gen from "./generated/index.mjs";\nimport * as queue from "./generated/client.mjs";\n${APP_BODY}`,
    styled: true,
    sameVskAs: "esm-nodenext",
  },
];

let work = "";
let tarball = "";
const projects = new Map<string, string>();
/** the files of each project's tsc program (`--listFiles`) */
const programs = new Map<string, string[]>();

/** A consumer project with the packed package unpacked as its devDependency. */
function consumer(name: string, pkg: Record<string, unknown>, linkDependencies: boolean): string {
  const dir = join(work, name);
  mkdirSync(join(dir, "node_modules"), { recursive: true });
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name, private: true, ...pkg, devDependencies: { "video-schema-kit": `file:${tarball}` } }),
  );
  cpSync(join(work, "unpacked/package"), join(dir, "node_modules/video-schema-kit"), { recursive: true });
  // the bin link npm makes
  mkdirSync(join(dir, "node_modules/.bin"));
  symlinkSync("../video-schema-kit/bin/vsk.mjs", join(dir, "node_modules/.bin/vsk"));
  chmodSync(join(dir, "node_modules/video-schema-kit/bin/vsk.mjs"), 0o755);
  if (linkDependencies) {
    const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    // the consumer's own typescript (their tsc) and the package's dependencies, as npm would install them
    for (const dep of [...Object.keys(manifest.dependencies), "typescript"]) {
      mkdirSync(join(dir, "node_modules", dep, ".."), { recursive: true });
      symlinkSync(join(ROOT, "node_modules", dep), join(dir, "node_modules", dep), "dir");
    }
  }
  return dir;
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "vsk-consumer-"));
  const packed = await run("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", work], ROOT);
  expect(packed.status, packed.stderr).toBe(0);
  tarball = join(work, packed.stdout.trim().split("\n").at(-1)!);
  mkdirSync(join(work, "unpacked"));
  const untar = await run("tar", ["-xzf", tarball, "-C", join(work, "unpacked")], work);
  expect(untar.status, untar.stderr).toBe(0);
  // the mirror of the consumer's schema URL: the spec's models under the consumer's ids
  for (const m of MODELS) {
    const text = readFileSync(join(MIRROR, m.from, "latest.json"), "utf8");
    mkdirSync(join(work, "mirror/main", m.id), { recursive: true });
    writeFileSync(join(work, "mirror/main", m.id, "latest.json"), text.split(`example/${m.from}`).join(m.id));
  }
}, SLOW.timeout);

afterAll(() => {
  if (work !== "") rmSync(work, { recursive: true, force: true });
});

describe("the packed tarball", () => {
  it("ships its build and runs no install script", () => {
    const pkg = JSON.parse(readFileSync(join(work, "unpacked/package/package.json"), "utf8")) as {
      scripts?: Record<string, string>;
      sideEffects?: unknown;
    };
    for (const hook of ["preinstall", "install", "postinstall", "prepare"])
      expect(pkg.scripts?.[hook], hook).toBe(undefined);
    expect(pkg.sideEffects).toBe(false);
    for (const file of [
      "dist/cli/vsk.js",
      "dist/cli/worker.js",
      "dist/embed/support.ts",
      "dist/generated/index.mjs",
      "bin/vsk.mjs",
    ])
      expect(existsSync(join(work, "unpacked/package", file)), file).toBe(true);
  });

  it("video-schema-kit/runtime and /models load with none of the package's dependencies installed", async () => {
    // no ts-morph, typescript, prettier, json-schema-to-typescript (or anything else) to load
    const dir = consumer("runtime-only", { type: "module" }, false);
    writeFileSync(
      join(dir, "main.mjs"),
      `import { readPrediction } from "video-schema-kit/runtime";
       import { validateModelCTextToVideo } from "video-schema-kit/models";
       if (validateModelCTextToVideo({ prompt: "p", duration: 2 })[0].rule !== "duration-auto-or-range") process.exit(3);
       process.stdout.write(JSON.stringify(readPrediction({ status: "failed", error: { code: "nope", message: "m", timestamp: "t" } }).error.code));`,
    );
    const ran = await node(["main.mjs"], dir);
    expect(ran.stderr).toBe("");
    expect(ran.stdout).toBe('"internal_server_error"');
  });
});

describe("the packed tarball's preflight (issue 37.1)", () => {
  it("parses in its parser process from the library and the bundled CLI: a crafted MP4 is a warning, not the end", async () => {
    const dir = consumer("preflight", { type: "module" }, true);
    const uri = (name: string) =>
      `data:video/mp4;base64,${readFileSync(join(ROOT, "test/fixtures/preflight/crafted", name)).toString("base64")}`;
    const input = { prompt: "a", reference_videos: [uri("stsz-count.mp4"), uri("tiny.mp4")] };
    writeFileSync(
      join(dir, "main.mjs"),
      `import { preflight } from "video-schema-kit";
       const ds = await preflight("example/model-b/reference-to-video", ${JSON.stringify(input)});
       process.stdout.write(JSON.stringify(ds.map((d) => [d.pointer, d.rule, d.message.includes("its stsz box declares 2147483648 samples")])));`,
    );
    writeFileSync(
      join(dir, "requests.ndjson"),
      [input, { prompt: "b" }]
        .map((i) => JSON.stringify({ model: "example/model-b", endpoint: "reference-to-video", input: i }))
        .join("\n") + "\n",
    );
    const [library, cli] = await Promise.all([
      node(["main.mjs"], dir),
      vsk(dir, "lint", "--preflight", "--format", "json", "requests.ndjson"),
    ]);
    expect(library.stderr).toBe("");
    expect(JSON.parse(library.stdout)).toEqual([["/reference_videos/0", "media-unreadable", true]]);
    expect(cli.stderr).not.toMatch(/Fatal|FATAL/);
    const report = JSON.parse(cli.stdout) as { results: Array<{ diagnostics: Array<{ rule: string }> }> };
    expect(report.results.map((r) => r.diagnostics.map((d) => d.rule))).toEqual([["media-unreadable"], []]);
  });
});

/** Sets a consumer project up and runs `vsk pull` and `vsk generate` in it; the three run side by side. */
async function setUp(
  fixture: Fixture,
  started: Map<string, Promise<{ dir: string; generated: Run }>>,
): Promise<{ dir: string; generated: Run }> {
  const dir = consumer(fixture.name, { type: fixture.type }, true);
  projects.set(fixture.name, dir);
  writeFileSync(
    join(dir, "vsk.config.json"),
    JSON.stringify({
      schemaUrl: relative(dir, join(work, "mirror")),
      models: MODELS.map(({ id, alias }) => (alias === undefined ? { id } : { id, alias })),
      outDir: "src/generated",
    }),
  );
  if (fixture.styled) {
    writeFileSync(
      join(dir, ".prettierrc"),
      JSON.stringify({ singleQuote: true, semi: false, printWidth: 60, tabWidth: 4 }),
    );
    writeFileSync(join(dir, ".editorconfig"), "root = true\n[*]\nindent_style = tab\nindent_size = 8\n");
  }
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { ...STRICT, ...fixture.module }, include: ["src"] }),
  );
  mkdirSync(join(dir, "src"), { recursive: true });
  writeFileSync(join(dir, "src", fixture.appFile), fixture.app);
  for (const [file, text] of Object.entries(fixture.extra ?? {})) writeFileSync(join(dir, "src", file), text);
  if (fixture.sameVskAs !== undefined) {
    const same = await started.get(fixture.sameVskAs)!; // listed before this fixture
    for (const sub of ["schemas-cache", "src/generated"])
      cpSync(join(same.dir, sub), join(dir, sub), { recursive: true });
    return { dir, generated: same.generated };
  }
  const pulled = await vsk(dir, "pull");
  expect(pulled.stderr).toBe("");
  expect(pulled.status).toBe(0);
  return { dir, generated: await vsk(dir, "generate") };
}
let setUps: Map<string, Promise<{ dir: string; generated: Run }>> | undefined;
function setUpAll(): Map<string, Promise<{ dir: string; generated: Run }>> {
  const started = new Map<string, Promise<{ dir: string; generated: Run }>>();
  for (const f of FIXTURES) started.set(f.name, setUp(f, started));
  return started;
}

describe.each(FIXTURES)("a consumer project: $name", (fixture) => {
  let dir = "";
  let generated: Run;
  beforeAll(async () => {
    setUps ??= setUpAll();
    ({ dir, generated } = await setUps.get(fixture.name)!);
  }, SLOW.timeout);

  // what vsk does: in the projects that run it (not in one that differs only in its tsconfig)
  const runsVsk = fixture.sameVskAs === undefined;
  if (runsVsk)
    it("pull records the mirror relative to the config file", () => {
      const manifest = JSON.parse(readFileSync(join(dir, "schemas-cache/manifest.json"), "utf8")) as {
        models: Record<string, { source: string }>;
      };
      expect(manifest.models["studio/cee-1"]!.source).toBe("../mirror/main/studio/cee-1/latest.json");
    });

  if (runsVsk)
    it("generate gives every endpoint its rules from its schema, with no rules setting", () => {
      expect(generated.stderr).toBe("");
      expect(generated.status).toBe(0);
      for (const line of [
        "  acme/video-a/keyframes-to-video: frame-index-unique, frame-index-within-duration",
        "  acme/video-a/text-to-video: no cross-field rules",
        "  acme/refs/reference-to-video: file-url-requires-thinking, web-url-requires-thinking",
        "  studio/cee-1/text-to-video: duration-auto-or-range, prompt-length-recommendation",
      ])
        expect(generated.stdout).toContain(`${line}\n`);
      // and the names to import, from the alias (issue 42.3): the app code below uses them
      expect(generated.stdout).toContain(
        "  acme/video-a/keyframes-to-video: buildAlphaKeyframesToVideo, safeBuildAlphaKeyframesToVideo, validateAlphaKeyframesToVideo, alphaKeyframesToVideoStandardSchema, alphaKeyframesToVideoJsonSchema, alphaKeyframesToVideoInputSchema, alphaKeyframesToVideoDefaults, alphaKeyframesToVideoPath; types AlphaKeyframesToVideoInput, AlphaKeyframesToVideoOutput\n",
      );
    });

  if (runsVsk)
    it("the generated code, its queue client included, imports nothing from the package", () => {
      const files = readdirSync(join(dir, "src/generated"), { recursive: true }).map(String);
      expect(files).toContain("client.mts");
      for (const file of files.filter((f) => f.endsWith(".mts"))) {
        const text = readFileSync(join(dir, "src/generated", file), "utf8");
        for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles)
          expect(fileName, file).toMatch(/^\.\.?\/[^:]*\.mjs$/);
      }
    });

  it(
    "the consumer's tsc compiles and emits it under strict flags, without allowJs, DOM or Node types",
    SLOW,
    async () => {
      const compiled = await node([TSC, "-p", ".", "--pretty", "false", "--listFiles"], dir);
      const program = compiled.stdout.split("\n").filter((line) => line.startsWith("/"));
      expect(
        compiled.stdout
          .split("\n")
          .filter((line) => line !== "" && !line.startsWith("/"))
          .join("\n"),
      ).toBe("");
      expect(compiled.stderr).toBe("");
      expect(compiled.status).toBe(0);
      expect(existsSync(join(dir, "out/generated/support.mjs"))).toBe(true);
      // lib: ["ES2022"], types: []: nothing in the program brings DOM or Node types in (issue 30.10)
      expect(program.filter((file) => /\/@types\/|\/lib\.dom\b/.test(file))).toEqual([]);
      expect(program.some((file) => file.endsWith("/lib.es2022.d.ts"))).toBe(true);
      programs.set(fixture.name, program);
    },
  );

  if (runsVsk)
    it("vsk lint finds the rules in the consumer's payloads (envelopes with aliases)", SLOW, async () => {
      const lines = [
        {
          model: "alpha",
          endpoint: "keyframes-to-video",
          input: {
            prompt: "p",
            keyframes: [
              { image_url: "a", frame_index: 3 },
              { image_url: "b", frame_index: 3 },
            ],
          },
        },
        { model: "acme/refs", endpoint: "reference-to-video", input: { web_url: "https://w.example" } },
        { model: "gamma", endpoint: "text-to-video", input: { prompt: "p", duration: 2 } },
        { model: "gamma", endpoint: "text-to-video", input: { prompt: "p", duration: -1 } },
      ];
      writeFileSync(join(dir, "requests.ndjson"), lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
      const linted = await vsk(dir, "lint", "requests.ndjson", "--format", "json");
      expect(linted.status).toBe(1);
      const report = JSON.parse(linted.stdout) as {
        results: Array<{ valid: boolean; diagnostics: Array<{ rule: string }> }>;
      };
      expect(report.results.map((r) => r.diagnostics.map((d) => d.rule))).toEqual([
        ["frame-index-unique", "frame-index-unique"],
        ["web-url-requires-thinking"],
        ["duration-auto-or-range"],
        [],
      ]);
    });

  if (runsVsk)
    it("without its JavaScript build, lint compiles the validators once and says so", SLOW, async () => {
      rmSync(join(dir, "node_modules/.cache"), { recursive: true, force: true });
      writeFileSync(join(dir, "c.json"), JSON.stringify({ prompt: "p", duration: 16 }));
      const first = await vsk(dir, "lint", "c.json", "--model", "gamma");
      expect(first.status).toBe(1);
      expect(first.stdout).toContain("duration: 16 is above the maximum 15");
      expect(first.stderr).toMatch(
        /^vsk: compiled 1 TypeScript validator of .*src\/generated for lint into .*node_modules\/\.cache\/video-schema-kit\/lint\/[0-9a-f]{16} \(once per change; `vsk generate` does it too\)\n$/,
      );
      const second = await vsk(dir, "lint", "c.json", "--model", "gamma");
      expect(second.stdout).toBe(first.stdout);
      expect(second.stderr).toBe("");
    });

  it("the compiled app, queue client included, runs under plain node after the package is removed", SLOW, async () => {
    expect(existsSync(join(dir, "out/app.js")), "compiled by the tsc test").toBe(true);
    // the mock serves the consumer's own models (their ids), read from their config and snapshot
    const mock = createMockService({ cwd: dir, key: "sk_consumer_0123456789", queueMs: 5, runMs: 5 });
    const { url } = await mock.listen();
    renameSync(join(dir, "node_modules"), join(dir, "node_modules.away"));
    const ran = await node(["out/app.js", url], dir).finally(() =>
      renameSync(join(dir, "node_modules.away"), join(dir, "node_modules")),
    );
    await mock.close();
    expect(ran.stderr).not.toMatch(/Error/);
    expect(ran.status).toBe(0);
    expect(JSON.parse(ran.stdout)).toEqual({
      dupes: ["frame-index-unique", "frame-index-unique"],
      thinking: ["file_url: requires enable_thinking: true, but enable_thinking is not set (default false) (spec 4.4)"],
      duration: ["duration: 2 is not allowed; expected -1 (automatic) or 4 to 15 (spec 4.5)"],
      thrown: "duration-auto-or-range",
      path: "/v1/queue/acme/video-a/keyframes-to-video",
      client: { invalid: "duration-auto-or-range", url: expect.stringContaining(url) },
    });
    // one submit: the invalid input never left the app
    expect(mock.requests.filter((r) => r.method === "POST")).toHaveLength(1);
  });
});

describe("whatever the consumer's prettier config and .editorconfig", () => {
  it("the generated files are byte-identical", () => {
    const styled = join(projects.get("esm-nodenext")!, "src/generated");
    const plain = join(projects.get("cjs-nodenext")!, "src/generated");
    const files = readdirSync(plain, { recursive: true })
      .map(String)
      .filter((f) => f.includes("."));
    expect(files.length).toBeGreaterThan(10);
    for (const file of files)
      expect(readFileSync(join(styled, file), "utf8"), file).toBe(readFileSync(join(plain, file), "utf8"));
    expect(readFileSync(join(styled, "index.mts"), "utf8")).toContain('from "./support.mjs";');
  });
});

describe("issue 24 (1, 5-9), 27 and 30.10 in the ESM project, as its user sees them", () => {
  let dir = "";
  let ran: Promise<Run> | undefined;
  /** src/contract-run.ts, compiled by the project's tsc test, run once under plain node */
  const contractRun = async (): Promise<Record<string, any>> => {
    expect(existsSync(join(dir, "out/contract-run.js")), "compiled by the tsc test").toBe(true);
    const { status, stdout, stderr } = await (ran ??= node(["out/contract-run.js"], dir));
    expect(stderr).toBe("");
    expect(status).toBe(0);
    return JSON.parse(stdout) as Record<string, any>;
  };
  beforeAll(async () => {
    setUps ??= setUpAll();
    ({ dir } = await setUps.get("esm-nodenext")!);
  }, SLOW.timeout);

  it("24.1: node_modules/.bin/vsk lint gives a pretty-printed .json file's findings their line:col", SLOW, async () => {
    mkdirSync(join(dir, "requests"), { recursive: true });
    writeFileSync(
      join(dir, "requests/dup.json"),
      JSON.stringify(
        {
          prompt: "p",
          keyframes: [
            { image_url: "a", frame_index: 3 },
            { image_url: "b", frame_index: 3 },
          ],
        },
        null,
        2,
      ),
    );
    // lines 6 and 10: "      \"frame_index\": 3" (JSON.stringify's layout), the value at column 22
    const bin = join(dir, "node_modules/.bin/vsk");
    const args = ["lint", "requests/dup.json", "--model", "alpha", "--endpoint", "keyframes-to-video"];
    const pretty = await run(bin, args, dir);
    // the lint cache (emptied by the test above) compiles this endpoint's validator on first use
    expect(pretty.stderr).toMatch(/^(vsk: compiled 1 TypeScript validator of .*\n)?$/);
    expect(pretty.status).toBe(1);
    expect(pretty.stdout).toContain(
      "  error   requests/dup.json:6:22  /keyframes/0/frame_index  keyframes[0].frame_index",
    );
    expect(pretty.stdout).toContain(
      "  error   requests/dup.json:10:22  /keyframes/1/frame_index  keyframes[1].frame_index",
    );
    const github = await run(bin, [...args, "--format", "github"], dir);
    expect(github.status).toBe(1);
    expect(
      github.stdout
        .split("\n")
        .filter((l) => l.startsWith("::error "))
        .map((l) => l.split("::")[1]),
    ).toEqual([
      "error file=requests/dup.json,line=6,col=22,title=vsk lint frame-index-unique",
      "error file=requests/dup.json,line=10,col=22,title=vsk lint frame-index-unique",
    ]);
  });

  it("24.5, 24.6, 27: the type tests compile under the project's strict tsconfig, every @ts-expect-error an error", () => {
    // noEmitOnError: the file is emitted only when the whole program compiled
    expect(existsSync(join(dir, "out/contract-types.js"))).toBe(true);
    expect(CONTRACT_TYPES.match(/@ts-expect-error/g)).toHaveLength(6);
  });

  it(
    "24.7, 24.8: the mock's fetch is the client's fetch option; round trip and per-call Prefer under plain node",
    SLOW,
    async () => {
      const out = await contractRun();
      expect(out.roundTrip).toEqual({ status: "succeeded", video: "string" });
      // the Prefer header of that one call reached the mock: the prediction failed as docs/mock.md says
      expect(out.failed).toEqual({
        code: "task_timeout",
        reason: "provider_timeout",
        retryable: true,
        requestId: "string",
      });
      expect((out.requests as string[]).map((r) => r.replace(/[0-9a-f-]{36}/, "<id>"))).toEqual([
        "POST /v1/queue/studio/cee-1/text-to-video 200",
        "GET /v1/queue/studio/cee-1/requests/<id>/status 200",
        "GET /v1/queue/studio/cee-1/requests/<id> 200",
        "POST /v1/queue/studio/cee-1/text-to-video 200",
        "GET /v1/queue/studio/cee-1/requests/<id>/status 200",
        "GET /v1/queue/studio/cee-1/requests/<id> 400",
      ]);
    },
  );

  it(
    '27: endpoints[key]["~standard"].validate, from the installed package and from the project\'s own modules',
    SLOW,
    async () => {
      const { standard } = await contractRun();
      const issues = [
        {
          message:
            "keyframes[0].frame_index: 3 is also used by keyframes[1]; each frame_index must be unique (spec 2.2)",
          path: ["keyframes", 0, "frame_index"],
        },
        {
          message:
            "keyframes[1].frame_index: 3 is also used by keyframes[0]; each frame_index must be unique (spec 2.2)",
          path: ["keyframes", 1, "frame_index"],
        },
      ];
      expect(standard).toEqual({
        own: { issues },
        packaged: { issues },
        valid: { value: { prompt: "a fox" } },
        vendor: "video-schema-kit",
      });
    },
  );

  it("24.9: esbuild bundles one endpoint's builder from the generated modules and no other endpoint", async () => {
    writeFileSync(
      join(dir, "out/one.mjs"),
      'import { buildAlphaTextToVideo } from "./generated/index.mjs";\nconsole.log(buildAlphaTextToVideo);\n',
    );
    const bundled = await build({
      entryPoints: [join(dir, "out/one.mjs")],
      bundle: true,
      format: "esm",
      write: false,
      metafile: true,
      logLevel: "silent",
    });
    const inputs = Object.entries(Object.values(bundled.metafile.outputs)[0]!.inputs)
      .filter(([, { bytesInOutput }]) => bytesInOutput > 0)
      .map(([file]) => file.slice(file.indexOf("out/") + "out/".length))
      .sort();
    expect(inputs).toEqual([
      "generated/acme/video-a/text-to-video.mjs",
      "generated/acme/video-a/text-to-video.validate.mjs",
      "generated/redact.mjs",
      "generated/support.mjs",
      "one.mjs",
    ]);
    const text = bundled.outputFiles[0]!.text;
    expect(text).toContain('"/v1/queue/acme/video-a/text-to-video"');
    for (const other of [
      "acme/video-a/keyframes-to-video",
      "acme/refs/reference-to-video",
      "studio/cee-1/text-to-video",
    ])
      expect(text).not.toContain(other);
  });

  it("30.10: every entry's declarations are in the lib ES2022, types [] program, with no DOM or Node types", () => {
    expect(existsSync(join(dir, "out/entries.js"))).toBe(true);
    const program = programs.get("esm-nodenext")!.map((f) => f.slice(f.indexOf("node_modules/")));
    for (const entry of [
      "node_modules/video-schema-kit/dist/src/index.d.ts",
      "node_modules/video-schema-kit/dist/src/mock/index.d.ts",
      "node_modules/video-schema-kit/dist/src/client/index.d.ts",
      "node_modules/video-schema-kit/dist/src/runtime/index.d.ts",
      "node_modules/video-schema-kit/dist/generated/index.d.mts",
    ])
      expect(program, entry).toContain(entry);
  });
});
