/**
 * One table per rule of issue 6, inputs written from the spec sections they cite.
 */
import { describe, expect, it } from "vitest";
import {
  GENERIC_FAILURE_MESSAGE,
  readPrediction,
  readQueueStatus,
  readWebhook,
  type PredictionError,
  type PredictionReading,
} from "../../src/runtime/index.js";

const failure = {
  code: "invalid_input",
  reason: "input_validation_failed",
  retryable: false,
  message: "prompt: must not be empty",
  timestamp: "2026-09-01T00:00:00Z",
};

describe("spec 9.2.1: error null, missing and {} on a prediction that did not fail are the same", () => {
  const cases: [string, unknown][] = [
    ["error: null", { status: "succeeded", error: null }],
    ["error missing", { status: "succeeded" }],
    ["error: {} (before 17 August 2026)", { status: "succeeded", error: {} }],
    ["queued with error: {}", { status: "queued", error: {} }],
    ["running with error: null", { status: "running", error: null }],
    ["cancelled with no error", { status: "cancelled" }],
  ];
  it.each(cases)("%s reads as error: null", (_name, record) => {
    const reading = readPrediction(record);
    expect(reading.failed).toBe(false);
    expect(reading.error).toBeNull();
  });

  it("notes the {} form, not the null one", () => {
    expect(readPrediction({ status: "succeeded", error: {} }).notes.join(" ")).toMatch(/9\.2\.1/);
    expect(readPrediction({ status: "succeeded", error: null }).notes).toEqual([]);
  });

  it("ignores, with a note, an error object on a status that did not fail (spec 3 rule 2)", () => {
    const reading = readPrediction({ status: "succeeded", error: failure });
    expect(reading).toMatchObject({ failed: false, error: null });
    expect(reading.notes.join(" ")).toMatch(/spec 3 rule 2/);
  });
});

describe("spec 9.2.2: a failed prediction always yields a PredictionError", () => {
  const cases: [string, unknown][] = [
    ["error: null", { status: "failed", error: null }],
    ["error missing", { status: "failed" }],
    ["error: {}", { status: "failed", error: {} }],
    ["error: an array", { status: "failed", error: [] }],
    ["error: a number", { status: "failed", error: 7 }],
  ];
  it.each(cases)("%s: unknown_error_code, a generic message and a note", (_name, record) => {
    const reading = readPrediction(record);
    expect(reading.failed).toBe(true);
    expect(reading.error).toEqual({
      code: "unknown_error_code",
      rawCode: "",
      retryable: false,
      retryableSource: "code-default",
      message: GENERIC_FAILURE_MESSAGE,
    });
    expect(reading.notes.join(" ")).toMatch(/9\.2\.2/);
  });

  it("a plain-text failure is the message under unknown_error_code (spec 9.2.3)", () => {
    const reading = readPrediction({ status: "failed", error: "worker crashed" });
    expect(reading.error).toMatchObject({ code: "unknown_error_code", message: "worker crashed" });
    expect(reading.notes.join(" ")).toMatch(/9\.2\.3/);
  });

  const fieldCases: [string, Record<string, unknown>, Partial<PredictionError>, RegExp][] = [
    ["empty code", { ...failure, code: "" }, { code: "unknown_error_code", rawCode: "" }, /non-empty code/],
    ["code a number", { ...failure, code: 500 }, { code: "unknown_error_code", rawCode: "" }, /a number/],
    ["empty message", { ...failure, message: "" }, { message: GENERIC_FAILURE_MESSAGE }, /non-empty message/],
    ["message missing", { ...failure, message: undefined }, { message: GENERIC_FAILURE_MESSAGE }, /message is missing/],
  ];
  it.each(fieldCases)("%s", (_name, error, want, note) => {
    const reading = readPrediction({ status: "failed", error });
    expect(reading.error).toMatchObject(want);
    expect(reading.notes.join(" ")).toMatch(note);
  });

  it("unknown_error_code sent by the service stays itself", () => {
    const reading = readPrediction({
      status: "failed",
      error: { code: "unknown_error_code", message: "Something failed", timestamp: "t" },
    });
    expect(reading.error).toMatchObject({
      code: "unknown_error_code",
      rawCode: "unknown_error_code",
      message: "Something failed",
    });
    expect(reading.notes).toEqual([]);
  });
});

