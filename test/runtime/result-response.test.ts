/**
 * Spec 7.3: the result endpoint. Bodies are written as the raw text a client receives.
 */
import { describe, expect, it } from "vitest";
import {
  PredictionFailedError,
  readPrediction,
  readQueueStatus,
  readResultResponse,
  readWebhook,
  toPredictionFailedError,
  type ResultReading,
} from "../../src/runtime/index.js";

const details = {
  code: "service_provider_error",
  reason: "provider_unavailable",
  retryable: true,
  message: "The provider failed to serve the request",
  timestamp: "2026-09-04T12:00:00Z",
};
const predictionFailedBody = JSON.stringify({
  timestamp: "2026-09-04T12:05:31Z",
  error: { code: "PREDICTION_FAILED", message: details.message, details },
});

describe("spec 7.3: what a result response is", () => {
  const cases: [string, { status: number; body: string }, ResultReading["kind"]][] = [
    ["HTTP 400, PREDICTION_FAILED", { status: 400, body: predictionFailedBody }, "prediction_failed"],
    [
      "HTTP 400, generic error (queued, running or cancelled: spec 3 rule 4)",
      { status: 400, body: '{"error":{"code":"BAD_REQUEST","message":"not finished"}}' },
      "api_error",
    ],
    [
      "HTTP 401, an API request error",
      { status: 401, body: '{"error":{"code":"UNAUTHORIZED","message":"bad key"}}' },
      "api_error",
    ],
    ["HTTP 400, error object without a code", { status: 400, body: '{"error":{"message":"bad"}}' }, "api_error"],
    ["HTTP 502, plain text from the CDN edge", { status: 502, body: "Bad Gateway" }, "edge_error"],
    [
      "HTTP 504, HTML from the CDN edge",
      { status: 504, body: "<html><body>Gateway Timeout</body></html>" },
      "edge_error",
    ],
    ["HTTP 0, a dropped connection", { status: 0, body: "" }, "edge_error"],
    ["HTTP 500, an empty body", { status: 500, body: "" }, "edge_error"],
    ["HTTP 500, whitespace only", { status: 500, body: " \n" }, "edge_error"],
    ["HTTP 400, JSON without an error object", { status: 400, body: '{"detail":"nope"}' }, "edge_error"],
    ["HTTP 400, error a string", { status: 400, body: '{"error":"PREDICTION_FAILED"}' }, "edge_error"],
    ["HTTP 400, error null", { status: 400, body: '{"error":null}' }, "edge_error"],
    ["HTTP 400, JSON that is an array", { status: 400, body: "[1]" }, "edge_error"],
    ["HTTP 400, truncated JSON", { status: 400, body: '{"error":{"code":"PREDICTION_FA' }, "edge_error"],
    [
      "HTTP 200, the output",
      { status: 200, body: '{"video":{"url":"https://cdn.example/v.mp4"},"output_video_dur":5}' },
      "output",
    ],
    ["HTTP 200, not JSON", { status: 200, body: "OK" }, "edge_error"],
  ];
  it.each(cases)("%s", (_name, response, kind) => {
    expect(readResultResponse(response).kind).toBe(kind);
  });

  it("PREDICTION_FAILED: details read as the status endpoint's error, two timestamps kept apart", () => {
    const reading = readResultResponse({
      status: 400,
      headers: { "content-type": "application/json" },
      body: predictionFailedBody,
    });
    expect(reading).toEqual({
      kind: "prediction_failed",
      error: readPrediction({ status: "failed", error: details }).error,
      responseTimestamp: "2026-09-04T12:05:31Z",
      notes: [],
    });
    if (reading.kind === "prediction_failed") expect(reading.error.timestamp).toBe("2026-09-04T12:00:00Z");
  });

  it("PREDICTION_FAILED: open sets and defaults apply to details too", () => {
    const body = JSON.stringify({
      error: {
        code: "PREDICTION_FAILED",
        message: "m",
        details: { code: "new_code", reason: "new_reason", message: "m" },
      },
    });
    const reading = readResultResponse({ status: 400, body });
    expect(reading).toMatchObject({
      kind: "prediction_failed",
      error: {
        code: "internal_server_error",
        rawCode: "new_code",
        rawReason: "new_reason",
        retryable: false,
        retryableSource: "code-default",
      },
    });
    expect(reading).not.toHaveProperty("responseTimestamp");
  });

  it("PREDICTION_FAILED without details: error.message (which repeats the prediction's) under unknown_error_code", () => {
    const reading = readResultResponse({
      status: 400,
      body: '{"error":{"code":"PREDICTION_FAILED","message":"It failed"}}',
    });
    expect(reading).toMatchObject({
      kind: "prediction_failed",
      error: { code: "unknown_error_code", message: "It failed" },
    });
    expect(reading.notes.join(" ")).toMatch(/7\.3/);
  });

  it("api_error keeps code, message (redacted) and the top-level timestamp", () => {
    const body = '{"timestamp":"T","error":{"code":"NOT_FOUND","message":"no file at https://x.example/a?sig=1"}}';
    expect(readResultResponse({ status: 404, body })).toEqual({
      kind: "api_error",
      status: 404,
      code: "NOT_FOUND",
      message: "no file at https://x.example/a",
      timestamp: "T",
      notes: [],
    });
  });

  it("edge_error keeps the body text, URLs redacted, and says where it came from", () => {
    const reading = readResultResponse({
      status: 503,
      body: "Service Unavailable https://edge.example/x?token=s3cr3t",
    });
    expect(reading).toMatchObject({
      kind: "edge_error",
      status: 503,
      bodyText: "Service Unavailable https://edge.example/x",
    });
    expect(reading.notes.join(" ")).toMatch(/in front of the service \(spec 7\.3\)/);
  });

  it("headers never make a body JSON: a JSON content type with a plain-text body is an edge error", () => {
    expect(
      readResultResponse({ status: 502, headers: { "content-type": "application/json" }, body: "upstream reset" }).kind,
    ).toBe("edge_error");
  });
});

