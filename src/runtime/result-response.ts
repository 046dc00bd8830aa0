/**
 * Reads a response of the result endpoint (spec 7.3). The body is never assumed to be JSON: a
 * service error is always JSON with an `error` object, and anything else came from in front of
 * the service (a CDN edge, a dropped connection).
 */
import { readFailedError, readFailedErrorFromMessage } from "./prediction-error.js";
import { safeOptions } from "./readers.js";
import { redactUrlsInText } from "./redact.js";
import { clip, describe, field, isBag, isEmptyBag, thrownMessage } from "./safe.js";
import type { ReadOptions, ResultReading } from "./types.js";

/** The code of the result endpoint's error object for a failed prediction (spec 7.3). */
export const PREDICTION_FAILED = "PREDICTION_FAILED";

/**
 * Classifies a result endpoint response (spec 7.3):
 * - JSON with an `error` object whose `code` is `PREDICTION_FAILED` → `prediction_failed`, with
 *   `error.details` read exactly as the status endpoint's error and `responseTimestamp` the
 *   top-level `timestamp` (when the response was produced, not when the prediction failed),
 *   found at the body's root or inside `error` next to `code`;
 * - any other JSON with an `error` object → `api_error` (this covers the generic 400 for a
 *   queued, running or cancelled prediction, spec 3 rule 4);
 * - a 2xx JSON body without an `error` object → `output`;
 * - everything else (non-JSON, empty, JSON without an `error` object, `error` a string) →
 *   `edge_error`.
 * Never throws.
 */
export function readResultResponse(response: unknown, options?: ReadOptions): ResultReading {
  try {
    return readUnguarded(response, safeOptions(options));
  } catch (thrown) {
    return {
      kind: "edge_error",
      status: 0,
      bodyText: "",
      notes: [`The response could not be read (${clip(thrownMessage(thrown), 120)}).`],
    };
  }
}

function readUnguarded(response: unknown, options: ReadOptions): ResultReading {
  const notes: string[] = [];
  if (!isBag(response)) {
    return {
      kind: "edge_error",
      status: 0,
      bodyText: "",
      notes: [
        `The response is ${describe(response)}, not an object with status and body; read as a dropped connection.`,
      ],
    };
  }
  const statusValue = field(response, "status").value;
  const status = typeof statusValue === "number" && Number.isInteger(statusValue) ? statusValue : 0;
  if (status !== statusValue)
    notes.push(
      `status is ${statusValue === undefined ? "missing" : describe(statusValue)}, not an HTTP status; read as 0.`,
    );

  const bodyValue = field(response, "body").value;
  // The body should be the raw text. A body already parsed (an object, as some HTTP clients
  // hand it over) is read as the text it came from, with a note, rather than thrown away.
  let bodyText = "";
  if (typeof bodyValue === "string") bodyText = bodyValue;
  else if (typeof bodyValue === "object" && bodyValue !== null) {
    try {
      bodyText = JSON.stringify(bodyValue) ?? "";
      notes.push(`body is ${describe(bodyValue)}, not the raw text of the body; read as the JSON text it stands for.`);
    } catch {
      notes.push(`body is ${describe(bodyValue)} that cannot be written as JSON; read as empty.`);
    }
  } else if (bodyValue !== undefined)
    notes.push(`body is ${describe(bodyValue)}, not the raw text of the body; read as empty.`);

  const edge = (why: string): ResultReading => ({
    kind: "edge_error",
    status,
    bodyText: redactUrlsInText(bodyText),
    notes: [
      ...notes,
      `${why}; a service error is always JSON with an error object, so this came from in front of the service (spec 7.3).`,
    ],
  });

  if (bodyText.trim() === "") return edge("The body is empty");
  let parsed: unknown;
  try {
    parsed = JSON.parse(bodyText);
  } catch {
    return edge("The body is not JSON");
  }

  const errorValue = field(parsed, "error").value;
  const success = status >= 200 && status < 300;
  if (!isBag(errorValue)) {
    if (success) return { kind: "output", output: parsed, notes };
    return edge(
      isBag(parsed)
        ? `The body is JSON whose error is ${errorValue === undefined ? "missing" : describe(errorValue)}, not an object`
        : `The body is JSON but ${describe(parsed)}, not an object`,
    );
  }

  const code = field(errorValue, "code").value;
  const message = field(errorValue, "message").value;
  // spec 7.3: "the top-level timestamp is when this HTTP response was produced". Services put it
  // at the body's root or inside `error` next to `code`; both are read, the root first.
  const rootTimestamp = field(parsed, "timestamp").value;
  const errorTimestamp = field(errorValue, "timestamp").value;
  const timestamp = typeof rootTimestamp === "string" ? rootTimestamp : errorTimestamp;
  if (typeof rootTimestamp === "string" && typeof errorTimestamp === "string" && rootTimestamp !== errorTimestamp)
    notes.push(
      `The response has two timestamps, ${describe(rootTimestamp)} at the root and ${describe(errorTimestamp)} in error; the root one is read as the response's (spec 7.3).`,
    );
  if (code === PREDICTION_FAILED) {
    if (status !== 400)
      notes.push(`A PREDICTION_FAILED error came with HTTP ${status}; the service sends 400 (spec 7.3).`);
    const details = field(errorValue, "details").value;
    const read =
      (!isBag(details) || isEmptyBag(details)) && typeof message === "string" && message.trim() !== ""
        ? readFailedErrorFromMessage(message, "error.details", details, options)
        : readFailedError(details, "error.details", options);
    return {
      kind: "prediction_failed",
      error: read.error,
      ...(typeof timestamp === "string" ? { responseTimestamp: timestamp } : {}),
      notes: [...notes, ...read.notes],
    };
  }

  if (success) notes.push(`An error object came with HTTP ${status}; read as an API request error.`);
  return {
    kind: "api_error",
    status,
    ...(typeof code === "string" ? { code } : {}),
    ...(typeof message === "string" ? { message: redactUrlsInText(message) } : {}),
    ...(typeof timestamp === "string" ? { timestamp } : {}),
    notes,
  };
}
