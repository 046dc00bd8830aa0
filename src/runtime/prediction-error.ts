/**
 * Reads one error object (spec 2.4) of a prediction known to have failed, exactly the same way
 * whichever channel carried it (spec 6.3, 7.3): the status endpoints, queue updates, webhooks, or
 * `error.details` of the result endpoint.
 */
import { isKnownCode, normalizeCode } from "./codes.js";
import { redactUrlsInText } from "./redact.js";
import { isKnownReason } from "./reasons.js";
import { defaultRetryable } from "./retryable.js";
import { clip, describe, field, isBag, isEmptyBag } from "./safe.js";
import type { PredictionError, ReadOptions } from "./types.js";

/** The message of a failure that carried none (spec 9.2.2 "a generic message"). */
export const GENERIC_FAILURE_MESSAGE = "The prediction failed; the service gave no message.";

/** A read error and the notes gathered while reading it. */
export interface ErrorObjectReading {
  error: PredictionError;
  notes: string[];
}

/**
 * Reads the error of a failed prediction. `value` is whatever sat in the error field; `where` names
 * that field in notes (`error`, `error.details`). Never throws.
 *
 * - a missing, `null` or `{}` error: `unknown_error_code` and a generic message (spec 9.2.2), noted;
 * - a plain-text error: its text under `unknown_error_code` (spec 9.2.3), noted;
 * - an object: each field read by {@link buildPredictionError}.
 */
export function readFailedError(value: unknown, where: string, options: ReadOptions = {}): ErrorObjectReading {
  if (typeof value === "string" && value.trim() !== "") {
    return {
      error: buildPredictionError({ rawCode: "", message: value }, options),
      notes: [`${where} is plain text; read as the message under unknown_error_code (spec 9.2.3).`],
    };
  }
  if (!isBag(value) || isEmptyBag(value)) {
    return {
      error: buildPredictionError({ rawCode: "" }, options),
      notes: [
        `The prediction failed but ${where} is ${value === undefined ? "missing" : isEmptyBag(value) ? "{}" : describe(value)}; ` +
          "a failure always carries an error object with a non-empty code and message (spec 3 rule 1, 9.2.2). " +
          "Read as unknown_error_code with a generic message.",
      ],
    };
  }
  const notes: string[] = [];
  const read = (key: string): unknown => {
    const f = field(value, key);
    if (f.threw) notes.push(`${where}.${key} could not be read (reading it threw); treated as absent.`);
    return f.value;
  };

  const code = read("code");
  let rawCode = "";
  if (typeof code === "string") {
    rawCode = code;
    if (code === "")
      notes.push(
        `${where}.code is empty; a failure always carries a non-empty code (spec 9.2.2). Read as unknown_error_code.`,
      );
    else if (!isKnownCode(code))
      notes.push(
        `${where}.code ${quote(code)} is not a code the spec names; read as internal_server_error, raw value kept in rawCode (spec 7.2, open sets).`,
      );
  } else {
    notes.push(
      `${where}.code is ${code === undefined ? "missing" : describe(code)}; a failure always carries a non-empty code (spec 2.4, 9.2.2). Read as unknown_error_code.`,
    );
  }

  const reason = read("reason");
  let rawReason: string | undefined;
  if (typeof reason === "string") {
    rawReason = reason;
    if (reason !== "" && !isKnownReason(reason))
      notes.push(
        `${where}.reason ${quote(reason)} is not a reason the spec names; read as absent, raw value kept in rawReason (spec 7.2, open sets).`,
      );
  } else if (reason !== undefined) {
    notes.push(`${where}.reason is ${describe(reason)}, not a string; read as absent (spec 2.4).`);
  }

  const retryable = read("retryable");
  if (retryable !== undefined && typeof retryable !== "boolean")
    notes.push(`${where}.retryable is ${describe(retryable)}, not a boolean; the per-code default applies (spec 7.2).`);

  const message = read("message");
  if (typeof message !== "string" || message.trim() === "")
    notes.push(
      `${where}.message is ${message === undefined ? "missing" : describe(message)}; a failure always carries a non-empty message (spec 2.4, 9.2.2). A generic message is used.`,
    );
  else if (redactUrlsInText(message) !== message)
    notes.push(
      `${where}.message carried a URL query string, fragment or user info, or a secret (a key, a token); removed (spec 7.2 rule 3).`,
    );

  const timestamp = read("timestamp");
  if (timestamp === undefined) notes.push(`${where}.timestamp is missing (spec 2.4 requires it).`);

  return {
    error: buildPredictionError({ rawCode, rawReason, retryable, message, timestamp }, options),
    notes,
  };
}

/**
 * The result endpoint's error without usable `details` but with `error.message`, which repeats the
 * prediction's message (spec 7.3): that message under `unknown_error_code`, noted. Never throws.
 */
export function readFailedErrorFromMessage(
  message: string,
  where: string,
  details: unknown,
  options: ReadOptions = {},
): ErrorObjectReading {
  return {
    error: buildPredictionError({ rawCode: "", message }, options),
    notes: [
      `${where} is ${details === undefined ? "missing" : isEmptyBag(details) ? "{}" : describe(details)}; it should be the prediction's own error object (spec 7.3). ` +
        "Read as unknown_error_code with the message of the response's error.",
    ],
  };
}

/** The raw fields of an error object, already pulled out of the input. */
interface RawErrorFields {
  rawCode: string;
  rawReason?: string | undefined;
  retryable?: unknown;
  message?: unknown;
  timestamp?: unknown;
}

/**
 * Builds the `PredictionError` for already-extracted fields, applying spec 7.2: open-set code and
 * reason, `retryable` sent or the per-code default, the message redacted. Keys are set in a fixed
 * order and absent ones are omitted, so equal inputs give deeply equal (and equally serialised)
 * values.
 */
export function buildPredictionError(raw: RawErrorFields, options: ReadOptions = {}): PredictionError {
  const code = normalizeCode(raw.rawCode);
  const explicit = typeof raw.retryable === "boolean";
  const timestamp =
    typeof raw.timestamp === "string"
      ? raw.timestamp
      : typeof raw.timestamp === "number" && Number.isFinite(raw.timestamp)
        ? String(raw.timestamp)
        : undefined;
  return {
    code,
    rawCode: raw.rawCode,
    ...(isKnownReason(raw.rawReason) ? { reason: raw.rawReason } : {}),
    ...(raw.rawReason !== undefined ? { rawReason: raw.rawReason } : {}),
    retryable: explicit ? (raw.retryable as boolean) : defaultRetryable(code, options.retryableDefaults),
    retryableSource: explicit ? "explicit" : "code-default",
    message: shownMessage(raw.message),
    ...(timestamp !== undefined ? { timestamp } : {}),
  };
}

/**
 * The message a reading carries: the service's, redacted; the generic one when there is none or
 * when nothing is left once redacted (a message that was only a query string, `?token=…`).
 */
function shownMessage(message: unknown): string {
  const shown = typeof message === "string" ? redactUrlsInText(message) : "";
  return shown.trim() !== "" ? shown : GENERIC_FAILURE_MESSAGE;
}

/** A raw value quoted for a note: JSON-quoted, clipped, URLs redacted. */
function quote(text: string): string {
  return JSON.stringify(clip(redactUrlsInText(text), 80));
}
