/** yargs wiring shared by the commands: strict parsing, no process exit, usage errors as exit 2. */
import yargs, { type Argv } from "yargs";
import { CliError, ExitCode } from "./errors.js";
import { redactUrlsInText } from "../diagnostics/index.js";
import { shownArgument, unexpectedArgument, unknownOption } from "./typed.js";
import { didYouMean } from "../words/index.js";

/**
 * A yargs parser for `vsk <command>` that reports problems as a `CliError` instead of exiting.
 * One help layout for every command: the usage line, then `about` (what it does, each paragraph
 * one line that yargs wraps to the terminal, never a hand-made break), the last one its exit codes.
 */
export function commandParser(argv: string[], command: string, usage: string, about: readonly string[] = []): Argv {
  const parser = yargs(argv);
  return (
    parser
      .scriptName("vsk")
      .usage([`Usage: vsk ${command} ${usage}`, ...about].join("\n\n"))
      .strict()
      .exitProcess(false)
      .help()
      .alias("help", "h")
      .version(false) // the bundled yargs adds no --version to take away (scripts/bundle.mjs); the per-module build's does
      .wrap(Math.min(100, process.stdout.columns ?? 100))
      // an option that takes a value, given none, is an error (yargs let `--fail-on` alone mean its default)
      .middleware(() => {
        const missing = valueMissing(argv, (parser as unknown as { getOptions(): YargsOptions }).getOptions());
        if (missing !== undefined) throw usageError(`Option '${missing} <value>' argument missing`);
      }, true)
      .fail((message, error) => {
        const text =
          (message?.startsWith("Unknown argument") ? unknownArguments(argv, parser, message) : undefined) ??
          (message?.startsWith("Invalid values:") ? invalidChoice(message) : undefined) ??
          // yargs' own prose, which may echo what was typed: its URLs redacted (we do not build that text)
          redactUrlsInText((message ?? error?.message ?? "invalid arguments").replace(/\s*\n\s*/g, " ").trim());
        throw usageError(text);
      })
  );
  function usageError(text: string): CliError {
    return new CliError(`${command}: ${text} (see \`vsk ${command} --help\`)`, ExitCode.usage);
  }
}

/** yargs' "Unknown argument: chek" said as what it is: an unknown option (with "did you mean") or an extra argument. */
function unknownArguments(argv: readonly string[], parser: Argv, message: string): string {
  // getOptions() is public yargs API that @types/yargs 17 does not declare
  const options = (parser as unknown as { getOptions(): YargsOptions }).getOptions();
  const known = new Set([...Object.keys(options.key), ...Object.values(options.alias).flat()]);
  const flags = [...known].filter((k) => !/[A-Z]/.test(k)).map((k) => (k.length === 1 ? `-${k}` : `--${k}`));
  const end = argv.indexOf("--");
  for (const word of end === -1 ? argv : argv.slice(0, end)) {
    if (!word.startsWith("-") || word === "-") continue;
    const name = word.replace(/^--?/, "").replace(/=.*$/s, "");
    if (known.has(name) || (name.startsWith("no-") && known.has(name.slice(3)))) continue;
    const flag = word.startsWith("--") ? `--${name}` : `-${name}`;
    return unknownOption(flag, flags);
  }
  const extra = message.replace(/^Unknown arguments?:\s*/, "").split(", ")[0] ?? "";
  return unexpectedArgument(extra);
}

/**
 * yargs' "Invalid values: Argument: format, Given: "xml", Choices: "text", "json"" said as lint says
 * its --format's: `--format must be one of text, json, not "xml"; did you mean …?` (a choice given
 * no value never gets here: `valueMissing`). Undefined when the message is not that shape.
 */
function invalidChoice(message: string): string | undefined {
  const text = message.replace(/\s*\n\s*/g, " ").trim();
  const head = /^Invalid values: Argument: ([a-z0-9-]+), Given: /.exec(text);
  const cut = text.lastIndexOf(", Choices: ");
  if (head === null || cut < head[0].length) return undefined;
  let given: unknown[];
  let choices: unknown[];
  try {
    given = JSON.parse(`[${text.slice(head[0].length, cut)}]`) as unknown[];
    choices = JSON.parse(`[${text.slice(cut + ", Choices: ".length)}]`) as unknown[];
  } catch {
    return undefined;
  }
  const names = choices.map(String);
  const value = given[0];
  if (given.length !== 1 || typeof value !== "string") return undefined;
  return `--${head[1]} must be one of ${names.join(", ")}, not ${shownArgument(value)}${didYouMean(redactUrlsInText(value), names)}`;
}

/**
 * The first `--name` typed without its value (at the end, or before another `--option`), among the
 * options that take one (neither boolean nor counted): as lint's own parser says it (src/cli/lint.ts).
 */
function valueMissing(argv: readonly string[], options: YargsOptions): string | undefined {
  const flags = new Set([...options.boolean, ...options.count]);
  for (const [name, aliases] of Object.entries(options.alias))
    if (flags.has(name)) for (const a of aliases) flags.add(a);
  const known = new Set([...Object.keys(options.key), ...Object.values(options.alias).flat()]);
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === "--") break;
    if (!word.startsWith("--") || word.includes("=")) continue;
    const name = word.slice(2);
    if (!known.has(name) || flags.has(name)) continue;
    const next = argv[i + 1];
    if (next === undefined || next.startsWith("--")) return word;
  }
  return undefined;
}

interface YargsOptions {
  key: Record<string, unknown>;
  alias: Record<string, string[]>;
  boolean: string[];
  count: string[];
}

/** True when yargs printed help and the command should stop. */
export function helpShown(argv: readonly string[]): boolean {
  return argv.includes("--help") || argv.includes("-h");
}
