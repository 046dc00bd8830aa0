/**
 * The mock's JSON answers: API request error bodies (spec 7.3: "a service error is always JSON
 * with an error object"; codes other than PREDICTION_FAILED not shown, ours in docs/queue.md) and
 * timestamps (format not shown, spec 2.4; ours is ISO 8601 UTC with milliseconds).
 */
import type { PlatformResponse } from "../platform/index.js";

export function timestamp(ms: number): string {
  return new Date(ms).toISOString();
}

/** An API request error body: `{"error": {"code", "message", …extra}, "timestamp"}`. */
export function apiError(
  status: number,
  code: string,
  message: string,
  now: number,
  extra?: object,
  headers?: Record<string, string>,
): PlatformResponse {
  return json(status, { error: { code, message, ...extra }, timestamp: timestamp(now) }, headers);
}

export function json(status: number, body: unknown, headers?: Record<string, string>): PlatformResponse {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

/** A handler's answer: the response and the request id it concerns (for the request log). */
export interface Answer {
  response: PlatformResponse;
  requestId?: string;
}
