/**
 * How a usage error quotes what the user typed, for every command's parser (yargs in
 * src/cli/args.ts, lint's value checks in src/cli/lint.ts, the top level in main.ts): a word is data
 * that may hold a signed URL or a password (`--https://user:pw@host/x?token=…` pasted as a flag),
 * so its URLs are redacted before it is quoted, and an unknown option gets the one "did you mean".
 * No yargs here: main.ts words its own errors before any command's parser is loaded.
 */
import { redactUrlsInText } from "../diagnostics/index.js";
import { didYouMean, quote } from "../words/index.js";

/** A word the user typed, as a message quotes it: its URLs redacted first, then quoted (never the quoted text). */
export function shownArgument(word: string): string {
  return quote(redactUrlsInText(word));
}

/**
 * `unknown option "--chek"; did you mean "--check"?`: `flags` are the command's own, written as
 * typed (`--check`, `-h`); `where` follows the option (` before the command`).
 */
export function unknownOption(flag: string, flags: Iterable<string>, where = ""): string {
  return `unknown option ${shownArgument(flag)}${where}${didYouMean(redactUrlsInText(flag), flags)}`;
}

/** An argument the command does not take. */
export function unexpectedArgument(word: string): string {
  return `unexpected argument ${shownArgument(word)}`;
}
