/**
 * The queue wire the mock speaks (QUEUE.md): what the service spec shows, followed exactly, and
 * our defaults for what it does not show. Every "not shown" part is a setting (`MockCoreOptions.paths`).
 */

import { DEFAULT_QUEUE_PATHS, type QueuePaths } from "../runtime/index.js";

export { fillPath, SUBMIT_PATH } from "../runtime/index.js";

/** The paths the spec does not show (4.7), the runtime's QUEUE.md defaults. */
export type MockPaths = Omit<QueuePaths, "prediction">;
export const DEFAULT_PATHS: MockPaths = DEFAULT_QUEUE_PATHS;

/** Spec 4.6: `GET {base_url}/v1/predictions/{prediction_id}`. */
export const PREDICTION_PATH = DEFAULT_QUEUE_PATHS.prediction;

/** The status values of spec 3; QUEUE.md uses the same five in queue updates. */
export type PredictionStatus = "queued" | "running" | "succeeded" | "failed" | "cancelled";

/** Timestamps: format not shown (spec 2.4); ours is ISO 8601 UTC with milliseconds. */
export function timestamp(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * An API request error body (spec 7.3: "a service error is always JSON with an error object";
 * codes other than PREDICTION_FAILED not shown, ours in QUEUE.md).
 */
export function apiError(status: number, code: string, message: string, now: number, extra?: object): Response {
  return json(status, { error: { code, message, ...extra }, timestamp: timestamp(now) });
}

export function json(status: number, body: unknown, headers?: Record<string, string>): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

/** Matches a path against a template with `{name}` segments; each segment matches one path segment. */
export function matchPath(template: string, path: string): Record<string, string> | undefined {
  const want = template.split("/");
  const got = path.split("/");
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    const g = got[i]!;
    if (w.startsWith("{") && w.endsWith("}")) {
      if (g === "") return undefined;
      try {
        params[w.slice(1, -1)] = decodeURIComponent(g);
      } catch {
        return undefined;
      }
    } else if (w !== g) return undefined;
  }
  return params;
}