describe("spec 7.3: the error raised from the result call equals the one from a subscribed call", () => {
  const channels: [string, () => PredictionFailedError][] = [
    ["status record", () => toPredictionFailedError(readPrediction({ status: "failed", error: details }).error!)],
    [
      "queue update",
      () => toPredictionFailedError(readQueueStatus({ status: "failed", request_id: "r", error: details }).error!),
    ],
    ["webhook", () => toPredictionFailedError(readWebhook({ status: "failed", error: details }).error!)],
  ];
  const fromResult = (): PredictionFailedError => {
    const reading = readResultResponse({ status: 400, body: predictionFailedBody });
    if (reading.kind !== "prediction_failed") throw new Error(`expected prediction_failed, got ${reading.kind}`);
    return toPredictionFailedError(reading.error);
  };

  it.each(channels)("result response and %s give deeply equal errors", (_name, build) => {
    const a = fromResult();
    const b = build();
    expect(a).toBeInstanceOf(PredictionFailedError);
    expect(a).toBeInstanceOf(Error);
    expect(a).toEqual(b);
    expect({ ...a }).toEqual({ ...b });
    expect([a.name, a.message, a.code, a.reason, a.retryable, a.retryableSource, a.timestamp]).toEqual([
      b.name,
      b.message,
      b.code,
      b.reason,
      b.retryable,
      b.retryableSource,
      b.timestamp,
    ]);
  });

  it("the equality is not vacuous: a different retryable or reason makes the errors differ", () => {
    const other = toPredictionFailedError(
      readPrediction({ status: "failed", error: { ...details, retryable: false } }).error!,
    );
    const otherReason = toPredictionFailedError(
      readPrediction({ status: "failed", error: { ...details, reason: "provider_rate_limited" } }).error!,
    );
    expect(fromResult()).not.toEqual(other);
    expect(fromResult()).not.toEqual(otherReason);
  });

  it("carries code, reason and retryable of the prediction's own error", () => {
    const error = fromResult();
    expect(error).toMatchObject({
      name: "PredictionFailedError",
      message: details.message,
      code: "service_provider_error",
      reason: "provider_unavailable",
      retryable: true,
      retryableSource: "explicit",
    });
  });

  it("keeps a code-default retryable as a code default", () => {
    const read = readPrediction({ status: "failed", error: { code: "task_timeout", message: "m" } }).error!;
    expect(toPredictionFailedError(read).predictionError).toEqual(read);
  });

  it("does not throw on junk", () => {
    expect(toPredictionFailedError(null as never)).toMatchObject({ code: "unknown_error_code", retryable: false });
  });
});

describe("a body handed over already parsed (spec 7.3 wants the raw text)", () => {
  it("is read as the JSON text it stands for, with a note, so a prediction failure is not lost", () => {
    const reading = readResultResponse({
      status: 400,
      headers: {},
      body: {
        error: {
          code: "PREDICTION_FAILED",
          message: "m",
          details: { code: "task_timeout", message: "m", timestamp: "t" },
        },
      },
    } as never);
    expect(reading.kind).toBe("prediction_failed");
    expect(reading.notes.join(" ")).toMatch(/not the raw text of the body; read as the JSON text it stands for/);
  });
});
