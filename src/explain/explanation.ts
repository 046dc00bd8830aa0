/**
 * What a prediction record, webhook, queue update or result response means: the kind detected,
 * the Explanation built from the runtime's reading, and its text form (spec 7.2, 7.3).
 */
import {
  adviseOnFailure,
  PREDICTION_FAILED,
  readPrediction,
  readQueueStatus,
  readResultResponse,
  readWebhook,
  redactUrl,
  redactUrlsInText,
  REASONS,
  type PredictionError,
  type PredictionReading,
  type ResultReading,
} from "../runtime/index.js";
import { terminalText } from "../escape/index.js";
import { readHttpText } from "./http-text.js";

/** The kinds of input `vsk explain` reads. */
export type InputKind = "prediction" | "webhook" | "queue_update" | "result_response";

const KIND_LABELS: Record<InputKind, string> = {
  prediction: "prediction record",
  webhook: "webhook delivery",
  queue_update: "queue status update",
  result_response: "result endpoint response",
};

/** What `--format json` prints: one object. */
export interface Explanation {
  source: string;
  input: InputKind;
  /** Why the input was read as this kind. */
  detectedBy: string;
  /** The prediction's status, as sent; null for a result response. */
  status: string | null;
  /** For a result response: the HTTP status and what it was read as. */
  httpStatus?: number;
  resultKind?: ResultReading["kind"];
  failed: boolean;
  /** One sentence for a person. */
  summary: string;
  error: PredictionError | null;
  /** Whether to submit the identical request again; null when no failure was read. */
  retry: boolean | null;
  retryWhy: string | null;
  /** What the reason means (spec 7.2), when known. */
  meaning: string | null;
  /** What to do. */
  action: string;
  requestId?: string;
  responseTimestamp?: string;
  apiError?: { code?: string; message?: string; timestamp?: string };
  /** The start of a body that did not come from the service, URLs redacted. */
  bodyExcerpt?: string;
  notes: string[];
}

/** An `error` object that only the result endpoint sends (spec 7.3): `PREDICTION_FAILED`, or `details`. */
function resultEndpointError(value: Record<string, unknown>): boolean {
  const error = value.error;
  if (typeof error !== "object" || error === null || Array.isArray(error)) return false;
  const bag = error as Record<string, unknown>;
  return bag.code === PREDICTION_FAILED || "details" in bag;
}

/**
 * Detection, in order: the first test that matches decides (overridden by `--as`). The fields that
 * tell the channels apart (docs/queue.md): a result response has an HTTP status and a body, or, saved
 * raw, an error only the result endpoint sends and no prediction status; a queue update carries
 * `queue_position` or `logs`; a webhook delivery carries `payload`, and on success no `error` key
 * at all (spec 6.2); a `request_id` alone marks a queue update (spec 6.1).
 */
const DETECTORS: { kind: InputKind; why: string; test: (value: Record<string, unknown>) => boolean }[] = [
  {
    kind: "result_response",
    why: "it has a numeric status and a body",
    test: (v) => typeof v.status === "number" && "body" in v,
  },
  {
    kind: "result_response",
    why: "it is a result endpoint body saved without its HTTP status (an error object with PREDICTION_FAILED or details, spec 7.3)",
    test: (v) => typeof v.status !== "string" && resultEndpointError(v),
  },
  {
    kind: "queue_update",
    why: "it carries queue_position or logs, which only queue status updates have (spec 6.1)",
    test: (v) => "queue_position" in v || "logs" in v,
  },
  {
    kind: "webhook",
    why: "it carries a payload, as webhook deliveries do (spec 6.2)",
    test: (v) => "payload" in v,
  },
  {
    kind: "webhook",
    why: "it is a succeeded prediction without an error key, as webhook deliveries send it (spec 6.2)",
    test: (v) => v.status === "succeeded" && !("error" in v),
  },
  { kind: "queue_update", why: "it carries a request_id (spec 6.1)", test: (v) => typeof v.request_id === "string" },
  { kind: "prediction", why: "nothing marks it as a result response, queue update or webhook", test: () => true },
];

