#!/usr/bin/env node
/**
 * The `vsk` binary. Each command lives in its own file and is loaded only when it runs,
 * so that `vsk lint` does not pay for ts-morph, prettier or json-schema-to-typescript.
 */
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { redactUrlsInText } from "../diagnostics/index.js";
import { terminalText } from "../escape/index.js";
import { CliError, EXIT_CODE_MEANINGS, ExitCode, toCliError } from "./errors.js";
import { shownArgument, unknownOption } from "./typed.js";
import { closedPipeExitCode, exitQuietlyOnClosedPipe } from "./closed-pipe.js";
import { didYouMean } from "../words/index.js";
import { compileCacheWarning, useCompileCache } from "../durable/index.js";

type CommandRunner = (argv: string[]) => Promise<number>;

/** name -> loader of the module that runs it; one line per command. */
const commands: Record<string, { describe: string; load: () => Promise<CommandRunner> }> = {
  init: {
    describe: "write a starter vsk.config.json",
    load: async () => (await import("./init.js")).runInit,
  },
  pull: {
    describe: "fetch each model's published schema into schemas-cache/",
    load: async () => (await import("./pull.js")).runPull,
  },
  generate: {
    describe: "emit types, builders and validators into generated/",
    load: async () => (await import("./generate.js")).runGenerate,
  },
  lint: {
    describe: "check request payloads the way the service would",
    load: async () => (await import("./lint.js")).runLint,
  },
  drift: {
    describe: "report what changed in the published schemas and what it breaks",
    load: async () => (await import("./drift.js")).runDrift,
  },
  explain: {
    describe: "say what a prediction record, webhook or result response means",
    load: async () => (await import("./explain.js")).runExplain,
  },
  action: {
    describe: "run as the GitHub Action does (action.yml): drift, lint or check, with summary and PR comment",
    load: async () => (await import("./action.js")).runActionCommand,
  },
  mock: {
    describe: "serve a local, spec-faithful mock of the service for tests",
    load: async () => (await import("./mock.js")).runMock,
  },
  udf: {
    describe: "write the validators as a BigQuery or Snowflake JavaScript UDF",
    load: async () => (await import("./udf.js")).runUdf,
  },
};

function usage(): string {
  const width = Math.max(...Object.keys(commands).map((c) => c.length));
  const lines = Object.entries(commands).map(([name, c]) => `  vsk ${name.padEnd(width)}  ${c.describe}`);
  return [
    "Usage: vsk <command> [options]",
    "",
    "Commands:",
    ...lines,
    "",
    "Options:",
    "  -h, --help     show this help (also `vsk help <command>`)",
    "  -v, --version  print the version",
    "",
    "Run `vsk <command> --help` (or `vsk help <command>`) for a command's options.",
    `Exit codes: ${EXIT_CODE_MEANINGS.map(([code, meaning]) => `${code} ${meaning}`).join(", ")}.`,
  ].join("\n");
}

/** One line, exit 2: an unknown command, with the closest known one. */
function unknownCommand(name: string): CliError {
  const hint = didYouMean(redactUrlsInText(name), Object.keys(commands), (c) => `\`vsk ${c}\``);
  return new CliError(
    `unknown command ${shownArgument(name)}${hint} (commands: ${Object.keys(commands).join(", ")}; see \`vsk --help\`)`,
    ExitCode.usage,
  );
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === "help" && rest.length > 0) {
    // `vsk help lint` is `vsk lint --help`
    const command = commands[rest[0]!];
    if (command === undefined) throw unknownCommand(rest[0]!);
    return (await command.load())(["--help"]);
  }
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(usage() + "\n");
    return name === undefined ? ExitCode.usage : ExitCode.ok;
  }
  if (name === "--version" || name === "-v") {
    const { readFileSync } = await import("node:fs");
    const { PACKAGE_ROOT } = await import("../config/index.js");
    // from the package's root, not this file's place: it runs from dist/src/cli and bundled from dist/cli
    const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as {
      version: string;
    };
    process.stdout.write(pkg.version + "\n");
    return ExitCode.ok;
  }
  const command = commands[name];
  if (command === undefined) {
    if (name.startsWith("-"))
      throw new CliError(
        `${unknownOption(name, ["--help", "--version"], " before the command")} (see \`vsk --help\`)`,
        ExitCode.usage,
      );
    throw unknownCommand(name);
  }
  const [run, config] = await Promise.all([command.load(), import("../config/index.js")]);
  // Whenever a command used the built-in example models (no config found), it says so on stderr
  // when it ends; not after a usage error, which stays the one line that says what to fix.
  let notice: string | undefined;
  config.onExampleModels((message) => (notice = message));
  const code = await run(rest);
  if (notice !== undefined && code !== ExitCode.usage) process.stderr.write(`vsk: ${terminalText(notice)}\n`);
  return code;
}

/** Turns whatever a command throws into one message and an exit code; never a stack trace for a CliError. */
export function reportFailure(thrown: unknown): number {
  // a stage's error that no command caught still gets its code from the one table (errors.ts)
  const error = toCliError(thrown);
  if (error instanceof CliError) {
    // a message may quote data (a file name, a flag's value): shown, never acted on by the terminal
    process.stderr.write(`vsk: ${error.message.split("\n").map(terminalText).join("\n")}\n`);
    return error.exitCode;
  }
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  // even a bug's report must not print a URL's query string or the API key
  const key = process.env.VSK_API_KEY;
  const safe = redactUrlsInText(key ? text.split(key).join("<VSK_API_KEY>") : text);
  process.stderr.write(
    `vsk: internal error (a bug in vsk, please report it):\n${safe.split("\n").map(terminalText).join("\n")}\n`,
  );
  return ExitCode.internal;
}

/**
 * The program: what `bin/vsk.mjs` (the installed `vsk` command) runs through cli/program.ts
 * (dist/cli/vsk.js, scripts/bundle.mjs; `vsk lint` from the script bundle dist/cli/lint-script.js),
 * and `node dist/src/cli/main.js`. The closed-pipe handler is installed here,
 * not only when this module is the entry point, so that it also holds through the bin script.
 */
export function runAsProgram(argv: string[]): Promise<void> {
  // before the command's modules load: Node >= 22.1 keeps their compiled code (src/durable/cache.ts)
  const compileCache = useCompileCache(fileURLToPath(new URL(".", import.meta.url)));
  if (compileCache?.refused !== undefined)
    process.stderr.write(
      `vsk: warning: ${terminalText(compileCacheWarning(compileCache.dir, compileCache.refused))}\n`,
    );
  process.stdout.on("error", exitQuietlyOnClosedPipe);
  // `vsk … 2>&1 | head -1`: nothing can report a failed stderr, so it ends quietly too
  process.stderr.on("error", (error: NodeJS.ErrnoException) =>
    process.exit(error.code === "EPIPE" ? closedPipeExitCode() : ExitCode.usage),
  );
  return main(argv).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.exitCode = reportFailure(error);
    },
  );
}

/** Run only as the program itself, never when imported (bin/vsk.mjs calls runAsProgram). */
function invokedDirectly(): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (invokedDirectly()) void runAsProgram(process.argv.slice(2));
