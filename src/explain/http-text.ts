/**
 * An input that is not JSON (issue 42.3): the response as `curl -i` prints it (status line,
 * headers, a blank line, the body), or a raw body saved alone. Spec 7.3: a service error is always
 * JSON with an error object; a plain-text or HTML body came from in front of the service (a CDN
 * edge). This module only splits the text; `explanation.ts` reads what it holds.
 */

/** What a saved HTTP text holds: the last response's status (when it says one), headers and body. */
export interface HttpText {
  /** the HTTP status: from the status line, else from the body's own first words (`502 Bad Gateway…`) */
  status: number | undefined;
  /** the status line as printed (`HTTP/2 502`), when there was one */
  statusLine: string | undefined;
  /** where the status came from */
  statusFrom: "status line" | "body" | undefined;
  headers: Record<string, string>;
  body: string;
}

/** Bounds: a saved response is read as text whatever its size, but only this much as headers. */
const MAX_HEADER_LINES = 200;
const MAX_HEADER_BYTES = 64 * 1024;

/** `HTTP/1.1 502 Bad Gateway`, `HTTP/2 502` (curl prints a space after the code), `HTTP/1.0 200 OK`. */
const STATUS_LINE = /^HTTP\/\d(?:\.\d)? ([1-5]\d\d)(?: [^\r\n]*)?$/;
/** A body that starts with its status: `502 Bad Gateway: …`, `503 Service Unavailable`. */
const BODY_STATUS = /^\s*([1-5]\d\d) [A-Za-z]/;
/** An HTML error page's title: `<title>502 Bad Gateway</title>` (nginx, CDNs). */
const HTML_TITLE_STATUS = /<title>\s*([1-5]\d\d)\b/i;

/**
 * Splits a saved response: each `HTTP/…` header block is read in turn (curl -i prints a `100
 * Continue`, a proxy's `200 Connection established` or a redirect's block before the last), the
 * last one's headers kept, the rest is the body. Text without a status line is all body.
 */
export function readHttpText(text: string): HttpText {
  let rest = text;
  let statusLine: string | undefined;
  let status: number | undefined;
  let headers: Record<string, string> = {};
  for (;;) {
    const firstEnd = rest.indexOf("\n");
    const first = (firstEnd < 0 ? rest : rest.slice(0, firstEnd)).replace(/\r$/, "");
    const match = STATUS_LINE.exec(first.trimEnd());
    if (match === null) break;
    statusLine = first.trimEnd();
    status = Number(match[1]);
    headers = {};
    let at = firstEnd < 0 ? rest.length : firstEnd + 1;
    for (let lines = 0; at < rest.length && lines < MAX_HEADER_LINES && at < MAX_HEADER_BYTES; lines++) {
      const end = rest.indexOf("\n", at);
      const line = (end < 0 ? rest.slice(at) : rest.slice(at, end)).replace(/\r$/, "");
      at = end < 0 ? rest.length : end + 1;
      if (line === "") break;
      const colon = line.indexOf(":");
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    rest = rest.slice(at);
  }
  if (status !== undefined) return { status, statusLine, statusFrom: "status line", headers, body: rest };
  const fromBody = BODY_STATUS.exec(rest) ?? HTML_TITLE_STATUS.exec(rest.slice(0, 4096));
  return fromBody === null
    ? { status: undefined, statusLine: undefined, statusFrom: undefined, headers, body: rest }
    : { status: Number(fromBody[1]), statusLine: undefined, statusFrom: "body", headers, body: rest };
}
