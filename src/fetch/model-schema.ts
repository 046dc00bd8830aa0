/** One model's schema fetched from its source, checked to be JSON, secrets scrubbed from every error. */
import { jsonSyntaxError } from "../json/index.js";
import { FetchError, FetchUsageError } from "./errors.js";
import { httpGet } from "./http.js";
import { readLocal } from "./local.js";
import { resolveFetchOptions, type FetchOptions } from "./options.js";
import { REDACTED_MARK, redactUrlsInText } from "./redact.js";
import { describeSource, modelLocation, parseSchemaSource, type SchemaSource } from "./source.js";
import { MODEL_ID } from "../config/index.js";

export interface FetchedSchema {
  model: string;
  /** the body as fetched (a leading byte-order mark removed); what the snapshot stores */
  text: string;
  /** `text` parsed */
  document: unknown;
  /** where it came from, for messages and the manifest: query string, fragment and user info removed */
  source: string;
  /** HTTP status of the answer used; undefined for a local file */
  status?: number;
  attempts: number;
}

/**
 * Everything a command prints about fetching goes through this: no URL keeps its query string,
 * fragment or user info (spec 7.2 rule 3), and `VSK_API_KEY` is never shown (spec 5), whatever
 * the text holds (an echo from a server, a library's error message).
 */
export function scrubSecrets(text: string, env: Readonly<Record<string, string | undefined>> = process.env): string {
  const redacted = redactUrlsInText(text);
  const apiKey = env.VSK_API_KEY?.trim();
  return apiKey ? redacted.split(apiKey).join(REDACTED_MARK) : redacted;
}

/** Why a body is not JSON, without echoing it (it may come from anywhere in front of the host). */
function notJson(text: string): string {
  const start = text.trimStart();
  if (start === "") return "the body is empty";
  if (start.startsWith("<")) return "it looks like HTML or XML: an error page from a CDN edge or proxy?";
  const { line, column, problem } = jsonSyntaxError(text);
  return `invalid JSON at line ${line}, column ${column}: ${problem}`;
}

/**
 * Fetches one model's schema. Rejects with `FetchError` (model, redacted URL, status, retryable)
 * when it cannot be had or is not JSON, and with `FetchUsageError` for a bad source or setting.
 */
export async function fetchModelSchema(
  source: SchemaSource | string,
  modelId: string,
  options: FetchOptions = {},
): Promise<FetchedSchema> {
  if (!MODEL_ID.test(modelId)) throw new FetchUsageError(`model id "${modelId}" is not of the form <owner>/<name>`);
  const [owner, name] = modelId.split("/") as [string, string];
  const from = typeof source === "string" ? parseSchemaSource(source) : source;
  const o = resolveFetchOptions(options);
  const location = modelLocation(from, owner, name);
  const shown = from.kind === "directory" ? location : describeSource({ kind: "http", url: new URL(location) });
  const fail = (problem: string, extra: { status?: number; retryable?: boolean; attempts?: number } = {}): never => {
    throw new FetchError({ model: modelId, url: shown, problem, retryable: false, ...extra });
  };

  let text: string;
  let answer = ""; // "HTTP 200 with content-type text/html: " for messages about the body
  let status: number | undefined;
  let attempts = 1;
  if (from.kind === "directory") {
    const read = await readLocal(location, from.dir, o.maxBytes);
    text = "text" in read ? read.text : fail(read.problem);
  } else {
    const got = await httpGet(modelId, location, o);
    if (!("text" in got)) {
      const gaveUp = got.attempts > 1 ? ` (gave up after ${got.attempts} attempts)` : "";
      return fail(got.problem + gaveUp, {
        ...(got.status === undefined ? {} : { status: got.status }),
        retryable: got.retryable,
        attempts: got.attempts,
      });
    }
    ({ text, status, attempts } = got);
    answer = `HTTP ${status} with content-type ${got.contentType}: `;
  }
  text = text.replace(/^\uFEFF/, "");
  let document: unknown;
  try {
    // The content-type is not checked: raw file hosts serve JSON as text/plain. The body decides.
    document = JSON.parse(text);
  } catch {
    fail(`${answer}the body is not JSON (${notJson(text)})`, {
      ...(status === undefined ? {} : { status }),
      attempts,
    });
  }
  return { model: modelId, text, document, source: shown, ...(status === undefined ? {} : { status }), attempts };
}
