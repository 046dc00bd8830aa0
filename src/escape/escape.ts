/**
 * Safe output: everything printed that came from data (payload keys and pointers, file names,
 * schema property names, messages that quote a payload) is escaped for the format it lands in,
 * so data never acts as a terminal command, a GitHub workflow command, Markdown markup or a link.
 * One home for every reporter of `lint`, `drift` and `explain`; colour is added only by our own
 * code, after escaping.
 */
import { sep } from "node:path";
import { workspacePath } from "./sarif.js";

/**
 * Characters a terminal, a log viewer or a CI runner may act on: C0 controls (ESC starts
 * CSI/OSC sequences, CR/LF start a new line that may read as a workflow command), DEL, C1
 * controls (0x9b is a one-byte CSI on some terminals), the line and paragraph separators, the
 * bidi marks, embeddings, overrides and isolates that reorder what a person reads (Trojan Source),
 * and the invisible characters that make two values print alike (`"16:9\u200b"` read as `"16:9"`):
 * the soft hyphen U+00AD, the Mongolian vowel separator U+180E, the zero-width space, non-joiner
 * and joiner U+200B–U+200D, the word joiner and invisible operators U+2060–U+2064, and the
 * zero-width no-break space (BOM) U+FEFF.
 */
// past C0, DEL and C1: the one list of these characters, every set below is made from it
const HIDDEN = "\\u00ad\\u061c\\u180e\\u200b-\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2060-\\u2064\\u2066-\\u2069\\ufeff";
const UNSAFE_SET = `\\u0000-\\u001f\\u007f-\\u009f${HIDDEN}`;
const UNSAFE = new RegExp(`[${UNSAFE_SET}]`, "g");
const UNSAFE_TEST = new RegExp(`[${UNSAFE_SET}]`);
/** The same set without CR and LF, for text whose line breaks are our own. */
const UNSAFE_KEEP_LINES = new RegExp(`[\\u0000-\\u0009\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f${HIDDEN}]`, "g");
/** What JSON.stringify leaves raw but a consumer printing the field would act on (or not see). */
const JSON_UNSAFE = new RegExp(`[\\u007f-\\u009f${HIDDEN}]`, "g");

/** Whether a text holds a character {@link terminalText} would escape. */
export function hasUnsafe(text: string): boolean {
  return UNSAFE_TEST.test(text);
}

const SHORT: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function visible(c: string): string {
  return SHORT[c] ?? "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0");
}

/**
 * One line of data made safe for a terminal: every unsafe character becomes a visible escape
 * (`\u001b`, `\n`, `\u202e`), so the text stays on its line and cannot colour, move the cursor,
 * set a hyperlink or reorder what follows.
 *
 * @example terminalText("key\u001b[2J") // "key\\u001b[2J"
 */
export function terminalText(text: string): string {
  return UNSAFE_TEST.test(text) ? text.replace(UNSAFE, visible) : text;
}

/** Like {@link terminalText}, but keeps CR and LF: for multi-line text whose data parts were escaped already. */
function keepLines(text: string): string {
  return text.replace(UNSAFE_KEEP_LINES, visible);
}

/**
 * A GitHub workflow command's message (`::error …::MESSAGE`), escaped as GitHub's runner
 * unescapes it: `%` → `%25`, CR → `%0D`, LF → `%0A`; other control characters are shown as
 * visible escapes. Escape each data part with {@link terminalText} first when a line break in it
 * must not become a line break of the annotation.
 */
export function githubData(text: string): string {
  return keepLines(text).replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

/** A workflow command's property value (`file=…,title=…`): {@link githubData} plus `:` → `%3A`, `,` → `%2C`. */
export function githubProperty(text: string): string {
  return githubData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

/**
 * A file path as a workflow command's `file=` value: GitHub resolves it against the repository
 * (`$GITHUB_WORKSPACE`), so the path is made relative to it ({@link workspacePath}, as SARIF's
 * URIs are), with `/` separators: a Windows path's `\` become `/` (on POSIX a `\` is part of a name).
 */
export function githubFile(
  path: string,
  separator: string = sep,
  cwd: string = process.cwd(),
  env: NodeJS.ProcessEnv = process.env,
): string {
  const shown = workspacePath(path, cwd, env);
  return githubProperty(terminalText(separator === "\\" ? shown.replaceAll("\\", "/") : shown));
}

/**
 * Data as Markdown text (also inside a table cell): control characters escaped as in
 * {@link terminalText}; `<`, `>`, `&` as HTML entities; `\`, `|`, backticks, `@` mentions and
 * the brackets of link and image syntax (`[x](…)`, `![x](…)`: with `[` and `]` escaped, `(`, `)`
 * and `!` are plain text) backslash-escaped; `://` and `www.` broken so that GitHub does not turn
 * a URL in the data into a live link. Rendered, the text reads exactly as the data.
 *
 * @example markdownText("see [x](https://evil.example)") // "see \\[x\\](https\\://evil.example)"
 */
export function markdownText(text: string): string {
  return terminalText(text)
    .replace(/[\\`[\]|@]/g, "\\$&")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/:\/\//g, "\\://")
    .replace(/(www)\./gi, "$1\\.");
}

/**
 * Data as a Markdown code span (`` `…` ``), where nothing is markup and nothing is a link: the
 * fence is one backtick longer than the longest run of backticks inside, control characters are
 * escaped as in {@link terminalText}, and in a table cell `|` is written `\|` (GFM strips the
 * backslash before it reads the span).
 */
export function markdownCode(text: string, inTable = true): string {
  let body = terminalText(text);
  if (inTable) body = body.replace(/\|/g, "\\|");
  if (body === "") return "` `";
  let longest = 0;
  for (const run of body.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = "`".repeat(longest + 1);
  const pad = body.startsWith("`") || body.endsWith("`") || (body.startsWith(" ") && body.endsWith(" ")) ? " " : "";
  return `${fence}${pad}${body}${pad}${fence}`;
}

/**
 * A JSON text made safe for a consumer that prints its fields: C1 controls, DEL, the line
 * separators and the bidi controls, which `JSON.stringify` leaves raw, become `\uXXXX`
 * escapes. Parsing gives the same value (they can only occur inside strings).
 */
export function jsonText(json: string): string {
  return json.replace(JSON_UNSAFE, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
}

/** Data inside raw HTML (a `<details><summary>` line of a Markdown report): control characters escaped, `& < > " '` as entities. */
export function htmlText(text: string): string {
  return terminalText(text)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}
