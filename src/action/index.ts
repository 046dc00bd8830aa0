/**
 * The GitHub Action (`action.yml`, composite): runs `vsk drift`, `vsk lint` or
 * `vsk generate --check` in the workflow's checkout, puts annotations in the diff and the Markdown
 * report in the job summary, sets the outputs `breaking-count` and `changes-json`, and posts or
 * updates one pull-request comment (found again by a hidden marker) through the GitHub REST API
 * with the token the workflow provides. Inputs arrive as `VSK_ACTION_*` variables (action.yml).
 */
export {
  type ActionCommand,
  ActionInputError,
  type ActionInputs,
  type ActionResult,
  type IsStageError,
  API_TIMEOUT_SECONDS,
  COMMENT_LIMIT,
  marker,
  outputLines,
  pullRequestNumber,
  readInputs,
  runAction,
  runCommand,
  truncateMarkdown,
  upsertComment,
} from "./run.js";
