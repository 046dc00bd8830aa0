/**
 * Words for people, shared by the CLI and the config reader: "did you mean" for a mistyped
 * command, option or key; a word the user typed shown back quoted, with every control, C1 and
 * bidirectional-override character escaped so that it never acts on the terminal; and counts
 * ("1 model", "3 models"), and byte counts ("1.5 MiB"; a limit exactly: "8 MiB"). No dependencies beyond src/escape: `vsk lint` loads this on its fast start.
 */
export { closest, didYouMean } from "./did-you-mean.js";
export { plural, quote, shown } from "./words.js";
export { byteSize, limitSize } from "./bytes.js";
