/** Spec 7.1/7.2: the per-code default of retryable (our table, docs/runtime.md) and the 7.2 reason table. */
import { describe, expect, it } from "vitest";
import {
  adviseOnFailure,
  defaultRetryable,
  PREDICTION_ERROR_CODES,
  readPrediction,
  REASONS,
  RETRYABLE_DEFAULTS,
} from "../../src/runtime/index.js";

describe("defaultRetryable", () => {
  const cases: [string, boolean][] = [
    ["service_provider_error", true],
    ["task_timeout", true],
    ["invalid_input", false],
    ["unsafe_content", false],
    ["internal_server_error", false],
    ["unknown_error_code", false],
    ["a_code_from_the_future", false],
    ["", false],
  ];
  it.each(cases)("%s → %s", (code, want) => {
    expect(defaultRetryable(code)).toBe(want);
  });
  it("has one line per code and sentinel of spec 7.1, and is frozen", () => {
    expect(Object.keys(RETRYABLE_DEFAULTS).sort()).toEqual([...PREDICTION_ERROR_CODES].sort());
    expect(Object.isFrozen(RETRYABLE_DEFAULTS)).toBe(true);
  });
  it("takes overrides, and an unknown code follows the internal_server_error override", () => {
    expect(defaultRetryable("internal_server_error", { internal_server_error: true })).toBe(true);
    expect(defaultRetryable("brand_new", { internal_server_error: true })).toBe(true);
    expect(defaultRetryable("task_timeout", { internal_server_error: true })).toBe(true);
    expect(defaultRetryable("task_timeout", { task_timeout: false })).toBe(false);
  });
  it("is conservative: true only where every 7.2 reason under the code is retryable", () => {
    for (const code of PREDICTION_ERROR_CODES) {
      const rows = Object.values(REASONS).filter((row) => row.code === code);
      if (RETRYABLE_DEFAULTS[code]) expect(rows.every((row) => row.retryable === true)).toBe(true);
    }
  });
});

describe("spec 7.2 reason table", () => {
  const table: [string, string, boolean | "either"][] = [
    ["input_validation_failed", "invalid_input", false],
    ["provider_rejected_input", "invalid_input", false],
    ["input_fetch_failed", "invalid_input", "either"],
    ["moderation_blocked", "unsafe_content", false],
    ["provider_rate_limited", "service_provider_error", true],
    ["provider_unavailable", "service_provider_error", true],
    ["provider_timeout", "task_timeout", true],
    ["provider_account_error", "internal_server_error", false],
    ["endpoint_misconfigured", "internal_server_error", false],
    ["queue_enqueue_failed", "internal_server_error", true],
    ["reaped_stalled", "internal_server_error", true],
  ];
  it("has exactly the rows of spec 7.2", () => {
    expect(Object.keys(REASONS)).toEqual(table.map(([reason]) => reason));
  });
  it.each(table)("%s: code %s, retryable %s", (reason, code, retryable) => {
    expect(REASONS[reason as keyof typeof REASONS]).toMatchObject({ code, retryable });
  });
});

describe("adviseOnFailure: the client action of spec 7.2", () => {
  const read = (error: Record<string, unknown>) =>
    readPrediction({ status: "failed", error: { message: "m", timestamp: "t", ...error } }).error!;
  const cases: [string, Record<string, unknown>, boolean, RegExp][] = [
    [
      "input_fetch_failed, host rejected (rule 4)",
      { code: "invalid_input", reason: "input_fetch_failed", retryable: false },
      false,
      /publicly reachable.*presigned link has not expired/,
    ],
    [
      "input_fetch_failed, host unreachable (rule 2)",
      { code: "invalid_input", reason: "input_fetch_failed", retryable: true },
      true,
      /again later/,
    ],
    [
      "input_validation_failed",
      { code: "invalid_input", reason: "input_validation_failed", retryable: false },
      false,
      /Fix the field/,
    ],
    [
      "moderation_blocked",
      { code: "unsafe_content", reason: "moderation_blocked", retryable: false },
      false,
      /Change the prompt or media/,
    ],
    [
      "provider_rate_limited",
      { code: "service_provider_error", reason: "provider_rate_limited", retryable: true },
      true,
      /backoff/,
    ],
    [
      "provider_timeout",
      { code: "task_timeout", reason: "provider_timeout", retryable: true },
      true,
      /shorter duration or a lower resolution/,
    ],
    [
      "endpoint_misconfigured",
      { code: "internal_server_error", reason: "endpoint_misconfigured", retryable: false },
      false,
      /quote the request_id/,
    ],
    [
      "an unknown reason falls back to the code",
      { code: "unsafe_content", reason: "new_reason" },
      false,
      /change the prompt or media/,
    ],
  ];
  it.each(cases)("%s", (_name, error, retry, action) => {
    const advice = adviseOnFailure(read(error));
    expect(advice.retry).toBe(retry);
    expect(advice.action).toMatch(action);
  });
  it("says why: explicit or the per-code default", () => {
    expect(adviseOnFailure(read({ code: "task_timeout", retryable: false })).retryWhy).toMatch(/sent retryable: false/);
    expect(adviseOnFailure(read({ code: "task_timeout" })).retryWhy).toMatch(
      /per-code default for task_timeout is true/,
    );
  });
});
