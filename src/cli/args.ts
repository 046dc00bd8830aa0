/** yargs wiring shared by the commands: strict parsing, no process exit, usage errors as exit 2. */
import yargs, { type Argv } from "yargs";
import { CliError, ExitCode } from "./errors.js";

/** A yargs parser for `vsk <command>` that reports problems as a `CliError` instead of exiting. */
export function commandParser(argv: string[], command: string, usage: string): Argv {
  return yargs(argv)
    .scriptName("vsk")
    .usage(`Usage: vsk ${command} ${usage}`)
    .strict()
    .exitProcess(false)
    .help()
    .version(false)
    .wrap(Math.min(100, process.stdout.columns ?? 100))
    .fail((message, error) => {
      const text = (message ?? error?.message ?? "invalid arguments").replace(/\s*\n\s*/g, " ").trim();
      throw new CliError(`${command}: ${text} (see \`vsk ${command} --help\`)`, ExitCode.usage);
    });
}

/** True when yargs printed help and the command should stop. */
export function helpShown(argv: readonly string[]): boolean {
  return argv.includes("--help") || argv.includes("-h");
}
