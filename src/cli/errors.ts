/**
 * Errors a command reports to a person, with the exit code it maps to.
 * Anything thrown that is not a `CliError` is a bug in vsk, never the user's input.
 */
export const ExitCode = {
  ok: 0,
  /** lint: some payload invalid; drift: drift at or above --fail-on; generate --check: stale */
  findings: 1,
  /** bad flags, unknown model or endpoint, unreadable file */
  usage: 2,
  /** a schema source could not be fetched or parsed */
  source: 3,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode = ExitCode.usage,
  ) {
    super(message);
    this.name = "CliError";
  }
}
