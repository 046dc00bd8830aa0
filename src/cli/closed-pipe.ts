/**
 * `vsk lint … | head -1`: the reader went away before the run ended. Nothing more can be shown,
 * so the process stops quietly (never an EPIPE stack trace), with the exit code of what it had
 * seen so far: a command that already knows it will fail (an invalid payload linted, a breaking
 * change found) says so before it writes, so that `set -o pipefail; vsk lint logs/ | head` fails
 * as the first line printed says it should. Nothing seen that fails: 0, which then means "nothing
 * invalid before the reader stopped reading", not "all valid" (README, "Exit codes").
 */
import { ExitCode } from "./errors.js";

let soFar: () => number = () => ExitCode.ok;

/** A command names the exit code it would end with from what it has done so far (called when the pipe closes). */
export function exitCodeSoFar(code: () => number): void {
  soFar = code;
}

/** The code to exit with now: the final one when the command already returned it, else what was seen so far. */
export function closedPipeExitCode(): number {
  if (process.exitCode !== undefined && process.exitCode !== null) return Number(process.exitCode);
  return soFar();
}

/** stdout's `error` handler: EPIPE ends quietly with the code so far; any other write failure is one line, exit 2. */
export function exitQuietlyOnClosedPipe(error: NodeJS.ErrnoException): void {
  if (error.code === "EPIPE") process.exit(closedPipeExitCode());
  process.stderr.write(`vsk: cannot write the output (${error.code ?? error.message})\n`);
  process.exit(ExitCode.usage);
}