/** Words for a prediction that did not fail, per status (spec 3). */
const STATUS_WORDS: Record<string, { summary: string; action: string }> = {
  queued: {
    summary: "Not failed: the prediction is waiting in the queue.",
    action: "Wait: poll the status endpoint or subscribe to queue updates.",
  },
  running: {
    summary: "Not failed: the prediction is running.",
    action: "Wait: poll the status endpoint or subscribe to queue updates.",
  },
  succeeded: { summary: "Not failed: the prediction succeeded.", action: "Fetch the output from the result endpoint." },
  cancelled: {
    summary: "Not failed: the prediction was cancelled.",
    action: "Submit the request again if you still want the video.",
  },
};

const UNKNOWN_STATUS_ACTION =
  "Treat it as not finished: keep polling the status endpoint; the status set is open, so a newer client may know this value.";

/** The order of keys in `--format json`: what a reader wants first, notes last. */
const KEY_ORDER: (keyof Explanation)[] = [
  "source",
  "input",
  "detectedBy",
  "status",
  "httpStatus",
  "resultKind",
  "failed",
  "summary",
  "error",
  "retry",
  "retryWhy",
  "meaning",
  "action",
  "requestId",
  "responseTimestamp",
  "apiError",
  "bodyExcerpt",
  "notes",
];

export function orderKeys(explanation: Explanation): Explanation {
  const entries = KEY_ORDER.filter((key) => explanation[key] !== undefined).map((key) => [key, explanation[key]]);
  return Object.fromEntries(entries) as Explanation;
}

/** Builds the explanation of one input value. */
export function explain(value: unknown, source: string, forced: InputKind | undefined): Explanation {
  const bag =
    typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  const detector = DETECTORS.find((d) => d.test(bag)) ?? DETECTORS[DETECTORS.length - 1]!;
  const input = forced ?? detector.kind;
  const detectedBy = forced !== undefined ? "--as" : detector.why;
  if (input === "result_response") {
    if (typeof bag.status === "number" && "body" in bag) {
      const httpStatus = Number.isInteger(bag.status) ? bag.status : 0;
      return explainResult(readResultResponse(value), httpStatus, source, detectedBy);
    }
    // A raw body (saved with curl, without `{status, headers, body}`): the service answers
    // PREDICTION_FAILED with 400 (spec 7.3); any other status is unknown and said so.
    const failed = resultEndpointError(bag) && (bag.error as Record<string, unknown>).code === PREDICTION_FAILED;
    const httpStatus = failed ? 400 : 0;
    const body = JSON.stringify(value) ?? "";
    const explanation = explainResult(readResultResponse({ status: httpStatus, body }), httpStatus, source, detectedBy);
    explanation.notes.push(
      failed
        ? "The input is a result endpoint body without its HTTP status; read as the 400 the service sends with PREDICTION_FAILED (spec 7.3)."
        : "The input is a result endpoint body without its HTTP status; save the response as {status, headers, body} for a full reading.",
    );
    return explanation;
  }
  const reader = { prediction: readPrediction, webhook: readWebhook, queue_update: readQueueStatus }[input];
  return explainReading(reader(value), input, source, detectedBy);
}

/**
 * An input that is not JSON (issue 42.3): `curl -i` output (status line, headers, body) or a raw
 * body saved alone, read as a result endpoint response (spec 7.3: a plain-text or HTML body came
 * from in front of the service). The HTTP status is the status line's, else the body's own first
 * words (`502 Bad Gateway: …`), else unknown (then `httpStatus` is absent).
 */
