/**
 * Issue 6: "No reader ever throws, whatever it is given." fast-check feeds every reader arbitrary
 * JSON values, arbitrary JavaScript values and arbitrary strings, alone and in the places the
 * readers look (status, error, error fields, the result body).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  adviseOnFailure,
  readPrediction,
  readQueueStatus,
  readResultResponse,
  readWebhook,
  redactUrl,
  redactUrlsInText,
  toPredictionFailedError,
  type PredictionReading,
  type ResultReading,
} from "../../src/runtime/index.js";

const statusReaders = [readPrediction, readQueueStatus, readWebhook] as const;
const RUNS = { numRuns: 400 };

/** A reading has the promised shape, whatever went in. */
function checkReading(reading: PredictionReading): void {
  expect(typeof reading.status).toBe("string");
  expect(typeof reading.failed).toBe("boolean");
  expect(reading.failed).toBe(reading.error !== null);
  expect(Array.isArray(reading.notes)).toBe(true);
  if (reading.error !== null) {
    expect(typeof reading.error.message).toBe("string");
    expect(reading.error.message.length).toBeGreaterThan(0);
    expect(typeof reading.error.retryable).toBe("boolean");
    expect(() => adviseOnFailure(reading.error!)).not.toThrow();
    expect(() => toPredictionFailedError(reading.error!)).not.toThrow();
    expect(() => JSON.stringify(reading)).not.toThrow();
  }
}

function checkResult(reading: ResultReading): void {
  expect(["output", "prediction_failed", "api_error", "edge_error"]).toContain(reading.kind);
  expect(Array.isArray(reading.notes)).toBe(true);
}

/** Arbitrary values where the readers look: an error object made of arbitrary fields. */
const errorLike = fc.record(
  {
    code: fc.jsonValue(),
    message: fc.jsonValue(),
    reason: fc.jsonValue(),
    retryable: fc.jsonValue(),
    timestamp: fc.jsonValue(),
  },
  { requiredKeys: [] },
);
const statusLike = fc.oneof(
  fc.constantFrom("queued", "running", "succeeded", "failed", "cancelled"),
  fc.string(),
  fc.jsonValue(),
);

describe("no reader throws", () => {
  it("on arbitrary JSON values", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        for (const reader of statusReaders) checkReading(reader(value));
        checkResult(readResultResponse(value));
      }),
      RUNS,
    );
  });

  it("on arbitrary JavaScript values (fc.anything)", () => {
    fc.assert(
      fc.property(
        fc.anything({
          withNullPrototype: true,
          withBoxedValues: true,
          withMap: true,
          withSet: true,
          withTypedArray: true,
          withSparseArray: true,
          withBigInt: true,
        }),
        (value) => {
          for (const reader of statusReaders) checkReading(reader(value));
          checkResult(readResultResponse(value));
        },
      ),
      RUNS,
    );
  });

  it("on records whose status and error fields are arbitrary", () => {
    fc.assert(
      fc.property(
        statusLike,
        fc.oneof(errorLike, fc.jsonValue(), fc.anything()),
        fc.option(fc.string()),
        (status, error, requestId) => {
          const record = { status, error, ...(requestId !== null ? { request_id: requestId } : {}) };
          for (const reader of statusReaders) checkReading(reader(record));
          if (status === "failed") expect(readPrediction(record).failed).toBe(true);
        },
      ),
      RUNS,
    );
  });

  it("on result responses with arbitrary status and arbitrary body text", () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: 0, max: 599 }), fc.jsonValue()), fc.string(), (status, body) => {
        checkResult(readResultResponse({ status, headers: {}, body }));
      }),
      RUNS,
    );
  });

  it("on result responses whose body is arbitrary JSON, including arbitrary error objects", () => {
    const bodyValue = fc.oneof(
      fc.jsonValue(),
      fc.record(
        {
          timestamp: fc.jsonValue(),
          error: fc.oneof(
            fc.jsonValue(),
            fc.record(
              {
                code: fc.oneof(fc.constant("PREDICTION_FAILED"), fc.jsonValue()),
                message: fc.jsonValue(),
                details: fc.oneof(errorLike, fc.jsonValue()),
              },
              { requiredKeys: [] },
            ),
          ),
        },
        { requiredKeys: [] },
      ),
    );
    fc.assert(
      fc.property(fc.constantFrom(200, 400, 401, 500, 502), bodyValue, (status, value) => {
        const reading = readResultResponse({ status, body: JSON.stringify(value) });
        checkResult(reading);
        if (reading.kind === "prediction_failed") expect(typeof reading.error.retryable).toBe("boolean");
      }),
      RUNS,
    );
  });

  it("on arbitrary strings, as records, bodies and URLs", () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        for (const reader of statusReaders) checkReading(reader(text));
        checkResult(readResultResponse({ status: 400, body: text }));
        expect(typeof redactUrl(text)).toBe("string");
        expect(typeof redactUrlsInText(text)).toBe("string");
      }),
      RUNS,
    );
  });

  it("never leaves a query string in a message", () => {
    const url = fc.webUrl({ withQueryParameters: true, withFragments: true });
    fc.assert(
      fc.property(url, fc.string(), (link, secret) => {
        const withSecret = `${link}${link.includes("?") ? "&" : "?"}sig=${encodeURIComponent(secret)}X`;
        const reading = readPrediction({
          status: "failed",
          error: { code: "invalid_input", message: `fetch ${withSecret} failed`, timestamp: "t" },
        });
        expect(reading.error!.message).not.toContain("sig=");
      }),
      RUNS,
    );
  });

  it("on hostile objects: throwing getters, revoked proxies, cyclic records", () => {
    const throwing = new Proxy(
      {},
      {
        get() {
          throw new Error("get");
        },
        has() {
          throw new Error("has");
        },
        ownKeys() {
          throw new Error("ownKeys");
        },
        getOwnPropertyDescriptor() {
          throw new Error("descriptor");
        },
        getPrototypeOf() {
          throw new Error("prototype");
        },
      },
    );
    const revocable = Proxy.revocable({}, {});
    revocable.revoke();
    const cyclic: Record<string, unknown> = { status: "failed" };
    cyclic.error = cyclic;
    const getter = Object.defineProperty({ status: "failed" }, "error", {
      enumerable: true,
      get() {
        throw new TypeError("no");
      },
    });
    const badToString = { status: "failed", error: { code: { toString: 1, valueOf: 1 }, message: Symbol("m") } };
    for (const value of [
      throwing,
      revocable.proxy,
      cyclic,
      getter,
      badToString,
      { status: "failed", error: throwing },
      { status: throwing },
    ]) {
      for (const reader of statusReaders) checkReading(reader(value));
      checkResult(readResultResponse(value));
      checkResult(readResultResponse({ status: 400, body: value }));
      expect(() => readPrediction(value, throwing as never)).not.toThrow();
      expect(() => readPrediction(value, null as never)).not.toThrow();
    }
  });
});

describe("a message that is nothing but what redaction removes", () => {
  it.each(["?=", "?token=secret", "#access_token=x"])("%j: the generic message, never an empty one", (message) => {
    const reading = readPrediction({ status: "FAILED", error: { code: "internal_error", message } });
    expect(reading.error?.message).toMatch(/\S/);
    expect(reading.error?.message).not.toContain("secret");
  });
});
