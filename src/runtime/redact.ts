/**
 * URL redaction (spec 7.2, input_fetch_failed rule 3): a message never reflects a URL's query
 * string, so credentials in a presigned URL never leak. We go further and also drop the fragment
 * (`#access_token=…`), any user info (`user:password@`) and `;name=value` path parameters
 * (`;jsessionid=…`), which carry secrets just as well.
 *
 * Plain string surgery, not `new URL()`: the URL a person submitted stays recognisable (no host
 * lower-casing, no added trailing slash, no re-encoding), and it works on text that is not a
 * well-formed URL. The one implementation: `vsk` uses it for every message and `vsk generate`
 * copies this file beside the generated code, so it imports nothing.
 */

/** Sentence punctuation that ends a word but most likely belongs to the surrounding text. */
const TRAILING_PUNCTUATION = ".,;:!)]}'";

/** What ends a word of free text: whitespace, a double quote, an angle bracket or a backtick (none of which a URL may hold). */
const WORD = /[^\s"<>`]+/g;

/** What stands where a secret was, in a message, a `received` value, a note or a body. */
export const REDACTED_MARK = "<redacted>";

/**
 * A token as credentials are written: at least `min` characters of `A-Z a-z 0-9 . _ ~ + / = : -`
 * (a key is often `<id>:<secret>`), and, past its first character, a digit, a capital, `_`, `+`, `/` or `=` (so `Key Takeaways`
 * and `Bearer of` stay prose, `Key sk-live-QQQQ8888` and `Basic dXNlcjpwYXNz` do not).
 */
const token = (min: number): string => `(?=[\\w.~+/=:-]{${min}})[\\w.~+/-][\\w.~:-]*[\\dA-Z_+/=][\\w.~+/=:-]*`;

/**
 * Secrets by their shape, the one list (issue S1: "no command prints an API key"): the
 * credentials of an `Authorization` header (spec 5: `Authorization: Key <API_KEY>`; also
 * `Bearer`, `Basic`, `Token`), common key prefixes (`sk-`, `sk_live_`, `pk_live_`, `ghp_`,
 * `github_pat_`, `xoxb-`, `AKIA…`, `AIza…`, `glpat-`), JSON Web Tokens, and the value after a
 * name that says secret in text (`api_key=…`, `"token": "…"`, `password: …`, camelCase's last
 * word too: `dbPassword=…`; the name is kept, group 1). Case-sensitive on purpose: `key takeaways` is prose.
 */
const SECRET_SHAPES = [
  `\\b(?:[Kk]ey|KEY|[Bb]earer|BEARER|[Bb]asic|BASIC|[Tt]oken|TOKEN)[ \\t]+${token(8)}`,
  "\\b(?:sk|pk|rk)[-_](?:live[-_]|test[-_]|proj[-_])?[\\w-]{8,}",
  "\\b(?:gh[pousr]_[A-Za-z0-9]{16,}|github_pat_\\w{16,}|xox[abposr]-[\\w-]{8,}|glpat-[\\w-]{16,}|AIza[\\w-]{30,})",
  "\\b(?:AKIA|ASIA)[0-9A-Z]{16}\\b",
  "\\beyJ[\\w-]{4,}\\.eyJ[\\w-]{4,}\\.[\\w-]*",
  `((?:(?<![A-Za-z])|(?<=[a-z0-9])(?=[A-Z]))(?:[Aa]pi[-_]?[Kk]ey|API[-_]?KEY|[Tt]oken|TOKEN|[Ss]ecret|SECRET|[Pp]assw(?:or)?d|PASSW(?:OR)?D|[Aa]uthorization|AUTHORIZATION)\\\\?["']?[ \\t]*[:=][ \\t]*\\\\?["']?)(?!(?:[Kk]ey|[Bb]earer|[Bb]asic|[Tt]oken)[ \\t])${token(6)}`,
].join("|");

/** URL parts the redaction removes: a `?` or `#` with more of the word after it, a `;name=` parameter, an `@`, a `//`. */
const URL_PARTS = '[?#][^\\s"<>`]|;[^\\s"<>`;]*=|@|[\\\\/]{2}';
const MAY_HOLD_URL = new RegExp(URL_PARTS);

/**
 * Whether a text may hold a URL part {@link redactUrlsInText} would remove (not a secret's
 * shape); false is certain. About seven times cheaper than {@link mayHoldSecret}: for a message
 * whose data parts were redacted as values before they were quoted (a diagnostic's).
 */
export function mayHoldUrl(text: string): boolean {
  return MAY_HOLD_URL.test(text);
}

/**
 * Exact secret values to redact besides the shapes (see {@link addSecretValues}), in one array
 * on `globalThis` under a registered symbol: every copy of this module in a process (the CLI's,
 * the generated code's that `vsk lint` runs, `video-schema-kit/runtime`'s) redacts what any of
 * them was told. Only ever appended to.
 */
const SECRET_VALUES = Symbol.for("video-schema-kit.secretValues");
let values: string[] | undefined;

function secretValues(): string[] {
  if (values === undefined) {
    const global = globalThis as unknown as Record<symbol, string[] | undefined>;
    values = global[SECRET_VALUES] ??= [];
  }
  return values;
}

/**
 * Also redacts these exact values wherever a text holds them, whatever they look like (as they
 * are, percent-encoded, JSON-escaped; values under 4 characters are ignored): the key a program
 * holds (`vsk` registers its `VSK_API_KEY`). Applies to every copy of this module in the process.
 */
export function addSecretValues(secrets: Iterable<string>): void {
  const known = secretValues();
  for (const value of secrets) {
    if (typeof value !== "string") continue;
    for (const form of [value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)])
      if (form.length >= 4 && !known.includes(form)) known.push(form);
  }
}