export function explainText(text: string, source: string): Explanation {
  const http = readHttpText(text);
  const headerCount = Object.keys(http.headers).length;
  const detectedBy =
    http.statusLine !== undefined
      ? `it is an HTTP response as \`curl -i\` prints it (${http.statusLine}, ${headerCount} header${headerCount === 1 ? "" : "s"}), not JSON`
      : `it is not JSON: a raw response body${http.status !== undefined ? ` that starts with its status, HTTP ${http.status}` : ""}, which the service never sends (a service error is always JSON with an error object, spec 7.3)`;
  const reading = readResultResponse({ status: http.status ?? 0, body: http.body });
  const explanation = explainResult(reading, http.status, source, detectedBy);
  if (http.status === undefined)
    explanation.notes.push(
      "No HTTP status was saved with the body; `curl -i` (or {status, headers, body}) keeps it for a full reading.",
    );
  else if (http.statusFrom === "body")
    explanation.notes.push(
      `The HTTP status ${http.status} is read from the body's own words; no status line was saved.`,
    );
  return explanation;
}

function explainReading(reading: PredictionReading, input: InputKind, source: string, detectedBy: string): Explanation {
  const base = {
    source,
    input,
    detectedBy,
    status: reading.status,
    failed: reading.failed,
    ...(reading.requestId !== undefined ? { requestId: reading.requestId } : {}),
    notes: reading.notes,
  };
  if (reading.error !== null) return { ...base, ...failure(reading.error) };
  const words =
    STATUS_WORDS[reading.status] ??
    (reading.status === ""
      ? {
          summary: "No status to read.",
          action:
            "Check that the input is a prediction record, a queue status update, a webhook delivery or a saved result response.",
        }
      : {
          summary: `Not failed: status ${JSON.stringify(reading.status)} is not one the spec names, and it carries no error.`,
          action: UNKNOWN_STATUS_ACTION,
        });
  return {
    ...base,
    summary: words.summary,
    error: null,
    retry: null,
    retryWhy: null,
    meaning: null,
    action: words.action,
  };
}

/** The failure fields of an explanation. */
function failure(
  error: PredictionError,
): Pick<Explanation, "summary" | "error" | "retry" | "retryWhy" | "meaning" | "action"> {
  const advice = adviseOnFailure(error);
  return {
    summary: "Failed: the prediction ended in failure. A failed prediction is not charged (spec 1, 3).",
    error,
    retry: advice.retry,
    retryWhy: advice.retryWhy,
    meaning: advice.meaning ?? null,
    action: advice.action,
  };
}

/** Explanations per result kind other than prediction_failed (spec 7.3). */
function explainResult(
  reading: ResultReading,
  httpStatus: number | undefined,
  source: string,
  detectedBy: string,
): Explanation {
  const base = {
    source,
    input: "result_response" as const,
    detectedBy,
    status: null,
    ...(httpStatus === undefined ? {} : { httpStatus }),
    resultKind: reading.kind,
    notes: reading.notes,
  };
  const noFailure = { failed: false, error: null, retry: null, retryWhy: null, meaning: null };
  switch (reading.kind) {
    case "prediction_failed":
      return {
        ...base,
        failed: true,
        ...failure(reading.error),
        ...(reading.responseTimestamp !== undefined ? { responseTimestamp: reading.responseTimestamp } : {}),
      };
    case "output":
      return {
        ...base,
        ...noFailure,
        summary: `Not failed: the result endpoint returned the output.${describeVideo(reading.output)}`,
        action: "Use the output.",
      };
    case "api_error":
      return {
        ...base,
        ...noFailure,
        apiError: {
          ...(reading.code !== undefined ? { code: reading.code } : {}),
          ...(reading.message !== undefined ? { message: reading.message } : {}),
          ...(reading.timestamp !== undefined ? { timestamp: reading.timestamp } : {}),
        },
        summary: `Not a prediction failure: the service answered HTTP ${reading.status} with API error ${reading.code ?? "(no code)"}${reading.message !== undefined ? `: ${reading.message}` : ""}.`,
        action:
          reading.status === 400
            ? "If this came from the result endpoint for a prediction that is still queued or running, or was cancelled, it is the generic 400 (spec 3 rule 4): check the prediction's status and ask for the result once it has succeeded."
            : "An API request error (authentication, billing, a malformed request or a missing resource, spec 7): fix the call. This response says nothing about the prediction itself.",
      };
    case "edge_error":
      return {
        ...base,
        ...noFailure,
        bodyExcerpt: reading.bodyText.length > 200 ? `${reading.bodyText.slice(0, 199)}…` : reading.bodyText,
        summary: `Not from the service: ${httpStatus === undefined ? "a response body with no HTTP status saved" : `HTTP ${reading.status} with ${reading.bodyText === "" ? "no body" : "a body"}`}${reading.bodyText === "" ? "" : " that is not a service error"}, so it came from in front of the service (a CDN edge or a dropped connection, spec 7.3). It says nothing about the prediction.`,
        action:
          "Ask again with backoff; if it keeps happening (it reproduces on long-running or unusually shaped requests), read the prediction's status endpoint instead. Never parse such a body as JSON.",
      };
  }
}

