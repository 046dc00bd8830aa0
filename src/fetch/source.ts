/**
 * Where schemas come from: `{schema_url}` of spec 9.1 written as an `http(s)://` URL, a
 * `file://` URL, or a plain directory laid out as a mirror (`<dir>/main/<owner>/<name>/latest.json`).
 */
import { isAbsolute, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { FetchUsageError } from "./errors.js";
import { redactUrl, redactUrlsInText } from "./redact.js";

export type SchemaSource =
  | { kind: "http"; /** as given, query string kept for presigned mirrors */ url: URL }
  | { kind: "directory"; /** absolute path of the mirror's root */ dir: string };

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//;
/** `\\server\share` with anything below it (`\\?\UNC\…` and `\\.\…` device paths included). */
const UNC = /^\\\\[^\\/]+\\[^\\/]+/;

/**
 * Reads a schema URL as typed by a user. A relative directory is resolved against `baseDir`.
 * Throws `FetchUsageError` (a usage error) for another scheme or credentials in the URL.
 */
export function parseSchemaSource(
  text: string,
  baseDir: string = process.cwd(),
  separator: string = sep,
): SchemaSource {
  const value = text.trim();
  if (value === "") throw new FetchUsageError("the schema URL is empty");
  const scheme = SCHEME.exec(value)?.[1]?.toLowerCase() ?? (/^file:/i.test(value) ? "file" : undefined);
  // On Windows `\\server\share\…` (UNC) is a directory on a file share, not a web address.
  if (scheme === undefined && separator === "\\" && UNC.test(value)) return { kind: "directory", dir: value };
  if (scheme === undefined) {
    // A web address written wrong (`https:user:pw@host`, `//host/…`, `user:pw@host`) is not a
    // directory: refused without echoing it, so its credentials are never printed (spec 7.2 rule 3).
    if (/^https?:(?![\\/]{2})/i.test(value) || /^[\\/]{2}/.test(value))
      throw new FetchUsageError(
        `the schema URL ${redactUrlsInText(value)} is not a valid web address; write https://host/path, or a directory path`,
      );
    if (/:[^/\\]*@/.test(value))
      throw new FetchUsageError(
        `the schema URL looks like a web address with user info (user:password@…), which is not supported; write https://host/path and set VSK_API_KEY for "Authorization: Key <key>" (spec 5)`,
      );
    return { kind: "directory", dir: isAbsolute(value) ? value : resolve(baseDir, value) };
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new FetchUsageError(`${redactUrl(value)} is not a valid URL`);
  }
  if (scheme === "file") {
    url.search = "";
    url.hash = "";
    try {
      return { kind: "directory", dir: fileURLToPath(url) };
    } catch (error) {
      throw new FetchUsageError(`${url.href}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (scheme !== "http" && scheme !== "https") {
    throw new FetchUsageError(
      `${redactUrl(value)}: unsupported scheme "${scheme}:"; use https://, http://, file:// or a directory path`,
    );
  }
  if (url.username !== "" || url.password !== "") {
    throw new FetchUsageError(
      `${redactUrl(value)}: credentials in the URL are not supported; set VSK_API_KEY for "Authorization: Key <key>" (spec 5)`,
    );
  }
  return { kind: "http", url };
}

/**
 * The location of one model's schema (spec 9.1: `{schema_url}/main/{owner}/{name}/latest.json`).
 * An HTTP source keeps its query string (a presigned mirror needs it); the fragment is dropped.
 */
export function modelLocation(source: SchemaSource, owner: string, name: string): string {
  const tail = ["main", owner, name, "latest.json"];
  if (source.kind === "directory") return join(source.dir, ...tail);
  const url = new URL(source.url.href);
  url.hash = "";
  url.pathname = url.pathname.replace(/\/+$/, "") + "/" + tail.map(encodeURIComponent).join("/");
  return url.href;
}

/** The source as it may be printed or recorded: no query string, fragment or user info. */
export function describeSource(source: SchemaSource): string {
  return source.kind === "directory" ? source.dir : redactUrl(source.url.href);
}