/**
 * The secrets' regexes, made again when a value was added: `all` (shapes, then exact values,
 * global, for replacing) and `mayHold`, the prefilter: a text that matches none of it has nothing
 * to redact (the fast path of most messages): a secret's shape or value, or a URL part the
 * redaction removes. Prose keeps its `why?` and `a; b` on this path. (The class in the `;` branch
 * stops at the next `;`, so a run of semicolons stays linear.)
 */
let compiled: { values: number; all: RegExp; mayHold: RegExp } | undefined;

function secretRegexes(): { all: RegExp; mayHold: RegExp } {
  const known = values ?? secretValues();
  if (compiled === undefined || compiled.values !== known.length) {
    const exact = known
      .slice()
      .sort((a, b) => b.length - a.length)
      .map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    const source = [SECRET_SHAPES, ...exact].join("|");
    compiled = { values: known.length, all: new RegExp(source, "g"), mayHold: new RegExp(`${URL_PARTS}|${source}`) };
  }
  return compiled;
}

/**
 * A field name (a JSON Pointer token) that says its value is a secret: `api_key`, `apiKey`,
 * `x-api-key`, `access_token`, `token`, `secret`, `client_secret`, `password`, `authorization`,
 * `credentials`, `private_key`, … as the last word of a field name (`max_tokens`, `token_count` are not);
 * camelCase words count as words (`myApiKey`, `dbPassword`: see {@link namesSecret}).
 */
const SECRET_NAME =
  /(?:^|[/_.~-])(?:x-)?(?:api[-_]?keys?|apikeys?|access[-_]?keys?|private[-_]?keys?|secret[-_]?keys?|secrets?|client[-_]?secret|(?:access|refresh|auth|id|session|bearer)?[-_]?token|password|passwords|passwd|passphrase|authorization|auth|credentials?|cookie|session[-_]?id)(?=$|\/)/i;

/**
 * Whether a JSON Pointer (or one field name) goes through a field whose name says it holds a
 * secret: its value is never shown, whatever it looks like (issue S1).
 *
 * @example namesSecret("/input/api_key") // true
 * @example namesSecret("/input/headers/0/authorization") // true
 * @example namesSecret("/input/myApiKey") // true
 * @example namesSecret("/input/max_tokens") // false
 */
export function namesSecret(pointer: string): boolean {
  return (
    SECRET_NAME.test(pointer) || (CAMEL_BOUNDARY.test(pointer) && SECRET_NAME.test(pointer.replace(CAMEL_WORDS, "$1_$2")))
  );
}

/** A lower-case letter or digit then a capital: where a camelCase name starts a word (`myApiKey`). */
const CAMEL_BOUNDARY = /[a-z0-9][A-Z]/;
const CAMEL_WORDS = /([a-z0-9])([A-Z])/g;

/** Whether a text may hold something {@link redactUrlsInText} would remove; false is certain. */
export function mayHoldSecret(text: string): boolean {
  return secretRegexes().mayHold.test(text);
}

/**
 * `text` with every secret-shaped part (see `SECRET_SHAPES`) and every configured key replaced
 * by {@link REDACTED_MARK}; a name before a value (`api_key=`) is kept.
 *
 * @example redactSecrets("HTTP 401: bad Authorization: Key sk-live-0123456789") // "HTTP 401: bad Authorization: <redacted>"
 */
export function redactSecrets(text: string): string {
  if (typeof text !== "string") return "";
  return text.replace(secretRegexes().all, (_match, name: string | undefined) => (name ?? "") + REDACTED_MARK);
}

/** `scheme:` then two slashes, either way round: WHATWG URL parsers read `https:\\h` as `https://h`. */
const SCHEME_SEPARATOR = /:[\\/]{2}/;

