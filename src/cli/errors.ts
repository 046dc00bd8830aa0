/**
 * Exit codes, and the one table from what a stage throws to the exit code of the command.
 * Documented once for users: the README's "Exit codes" section and `vsk --help`.
 * Anything thrown that is neither a `CliError` nor in the table is a bug in vsk, never the user's input.
 */
export const ExitCode = {
  ok: 0,
  /** lint: some payload invalid; drift: drift at or above --fail-on; generate --check: stale */
  findings: 1,
  /** bad flags, unknown model or endpoint, unreadable file */
  usage: 2,
  /** a schema source could not be fetched or parsed */
  source: 3,
  /** a bug in vsk (EX_SOFTWARE): reported with its stack trace, URLs and the key redacted */
  internal: 70,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** What each code means, in the words of `vsk --help`. */
export const EXIT_CODE_MEANINGS: ReadonlyArray<readonly [ExitCode, string]> = [
  [ExitCode.ok, "fine"],
  [ExitCode.findings, "findings"],
  [ExitCode.usage, "usage or I/O error"],
  [ExitCode.source, "a schema source could not be fetched or parsed"],
  [ExitCode.internal, "a bug in vsk (reported with its stack trace; please report it)"],
];

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode = ExitCode.usage,
  ) {
    super(message);
    this.name = "CliError";
  }
}

/** A row of the table: the exit code an error class gives, and what it means in a few words. */
export interface StageErrorRow {
  exitCode: ExitCode;
  headline: string;
}

/**
 * Error class (by its name: importing every stage to get the classes themselves would add
 * ~300 ms to `vsk lint`'s start) → exit code and headline. A subclass not listed takes its
 * nearest listed ancestor's row. test/cli/exit.test.ts checks every name against the real class,
 * and that the README's "Exit codes" table says each headline with its code.
 */
export const STAGE_ERRORS = {
  ConfigError: { exitCode: ExitCode.usage, headline: "the config file (vsk.config.json or --config FILE) is wrong" },
  FetchUsageError: { exitCode: ExitCode.usage, headline: "a schema URL, --timeout or VSK_* fetch setting is wrong" },
  ActionInputError: { exitCode: ExitCode.usage, headline: "an input of the GitHub Action is wrong" },
  AcceptFileError: { exitCode: ExitCode.usage, headline: "the drift accept file is wrong" },
  SnapshotError: { exitCode: ExitCode.usage, headline: "the snapshot (schemas-cache/) cannot be read or written" },
  RegistryError: { exitCode: ExitCode.usage, headline: "the generated validators are missing or unreadable" },
  EmitConfigError: { exitCode: ExitCode.usage, headline: "the configuration keeps generation from working" },
  FetchError: { exitCode: ExitCode.source, headline: "a schema could not be fetched" },
  SchemaLoadError: { exitCode: ExitCode.source, headline: "a schema could not be parsed or is not a model" },
  UdfSizeError: { exitCode: ExitCode.source, headline: "a UDF would be over its warehouse's limit" },
  EmitError: { exitCode: ExitCode.source, headline: "a schema could not be turned into code" },
} as const satisfies Record<string, StageErrorRow>;
export type StageErrorName = keyof typeof STAGE_ERRORS;

/** The table's name and row for `error`'s class, or its nearest listed ancestor; undefined for anything else. */
export function stageErrorOf(error: unknown): (StageErrorRow & { name: StageErrorName }) | undefined {
  if (!(error instanceof Error)) return undefined;
  for (let proto: unknown = Object.getPrototypeOf(error); proto !== Error.prototype && proto !== null;) {
    const name = (proto as { constructor: { name: string } }).constructor.name;
    if (Object.hasOwn(STAGE_ERRORS, name))
      return { name: name as StageErrorName, ...STAGE_ERRORS[name as StageErrorName] };
    proto = Object.getPrototypeOf(proto);
  }
  return undefined;
}

/**
 * `error` as the `CliError` the table gives for its class, its message worded by `wording`
 * (a command's prefix, a hint); anything the table does not know (a bug) is returned unchanged,
 * so `throw toCliError(error, …)` in a catch keeps the stack trace of a bug.
 */
export function toCliError(
  error: unknown,
  wording: (message: string, name: StageErrorName) => string = (message) => message,
): unknown {
  if (error instanceof CliError) return error;
  const row = stageErrorOf(error);
  if (row === undefined) return error;
  return new CliError(wording((error as Error).message, row.name), row.exitCode);
}
