/**
 * `vsk action`: what the GitHub Action (action.yml) runs. Inputs come as VSK_ACTION_* variables;
 * annotations go to stdout, the report to the job summary, outputs to $GITHUB_OUTPUT.
 */
import { runAction } from "../action/index.js";
import { commandParser, helpShown } from "./args.js";
import { ExitCode, stageErrorOf, toCliError } from "./errors.js";

export async function runActionCommand(argv: string[]): Promise<number> {
  await commandParser(argv, "action", "(inputs in VSK_ACTION_COMMAND, VSK_ACTION_FAIL_ON, VSK_ACTION_PATHS, …)")
    .epilogue(
      "Run by the GitHub Action in action.yml (see the README's CI section): VSK_ACTION_COMMAND is drift, lint or check; VSK_ACTION_FAIL_ON, VSK_ACTION_PATHS (one per line), VSK_ACTION_CONFIG, VSK_ACTION_SCHEMA_URL, VSK_ACTION_COMMENT (true/false). Uses GITHUB_STEP_SUMMARY, GITHUB_OUTPUT, GITHUB_EVENT_PATH, GITHUB_REPOSITORY, GITHUB_API_URL and GITHUB_TOKEN.",
    )
    .parseAsync();
  if (helpShown(argv)) return ExitCode.ok;
  try {
    return await runAction(
      process.env,
      process.cwd(),
      (text) => process.stdout.write(text),
      (error) => stageErrorOf(error) !== undefined,
    );
  } catch (error) {
    throw toCliError(error, (message) => `action: ${message}`);
  }
}