describe("spec 7.2 open sets: code", () => {
  const cases: [string, string, string][] = [
    ["invalid_input", "invalid_input", "invalid_input"],
    ["unsafe_content", "unsafe_content", "unsafe_content"],
    ["service_provider_error", "service_provider_error", "service_provider_error"],
    ["task_timeout", "task_timeout", "task_timeout"],
    ["internal_server_error", "internal_server_error", "internal_server_error"],
    ["unknown_error_code (the sentinel)", "unknown_error_code", "unknown_error_code"],
    ["a new code", "provider_quota_exhausted", "internal_server_error"],
    ["a differently cased code", "INVALID_INPUT", "internal_server_error"],
  ];
  it.each(cases)("%s", (_name, sent, read) => {
    const reading = readPrediction({ status: "failed", error: { ...failure, code: sent } });
    expect(reading.error?.code).toBe(read);
    expect(reading.error?.rawCode).toBe(sent);
    expect(reading.failed).toBe(true);
  });
  it("notes an unknown code", () => {
    expect(readPrediction({ status: "failed", error: { ...failure, code: "new_code" } }).notes.join(" ")).toMatch(
      /internal_server_error.*7\.2/,
    );
  });
});

describe("spec 7.2 open sets: reason", () => {
  const cases: [string, unknown, Partial<PredictionError>, string[]][] = [
    ["a known reason", "moderation_blocked", { reason: "moderation_blocked", rawReason: "moderation_blocked" }, []],
    ["an unknown reason", "gpu_on_fire", { rawReason: "gpu_on_fire" }, ["reason"]],
    ["no reason", undefined, {}, ["reason", "rawReason"]],
    ["a reason that is not a string", 3, {}, ["reason", "rawReason"]],
  ];
  it.each(cases)("%s", (_name, reason, want, absent) => {
    const error = readPrediction({ status: "failed", error: { ...failure, reason } }).error!;
    expect(error).toMatchObject(want);
    for (const key of absent) expect(error).not.toHaveProperty(key);
  });
  it("an unknown reason does not change code or retryable", () => {
    const known = readPrediction({ status: "failed", error: failure }).error!;
    const unknown = readPrediction({ status: "failed", error: { ...failure, reason: "gpu_on_fire" } }).error!;
    expect([unknown.code, unknown.retryable]).toEqual([known.code, known.retryable]);
  });
});

describe("spec 7.2 retryable: the value sent wins, else the per-code default", () => {
  const cases: [string, Record<string, unknown>, boolean, "explicit" | "code-default"][] = [
    ["sent false on a code whose default is true", { code: "task_timeout", retryable: false }, false, "explicit"],
    [
      "sent true on a code whose default is false",
      { code: "invalid_input", reason: "input_fetch_failed", retryable: true },
      true,
      "explicit",
    ],
    ["absent on service_provider_error", { code: "service_provider_error" }, true, "code-default"],
    ["absent on task_timeout", { code: "task_timeout" }, true, "code-default"],
    ["absent on invalid_input", { code: "invalid_input" }, false, "code-default"],
    ["absent on unsafe_content", { code: "unsafe_content" }, false, "code-default"],
    ["absent on internal_server_error", { code: "internal_server_error" }, false, "code-default"],
    ["absent on unknown_error_code", { code: "unknown_error_code" }, false, "code-default"],
    ["absent on an unknown code (internal_server_error)", { code: "brand_new" }, false, "code-default"],
    ['a string "true" is not a boolean', { code: "invalid_input", retryable: "true" }, false, "code-default"],
    ["null is not a boolean", { code: "task_timeout", retryable: null }, true, "code-default"],
  ];
  it.each(cases)("%s", (_name, fields, retryable, source) => {
    const error = readPrediction({ status: "failed", error: { message: "m", timestamp: "t", ...fields } }).error!;
    expect(error.retryable).toBe(retryable);
    expect(error.retryableSource).toBe(source);
  });

  it("retryableDefaults overrides a line of the default table, never a value sent", () => {
    const options = { retryableDefaults: { internal_server_error: true } };
    const absent = readPrediction(
      { status: "failed", error: { code: "internal_server_error", message: "m" } },
      options,
    ).error!;
    const sent = readPrediction(
      { status: "failed", error: { code: "internal_server_error", message: "m", retryable: false } },
      options,
    ).error!;
    expect([absent.retryable, absent.retryableSource]).toEqual([true, "code-default"]);
    expect([sent.retryable, sent.retryableSource]).toEqual([false, "explicit"]);
  });
});

