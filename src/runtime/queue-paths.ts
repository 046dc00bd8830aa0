/**
 * The queue wire's paths (docs/queue.md): spec 4.1 and 4.6 show the submit and prediction paths; the
 * status, result and cancel paths are not shown (spec 4.7), so these are our defaults, which the
 * client and the mock both use and both let a caller change. `{owner}`, `{name}`, `{endpoint}`
 * and `{id}` are filled in, percent-encoded.
 */
export interface QueuePaths {
  /** queue status (spec 4.7, path not shown) */
  status: string;
  /** result (spec 4.7, 7.3, path not shown) */
  result: string;
  /** cancel (spec 4.7, not shown) */
  cancel: string;
  /** spec 4.6: `GET {base_url}/v1/predictions/{prediction_id}` */
  prediction: string;
}

export const DEFAULT_QUEUE_PATHS: Readonly<QueuePaths> = Object.freeze({
  status: "/v1/queue/{owner}/{name}/requests/{id}/status",
  result: "/v1/queue/{owner}/{name}/requests/{id}",
  cancel: "/v1/queue/{owner}/{name}/requests/{id}/cancel",
  prediction: "/v1/predictions/{id}",
});

/** Spec 4.1: `POST {base_url}/v1/queue/{model_owner}/{model_name}/{endpoint_name}`. */
export const SUBMIT_PATH = "/v1/queue/{owner}/{name}/{endpoint}";

/** Fills a path template's `{name}` segments, percent-encoded. */
export function fillPath(template: string, params: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (_m, key: string) => encodeURIComponent(params[key] ?? ""));
}