/** A path that ends in a file name with an extension (`a/b.png`), the last segment of a URL path. */
const FILE_NAME_END = /[\\/][^\\/]*[A-Za-z0-9_-]\.[A-Za-z0-9]+$/;

/** `;name=value` path parameters, up to the next path separator or parameter. */
const PATH_PARAMETER = /;[^/\\;?#=]*=[^/\\;?#]*/g;

/**
 * Removes the query string, fragment, user info and `;name=value` path parameters of one URL.
 *
 * @example redactUrl("https://user:pw@cdn.example.com/a.png;jsessionid=1?X-Amz-Signature=abc#top")
 *          // "https://cdn.example.com/a.png"
 * @returns the redacted URL; `""` for a value that is not a string.
 */
export function redactUrl(url: string): string {
  if (typeof url !== "string") return "";
  const cut = url.search(/[?#]/);
  let rest = cut === -1 ? url : url.slice(0, cut);
  let head = "";
  const authority = /[\\/]{2}/.exec(rest);
  if (authority !== null) {
    head = rest.slice(0, authority.index + 2);
    rest = rest.slice(authority.index + 2);
    const slash = rest.search(/[\\/]/);
    const at = (slash === -1 ? rest : rest.slice(0, slash)).lastIndexOf("@");
    if (at !== -1) rest = rest.slice(at + 1);
  }
  return head + rest.replace(PATH_PARAMETER, "");
}

/**
 * Redacts every URL inside free text: a `scheme://…` URL (any case, also `//host/…` without a
 * scheme) with {@link redactUrl}; in any other word that looks like a URL or a path
 * (`bucket.s3.amazonaws.com/k.png?X-Amz-Signature=…`, `host/a.png?download&sig=…`, the tail of a
 * URL broken by a space), the query or fragment, `;name=value` parameters and `user:password@`.
 * A `?` or `#` in prose (`why?`, `#1`) is kept. The rest of the text is unchanged; trailing
 * sentence punctuation is kept. Linear in the length of the text.
 *
 * @example redactUrlsInText("could not fetch https://b.example/x.mp4?sig=1: HTTP 403")
 *          // "could not fetch https://b.example/x.mp4: HTTP 403"
 * @returns the redacted text; `""` for a value that is not a string.
 */
export function redactUrlsInText(text: string): string {
  if (typeof text !== "string") return "";
  if (!mayHoldSecret(text)) return text;
  // URLs first (`?token=…` goes with its query string), then what is left that looks like a secret
  return redactSecrets(text.replace(WORD, (word) => (mayHoldSecret(word) ? keepTrailing(word, redactWord) : word)));
}

/**
 * {@link redactUrlsInText} without its prefilter: every word goes through the redaction. Slower;
 * it exists so tests can show that the prefilter never lets through a text this would change.
 */
export function redactEveryWord(text: string): string {
  return redactSecrets(text.replace(WORD, (word) => keepTrailing(word, redactWord)));
}

/** One word of free text, without its trailing punctuation. */
function redactWord(word: string): string {
  const separator = SCHEME_SEPARATOR.exec(word);
  if (separator !== null) {
    // the scheme: letters, digits, `+ . -` back from the `:`, starting with a letter
    let start = separator.index;
    while (start > 0 && /[A-Za-z0-9+.-]/.test(word[start - 1]!)) start--;
    while (start < separator.index && !/[A-Za-z]/.test(word[start]!)) start++;
    if (start < separator.index) {
      const before = word.slice(0, start);
      const plain = redactPlain(before);
      // a "scheme" inside the query or fragment of what comes before (`h:8080/p?x&sig=SECRET:/\…`):
      // that query was cut, and all that follows is part of it
      const query = before.search(/[?#]/);
      if (query !== -1 && !plain.endsWith(before.slice(query))) return plain;
      return plain + redactUrl(word.slice(start));
    }
  }
  // `//host/…` without a scheme, possibly after an opening bracket or quote
  const relative = /^[^A-Za-z0-9\\/]*[\\/]{2}/.exec(word);
  if (relative !== null) {
    const start = relative[0].length - 2;
    return word.slice(0, start) + redactUrl(word.slice(start));
  }
  return redactPlain(word);
}

/**
 * A host at the start of a word without a scheme (after an opening bracket or quote, or
 * `user:password@`): a dotted name (`cdn.example`, `bucket.s3.amazonaws.com`), `localhost`, a
 * bracketed IPv6 address, or any name with a port (`h:8080`). `octo-org/octo-repo` is none of these.
 */
const HOST_START =
  /^[^A-Za-z0-9[]*(?:[^\s/\\@]*@)?(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+\.?|localhost|\[[0-9A-Fa-f:.]*\]|[A-Za-z0-9.-]+:\d+)(?=$|[:/\\?#;])/i;

/**
 * A word with no scheme: its query or fragment goes only where the word is a URL, that is it
 * starts with a host (`h.example/x#access_token=…`), the query or fragment holds parameters
 * (`host/a.png?download&sig=…`), or it follows a file name (`a.png?X-Amz…`). Anything else keeps its
 * `?` and `#` (`octo-org/octo-repo#2`, `## Forged`, `why?`).
 */
function redactPlain(word: string): string {
  let out = word;
  const cut = out.search(/[?#]/);
  if (cut !== -1) {
    const before = out.slice(0, cut);
    const after = out.slice(cut + 1);
    if (after !== "" && (HOST_START.test(before) || /[=&]/.test(after) || FILE_NAME_END.test(before))) out = before;
  }
  // `;name=value` after a path or host (`a.png;jsessionid=…`), not in prose (`a;b=c`)
  const pathLike = out.search(/[/.\\]/);
  if (pathLike !== -1) out = out.replace(PATH_PARAMETER, (param, offset: number) => (offset > pathLike ? "" : param));
  // `user:password@host…`, also after a slash (`https:/user:pw@host`, a path joined to one): a
  // path segment with a `:` before its last `@` loses everything up to that `@`
  if (out.includes("@")) {
    let kept = "";
    let start = 0;
    for (let i = 0; i <= out.length; i++) {
      if (i < out.length && out[i] !== "/" && out[i] !== "\\") continue;
      const segment = out.slice(start, i);
      const at = segment.lastIndexOf("@");
      const lead = at === -1 ? 0 : /^[^A-Za-z0-9]*/.exec(segment)![0].length;
      const colon = at === -1 ? -1 : segment.indexOf(":", lead);
      kept += (colon !== -1 && colon < at ? segment.slice(0, lead) + segment.slice(at + 1) : segment) + (out[i] ?? "");
      start = i + 1;
    }
    out = kept;
  }
  return out;
}

/** Applies `redact` to `match` without its trailing sentence punctuation, then puts that back. */
function keepTrailing(match: string, redact: (text: string) => string): string {
  // A loop, not a `/[…]+$/` regex: that one backtracks quadratically on long punctuation runs.
  let end = match.length;
  while (end > 0 && TRAILING_PUNCTUATION.includes(match[end - 1]!)) end--;
  return redact(match.slice(0, end)) + match.slice(end);
}

/**
 * A JSON Pointer (RFC 6901) with each reference token redacted as the value it is (a field name
 * can be a signed URL), then escaped again; never the pointer's text, where a cut inside a `~1`
 * left `~` alone and the pointer invalid (`/a~1?x:@@~1b` lost `1?x:@@`). A text that is not a
 * pointer (no leading `/`) is redacted as text.
 *
 * @example redactPointer("/https:~1~1h.example~1a?sig=1") // "/https:~1~1h.example~1a"
 */
export function redactPointer(pointer: string, redact: (text: string) => string = redactUrlsInText): string {
  if (typeof pointer !== "string") return "";
  if (!pointer.startsWith("/")) return redact(pointer);
  // the fast path: unescaping adds only `/` and `~`, so no `~` and nothing to redact in the text is certain
  if (redact === redactUrlsInText && !pointer.includes("~") && !mayHoldSecret(pointer)) return pointer;
  let out = "";
  for (const raw of pointer.slice(1).split("/")) {
    const token = redact(raw.includes("~") ? raw.replace(/~1/g, "/").replace(/~0/g, "~") : raw);
    out += "/" + token.replace(/~/g, "~0").replace(/\//g, "~1");
  }
  return out;
}

/**
 * A JSON-like value with every string in it (object keys too) passed through `redact`, by default
 * {@link redactUrlsInText}: what a report holds is redacted as data, before it is serialized for
 * any format, never as finished text (issue 23.2: a redactor run on serialized JSON cut an escaped
 * quote and broke the document). The strings under a key of `pointerKeys` are JSON Pointers and
 * are redacted token by token ({@link redactPointer}). Returns a copy; the value is not changed.
 */
export function redactValues<T>(
  value: T,
  redact: (text: string) => string = redactUrlsInText,
  pointerKeys: ReadonlySet<string> = NO_KEYS,
): T {
  const walk = (v: unknown, pointer: boolean): unknown => {
    if (typeof v === "string") return pointer ? redactPointer(v, redact) : redact(v);
    if (Array.isArray(v)) return v.map((item) => walk(item, pointer));
    if (typeof v !== "object" || v === null) return v;
    const out: Record<string, unknown> = {};
    // defineProperty: a `__proto__` key from the data stays a key, never the copy's prototype
    for (const [key, item] of Object.entries(v))
      Object.defineProperty(out, redact(key), {
        value: walk(item, pointer || pointerKeys.has(key)),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return out;
  };
  return walk(value, false) as T;
}

const NO_KEYS: ReadonlySet<string> = new Set();