describe("spec 7.2 rule 3: the message never keeps a URL's query string", () => {
  const cases: [string, string, string][] = [
    [
      "a presigned S3 URL",
      "Could not fetch https://bucket.s3.amazonaws.com/a.png?X-Amz-Credential=AKIA&X-Amz-Signature=abc: HTTP 403",
      "Could not fetch https://bucket.s3.amazonaws.com/a.png: HTTP 403",
    ],
    ["a fragment", "Could not fetch https://x.example/v.mp4#t=10", "Could not fetch https://x.example/v.mp4"],
    ["user info", "Could not fetch https://user:secret@x.example/a.png", "Could not fetch https://x.example/a.png"],
    [
      "two URLs",
      "a http://a.example/1?k=1 and http://b.example/2?k=2.",
      "a http://a.example/1 and http://b.example/2.",
    ],
    [
      "already redacted",
      "Could not fetch https://x.example/a.png: HTTP 404",
      "Could not fetch https://x.example/a.png: HTTP 404",
    ],
  ];
  it.each(cases)("%s", (_name, message, want) => {
    expect(readPrediction({ status: "failed", error: { ...failure, message } }).error?.message).toBe(want);
  });
});

describe("unknown status values are carried through (spec 3, 6)", () => {
  const cases: [string, (v: unknown) => PredictionReading, unknown, string, boolean][] = [
    ["queue IN_PROGRESS", readQueueStatus, { status: "IN_PROGRESS", request_id: "r1" }, "IN_PROGRESS", false],
    ["queue COMPLETED", readQueueStatus, { status: "COMPLETED", request_id: "r1", error: null }, "COMPLETED", false],
    ["prediction 'starting'", readPrediction, { status: "starting", error: null }, "starting", false],
    [
      "prediction 'errored' with an error object",
      readPrediction,
      { status: "errored", error: failure },
      "errored",
      true,
    ],
    ["prediction 'FAILED' with an error object", readPrediction, { status: "FAILED", error: failure }, "FAILED", true],
  ];
  it.each(cases)("%s", (_name, reader, input, status, failed) => {
    const reading = reader(input);
    expect(reading.status).toBe(status);
    expect(reading.failed).toBe(failed);
    expect(reading.error === null).toBe(!failed);
  });
  it("keeps the request_id of a queue update (spec 6.1)", () => {
    expect(readQueueStatus({ status: "failed", request_id: "req_1", error: failure }).requestId).toBe("req_1");
  });
  it("notes a status spec 3 does not name on a prediction record, not on a queue update", () => {
    expect(readPrediction({ status: "starting" }).notes.join(" ")).toMatch(/not one spec 3 names/);
    expect(readQueueStatus({ status: "IN_QUEUE", request_id: "r" }).notes).toEqual([]);
  });
});

describe("spec 6.2 webhooks", () => {
  const cases: [string, unknown, boolean, RegExp | null][] = [
    ["a succeeded delivery without an error key", { status: "succeeded" }, false, null],
    [
      "a succeeded delivery with error: null (tolerated)",
      { status: "succeeded", error: null },
      false,
      /6\.2.*Tolerated/,
    ],
    ["a succeeded delivery with error: {}", { status: "succeeded", error: {} }, false, /6\.2/],
    ["a failed delivery", { status: "failed", error: failure }, true, null],
  ];
  it.each(cases)("%s", (_name, delivery, failed, note) => {
    const reading = readWebhook(delivery);
    expect(reading.failed).toBe(failed);
    if (note === null) expect(reading.notes).toEqual([]);
    else expect(reading.notes.join(" ")).toMatch(note);
  });
  it("reads the error object exactly as the status endpoint does (spec 6.3)", () => {
    expect(readWebhook({ status: "failed", error: failure }).error).toEqual(
      readPrediction({ status: "failed", error: failure }).error,
    );
    expect(readQueueStatus({ status: "failed", request_id: "r", error: failure }).error).toEqual(
      readPrediction({ status: "failed", error: failure }).error,
    );
  });
});

describe("junk in, a conservative reading and a note out", () => {
  const cases: [string, unknown][] = [
    ["null", null],
    ["a number", 42],
    ["a string", "failed"],
    ["an array", [{ status: "failed" }]],
    ["status not a string", { status: 3, error: null }],
  ];
  it.each(cases)("%s", (_name, input) => {
    const reading = readPrediction(input);
    expect(reading).toMatchObject({ failed: false, error: null });
    expect(reading.notes.length).toBeGreaterThan(0);
  });
  it("a getter that throws on error reads as absent", () => {
    const record = {
      status: "failed",
      get error(): unknown {
        throw new Error("boom");
      },
    };
    const reading = readPrediction(record);
    expect(reading.error?.code).toBe("unknown_error_code");
    expect(reading.notes.join(" ")).toMatch(/threw/);
  });
});
