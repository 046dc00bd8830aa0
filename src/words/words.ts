/**
 * Words for people, shared by the CLI and the config reader: a word the user typed shown back
 * quoted, with every control, C1 and bidirectional-override character escaped so that it never
 * acts on the terminal; and counts ("1 model", "3 models"). No dependencies beyond src/escape:
 * `vsk lint` loads this on its fast start.
 */
import { hasUnsafe, jsonText } from "../escape/index.js";

/** A word from the command line or a file, quoted for a one-line message that is safe on a terminal. */
export function quote(word: string): string {
  const clipped = word.length > 80 ? `${word.slice(0, 80)}…` : word;
  return jsonText(JSON.stringify(clipped));
}

/** "1 model", "3 models": a count and its noun. */
export function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/** A path or other text shown as is when it holds nothing a terminal would act on; quoted otherwise. */
export function shown(text: string): string {
  return hasUnsafe(text) ? quote(text) : text;
}