function describeVideo(output: unknown): string {
  const video = typeof output === "object" && output !== null ? (output as { video?: unknown }).video : undefined;
  if (typeof video !== "object" || video === null) return "";
  const { url, content_type: type } = video as { url?: unknown; content_type?: unknown };
  return typeof url === "string" ? ` Video: ${redactUrl(url)}${typeof type === "string" ? ` (${type})` : ""}.` : "";
}

/** The text form: one labelled line per fact, notes last. */
export function renderText(e: Explanation): string {
  const how = e.detectedBy === "--as" ? "as asked with --as" : `because ${e.detectedBy}; --as chooses another reading`;
  const lines: string[] = [
    `${e.source}: read as a ${KIND_LABELS[e.input]}${e.httpStatus !== undefined ? ` (HTTP ${e.httpStatus})` : ""}, ${how}`,
    "",
    e.summary,
  ];
  const row = (label: string, text: string): void => {
    lines.push(`  ${label.padEnd(11)} ${text}`);
  };
  if (e.status !== null) row("status", e.status === "" ? "(none)" : e.status);
  if (e.error !== null) {
    const err = e.error;
    row(
      "code",
      err.code === err.rawCode
        ? err.code
        : err.rawCode === ""
          ? `${err.code} (no code was sent)`
          : `${err.code} (sent ${JSON.stringify(err.rawCode)}, a code the spec does not name)`,
    );
    row(
      "reason",
      err.reason !== undefined
        ? `${err.reason}: ${REASONS[err.reason].meaning}`
        : err.rawReason !== undefined && err.rawReason !== ""
          ? `(unknown: sent ${JSON.stringify(err.rawReason)}, read as absent, spec 7.2)`
          : "(none sent)",
    );
    row("message", err.message);
    if (err.timestamp !== undefined) row("failed at", err.timestamp);
    row("retry", `${e.retry === true ? "yes" : "no"}: ${e.retryWhy ?? ""}`);
  }
  if (e.apiError !== undefined) {
    if (e.apiError.code !== undefined) row("code", e.apiError.code);
    if (e.apiError.message !== undefined) row("message", e.apiError.message);
  }
  if (e.bodyExcerpt !== undefined) row("body", e.bodyExcerpt === "" ? "(empty)" : JSON.stringify(e.bodyExcerpt));
  if (e.requestId !== undefined) row("request_id", e.requestId);
  if (e.responseTimestamp !== undefined) row("responded", e.responseTimestamp);
  row("what to do", e.action);
  if (e.notes.length > 0) {
    lines.push("", "Notes:");
    for (const note of e.notes) lines.push(`  - ${redactUrlsInText(note)}`);
  }
  // each entry is one line of ours, with data (a message, a code, a file name) inside: shown, never acted on
  return lines.map(terminalText).join("\n") + "\n";
}
