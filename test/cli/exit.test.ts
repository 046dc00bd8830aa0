/**
 * The one table from what a stage throws to the exit code (src/cli/errors.ts): every row names a
 * real class, every error class a stage exports is either in it or said not to reach a command,
 * and a command's failure is one line with the row's code.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { CliError, ExitCode, STAGE_ERRORS, stageErrorOf, toCliError } from "../../src/cli/errors.js";
import { reportFailure } from "../../src/cli/main.js";
import { ROOT, vsk } from "./run.js";

/** Stages shipped to consumers: what they throw reaches the consumer's code, never a command. */
const CONSUMER_SIDE = new Set(["cli", "client", "runtime"]);

/** Error classes the other stages export that never reach a command's exit code, and why. */
const NOT_FOR_THE_CLI: Record<string, string> = {
  RequestValidationError: "thrown by generated builders in the consumer's code",
  SpecialFileError: "durable: each stage turns it into its own error (a SnapshotError, an EmitError…)",
  LockBusyError: "durable: each stage turns it into its own error",
  InputError: "lint: reported per payload in the lint report",
  PreferError: "mock: answered with an HTTP 400 by the mock",
  LintUsageError: "lint: src/cli/lint.ts words it as a usage error (exit 2), the Action as its own annotation",
  LintWorkerError: "lint --jobs: src/cli/lint.ts says it in one line (exit 2); the Action lints on one thread",
  DriftUsageError: "drift: src/cli/drift.ts words it as a usage error (exit 2), the Action as its own annotation",
  DriftStageError:
    "drift: carries a stage's error (config, accept file, snapshot), worded by the table through its cause",
};

type ErrorClass = abstract new (...args: never[]) => Error;

/** An instance without running the constructor (the classes' constructors take different arguments). */
function instance(Class: ErrorClass, message: string): Error {
  return Object.assign(Object.create(Class.prototype) as Error, { message });
}

async function exportedErrorClasses(): Promise<Map<string, ErrorClass>> {
  const classes = new Map<string, ErrorClass>();
  for (const stage of readdirSync(join(ROOT, "src"), { withFileTypes: true })) {
    if (!stage.isDirectory() || CONSUMER_SIDE.has(stage.name)) continue;
    const module = (await import(/* @vite-ignore */ join(ROOT, "src", stage.name, "index.ts"))) as Record<
      string,
      unknown
    >;
    for (const value of Object.values(module)) {
      if (typeof value === "function" && value.prototype instanceof Error) classes.set(value.name, value as ErrorClass);
    }
  }
  return classes;
}

describe("the exit-code table", () => {
  it("names only real classes, and each gives its row's code with the message kept", async () => {
    const classes = await exportedErrorClasses();
    for (const [name, row] of Object.entries(STAGE_ERRORS)) {
      const Class = classes.get(name);
      expect(Class, `${name} is not an error class any stage exports`).toBeDefined();
      const failure = toCliError(instance(Class!, "what went wrong"), (message) => `cmd: ${message}`);
      expect(failure).toBeInstanceOf(CliError);
      expect(failure).toMatchObject({ message: "cmd: what went wrong", exitCode: row.exitCode });
    }
  });

  it("every error class a stage exports is in the table or said not to reach a command", async () => {
    const unclassified = [...(await exportedErrorClasses()).keys()].filter(
      (name) => !(name in STAGE_ERRORS) && !(name in NOT_FOR_THE_CLI),
    );
    expect(unclassified).toEqual([]);
  });

  it.each([
    ["EmitConfigError", ExitCode.usage],
    ["EmitError", ExitCode.source],
    ["SchemaLoadError", ExitCode.source],
    ["FetchError", ExitCode.source],
    ["ConfigError", ExitCode.usage],
    ["RegistryError", ExitCode.usage],
  ] as const)("%s exits %i", async (name, code) => {
    const Class = (await exportedErrorClasses()).get(name)!;
    expect(stageErrorOf(instance(Class, "x"))?.exitCode).toBe(code);
  });

  it("a subclass the table does not list takes its nearest listed ancestor's code", async () => {
    const Emit = (await exportedErrorClasses()).get("EmitConfigError")!;
    const narrower = Object.create(
      Object.create(Emit.prototype, { constructor: { value: class Narrower {} } }),
    ) as Error;
    expect(stageErrorOf(narrower)).toMatchObject({ name: "EmitConfigError", exitCode: ExitCode.usage });
  });

  it("anything else is a bug: returned unchanged, so its stack trace is kept", () => {
    const bug = new TypeError("x is undefined");
    expect(toCliError(bug)).toBe(bug);
    expect(stageErrorOf("a string")).toBeUndefined();
  });

  it("a stage error no command caught is still one line with its code, not an internal error", async () => {
    const Snapshot = (await exportedErrorClasses()).get("SnapshotError")!;
    const written: string[] = [];
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => (written.push(String(chunk)), true));
    try {
      expect(reportFailure(instance(Snapshot, "schemas-cache/manifest.json is not valid JSON"))).toBe(ExitCode.usage);
      expect(reportFailure(new TypeError("oops"))).toBe(ExitCode.internal);
    } finally {
      spy.mockRestore();
    }
    expect(written[0]).toBe("vsk: schemas-cache/manifest.json is not valid JSON\n");
    expect(written[1]).toMatch(/^vsk: internal error \(a bug in vsk, please report it\):\nTypeError: oops\n/);
  });
});

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

describe("documented once", () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it("vsk --help lists the codes", () => {
    const dir = mkdtempSync(join(tmpdir(), "vsk-exit-"));
    dirs.push(dir);
    const run = vsk(["--help"], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      "Exit codes: 0 fine, 1 findings, 2 usage or I/O error, 3 a schema source could not be fetched or parsed, 70 a bug in vsk (reported with its stack trace; please report it).\n",
    );
  });

  it("the README's Exit codes section has a row for each headline with its code", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8").replaceAll("`", "");
    const section = readme.slice(
      readme.indexOf("### Exit codes"),
      readme.indexOf("\n### ", readme.indexOf("### Exit codes") + 1),
    );
    for (const { headline, exitCode } of Object.values(STAGE_ERRORS))
      expect(section).toMatch(new RegExp(`^\\| ${escapeRegExp(headline)}\\b.*\\| ${exitCode} \\|$`, "m"));
  });

  it("vsk mock with a model that has no generated validator: exit 2, one line saying to run vsk generate", () => {
    // the committed generated/ holds the three example models; a fourth model in the config has none
    const dir = mkdtempSync(join(tmpdir(), "vsk-exit-"));
    dirs.push(dir);
    cpSync(join(ROOT, "schemas-cache"), join(dir, "schemas-cache"), { recursive: true });
    mkdirSync(join(dir, "schemas-cache/other/model-a"), { recursive: true });
    cpSync(
      join(ROOT, "schemas-cache/example/model-a/latest.json"),
      join(dir, "schemas-cache/other/model-a/latest.json"),
    );
    writeFileSync(
      join(dir, "vsk.config.json"),
      JSON.stringify({
        snapshotDir: "schemas-cache",
        outDir: join(ROOT, "generated"),
        models: [
          { id: "example/model-a", alias: "modelA" },
          { id: "other/model-a", alias: "otherA", rules: "modelA" },
        ],
      }),
    );
    const run = vsk(["mock", "--port", "0"], dir);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^vsk: mock: other\/model-a\/.*: no generated validator in .*; run `vsk generate`/);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.code).toBe(2);
  });
});
