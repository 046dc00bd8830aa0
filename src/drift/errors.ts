/** What `runDrift` throws: the CLI and the Action word them (prefix, exit code) as their own. */

/** A usage problem of drift itself (nothing to compare with, a bad `--requests` input); exit 2. */
export class DriftUsageError extends Error {
  override name = "DriftUsageError";
}

/**
 * A stage's error (config, accept file, snapshot) met in one phase of the run: `setup` before
 * anything is fetched, `update` while writing the snapshot. `cause` is the error as thrown.
 */
export class DriftStageError extends Error {
  override name = "DriftStageError";
  constructor(
    readonly phase: "setup" | "update",
    override readonly cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}
