/**
 * What recovery did, said out loud on stderr (one line each). Paths come from the user's tree:
 * control characters in them are shown escaped, never sent to the terminal.
 */
import { terminalText } from "../escape/index.js";

export function printable(text: string): string {
  // a tab reads as a space; every other character a terminal would act on or hide, as src/escape escapes it
  return terminalText(text.replaceAll("\t", " "));
}

export function announce(line: string): void {
  process.stderr.write(`vsk: ${printable(line)}\n`);
}
