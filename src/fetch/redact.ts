/**
 * URL redaction for everything the fetch stage prints or records (spec 7.2 rule 3: a message
 * never reflects a URL's query string). Fragment and user info go too: they can carry secrets
 * just as well. String surgery, not `new URL()`, so the URL stays as the user wrote it.
 */

/** `scheme://` followed by everything up to whitespace, a quote or an angle bracket. */
const URL_IN_TEXT = /[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s"'<>`]+/g;
/** Sentence punctuation that ends a match but belongs to the surrounding text. */
const TRAILING_PUNCTUATION = /[.,;:!)\]}]+$/;

/** Removes query string, fragment and user info: `https://u:p@h/a?sig=1#x` → `https://h/a`. */
export function redactUrl(url: string): string {
  const cut = url.search(/[?#]/);
  const bare = cut === -1 ? url : url.slice(0, cut);
  const start = bare.indexOf("//");
  if (start === -1) return bare;
  const rest = bare.slice(start + 2);
  const slash = rest.indexOf("/");
  const authority = slash === -1 ? rest : rest.slice(0, slash);
  const at = authority.lastIndexOf("@");
  return at === -1 ? bare : bare.slice(0, start + 2) + rest.slice(at + 1);
}

/** Applies {@link redactUrl} to every `scheme://…` URL inside free text. */
export function redactUrlsInText(text: string): string {
  return text.replace(URL_IN_TEXT, (match) => {
    const trailing = TRAILING_PUNCTUATION.exec(match)?.[0] ?? "";
    return redactUrl(match.slice(0, match.length - trailing.length)) + trailing;
  });
}
