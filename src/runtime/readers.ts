/**
 * Readers for the three channels that carry a prediction's status and error (spec 6.3): the
 * prediction status endpoints (spec 4.6), queue status updates (spec 6.1) and webhook deliveries
 * (spec 6.2). One reading for all three; the channel only changes which deviations are worth a note.
 */
import { readFailedError } from "./prediction-error.js";
import { redactUrlsInText } from "./redact.js";
import { clip, describe, field, isBag, isEmptyBag, thrownMessage } from "./safe.js";
import type { PredictionReading, PredictionStatus, ReadOptions } from "./types.js";

/** Statuses named by spec 3 that are not `failed`: their error must be null (spec 3 rule 2). */
const NOT_FAILED_STATUSES: ReadonlySet<PredictionStatus> = new Set(["queued", "running", "succeeded", "cancelled"]);

/** What differs between channels, as data. */
interface Channel {
  /** How a note names the input. */
  label: string;
  /** Whether spec 3 fixes the set of statuses on this channel (spec 6 leaves the queue's set unshown). */
  statusSetKnown: boolean;
  /** Note for `error: null` on a prediction that did not fail, or `undefined` when that is the norm. */
  nullErrorNote?: string;
  /** Note for `error: {}` on a prediction that did not fail. */
  emptyErrorNote: string;
}

const CHANNELS = {
  prediction: {
    label: "prediction record",
    statusSetKnown: true,
    emptyErrorNote: "error is {}, the form used before 17 August 2026; read as null (spec 9.2.1).",
  },
  queue: {
    label: "queue status update",
    statusSetKnown: false,
    emptyErrorNote: "error is {}; the queue status endpoint sends null; read as null (spec 9.2.1).",
  },
  webhook: {
    label: "webhook delivery",
    statusSetKnown: true,
    nullErrorNote:
      "error is null; a webhook delivery for a prediction that did not fail has no error key (spec 6.2). Tolerated.",
    emptyErrorNote:
      "error is {}; a webhook delivery for a prediction that did not fail has no error key (spec 6.2). Read as null.",
  },
} as const satisfies Record<string, Channel>;

/**
 * Reads a prediction record from `GET /v1/predictions/{id}` or the status endpoint (spec 2.4, 4.6).
 * `error: null`, a missing `error` and `error: {}` on a prediction that did not fail all read as
 * `error: null` (spec 9.2.1). Never throws.
 */
export function readPrediction(record: unknown, options?: ReadOptions): PredictionReading {
  return readChannel(record, CHANNELS.prediction, options);
}

/**
 * Reads a queue status update (spec 6.1): a status, a `request_id` and, on failure, the error
 * object. Status values the spec does not name are carried through. Never throws.
 */
export function readQueueStatus(update: unknown, options?: ReadOptions): PredictionReading {
  return readChannel(update, CHANNELS.queue, options);
}

/**
 * Reads a webhook delivery (spec 6.2): the error object on a failed prediction, no `error` key
 * otherwise (`error: null` is tolerated with a note). Never throws.
 */
export function readWebhook(delivery: unknown, options?: ReadOptions): PredictionReading {
  return readChannel(delivery, CHANNELS.webhook, options);
}

function readChannel(input: unknown, channel: Channel, options: ReadOptions | undefined): PredictionReading {
  try {
    return readChannelUnguarded(input, channel, safeOptions(options));
  } catch (thrown) {
    // Last resort: every access below is already guarded; this keeps the promise never to throw.
    return {
      status: "",
      failed: false,
      error: null,
      notes: [`The ${channel.label} could not be read (${clip(thrownMessage(thrown), 120)}).`],
    };
  }
}

function readChannelUnguarded(input: unknown, channel: Channel, options: ReadOptions): PredictionReading {
  const notes: string[] = [];
  if (!isBag(input)) {
    return {
      status: "",
      failed: false,
      error: null,
      notes: [`The ${channel.label} is ${describe(input)}, not a JSON object; there is no status or error to read.`],
    };
  }
  const statusField = field(input, "status");
  const status = typeof statusField.value === "string" ? statusField.value : "";
  if (typeof statusField.value !== "string")
    notes.push(
      `status is ${statusField.threw ? "unreadable" : statusField.present ? describe(statusField.value) : "missing"}; every ${channel.label} carries a status (spec 3, 6.1).`,
    );

  const requestIdField = field(input, "request_id");
  const requestId = typeof requestIdField.value === "string" ? requestIdField.value : undefined;

  const errorField = field(input, "error");
  if (errorField.threw) notes.push("error could not be read (reading it threw); treated as absent.");
  const errorValue = errorField.value;
  const errorIsEmpty = errorValue === undefined || errorValue === null || isEmptyBag(errorValue) || errorValue === "";

  let failed: boolean;
  if (status === "failed") {
    failed = true;
  } else if (NOT_FAILED_STATUSES.has(status)) {
    failed = false;
    if (!errorIsEmpty)
      notes.push(
        `status is ${status} but error is ${describe(errorValue)}; a prediction that did not fail carries error: null (spec 3 rule 2). The error was ignored.`,
      );
  } else {
    // Unknown or missing status (spec 3 names five; the queue's set is not shown, spec 6): carried
    // through. An error object means a failure; anything else is read as not failed.
    failed = !errorIsEmpty;
    if (status !== "" && (channel.statusSetKnown || failed))
      notes.push(
        `status ${JSON.stringify(clip(redactUrlsInText(status), 60))} is not one spec 3 names; carried through and read as ${failed ? "failed, because it carries an error" : "not failed"}.`,
      );
  }

  if (!failed && errorField.present) {
    if (errorValue === null && channel.nullErrorNote !== undefined) notes.push(channel.nullErrorNote);
    else if (isEmptyBag(errorValue)) notes.push(channel.emptyErrorNote);
  }

  const reading: PredictionReading = { status, failed, error: null, notes };
  if (requestId !== undefined) reading.requestId = requestId;
  if (failed) {
    const read = readFailedError(errorValue, "error", options);
    reading.error = read.error;
    notes.push(...read.notes);
  }
  return reading;
}

/** Options read defensively: a bad options value behaves as no options. */
export function safeOptions(options: unknown): ReadOptions {
  const defaults = field(options, "retryableDefaults").value;
  return isBag(defaults) ? { retryableDefaults: defaults } : {};
}
