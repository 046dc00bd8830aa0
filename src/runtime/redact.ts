/**
 * URL redaction (spec 7.2, input_fetch_failed rule 3): a message never reflects a URL's query
 * string, so credentials in a presigned URL never leak. We go further and also drop the fragment
 * and any user info (`user:password@`), which can carry secrets just as well.
 *
 * Plain string surgery, not `new URL()`: the URL a person submitted stays recognisable (no host
 * lower-casing, no added trailing slash, no re-encoding), and it works on text that is not a
 * well-formed URL.
 */

/**
 * `scheme://` followed by everything up to whitespace, a double quote, an angle bracket or a
 * backtick (none of which a URL may hold). A single quote may sit inside a URL, so it is only
 * peeled off at the end. The lookbehind starts a scheme only at the start of a word, which keeps
 * the scan linear on long runs of letters.
 */
const URL_IN_TEXT = /(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s"<>`]+/g;

/**
 * A query string (`?name=value…`) attached to any word: catches URLs written without a scheme
 * (`bucket.s3.amazonaws.com/key?X-Amz-Signature=…`) and the tail of a URL broken by a space.
 */
const QUERY_IN_WORD = /\?[^\s"<>`=?#&]*=[^\s"<>`]*/g;

/** Sentence punctuation that ends a match but most likely belongs to the surrounding text. */
const TRAILING_PUNCTUATION = ".,;:!)]}'";

/**
 * Removes the query string, fragment and user info of one URL.
 *
 * @example redactUrl("https://user:pw@cdn.example.com/a.png?X-Amz-Signature=abc#top")
 *          // "https://cdn.example.com/a.png"
 * @returns the redacted URL; `""` for a value that is not a string.
 */
export function redactUrl(url: string): string {
  if (typeof url !== "string") return "";
  const cut = url.search(/[?#]/);
  const withoutQuery = cut === -1 ? url : url.slice(0, cut);
  const authorityStart = withoutQuery.indexOf("//");
  if (authorityStart === -1) return withoutQuery;
  const rest = withoutQuery.slice(authorityStart + 2);
  const slash = rest.indexOf("/");
  const authority = slash === -1 ? rest : rest.slice(0, slash);
  const at = authority.lastIndexOf("@");
  if (at === -1) return withoutQuery;
  return withoutQuery.slice(0, authorityStart + 2) + rest.slice(at + 1);
}

/**
 * Redacts every `scheme://…` URL inside free text with {@link redactUrl}, then removes any query
 * string (`?name=value…`) still attached to a word, so a URL without a scheme or broken by a space
 * does not leak either. The rest of the text is unchanged; trailing sentence punctuation is kept.
 *
 * @example redactUrlsInText("could not fetch https://b.example/x.mp4?sig=1: HTTP 403")
 *          // "could not fetch https://b.example/x.mp4: HTTP 403"
 * @returns the redacted text; `""` for a value that is not a string.
 */
export function redactUrlsInText(text: string): string {
  if (typeof text !== "string") return "";
  return text
    .replace(URL_IN_TEXT, (match) => keepTrailing(match, redactUrl))
    .replace(QUERY_IN_WORD, (match) => keepTrailing(match, () => ""));
}

/** Applies `redact` to `match` without its trailing sentence punctuation, then puts that back. */
function keepTrailing(match: string, redact: (text: string) => string): string {
  // A loop, not a `/[…]+$/` regex: that one backtracks quadratically on long punctuation runs.
  let end = match.length;
  while (end > 0 && TRAILING_PUNCTUATION.includes(match[end - 1]!)) end--;
  return redact(match.slice(0, end)) + match.slice(end);
}
