/**
 * `video-schema-kit/client`: a typed queue client on the wire of docs/queue.md that validates before it
 * submits. `fetch` only, and the runtime's readers for every answer, so the same failure reads the
 * same from `result()` and `subscribe()` (spec 6.3, 7.3).
 *
 * @example
 * import { endpoints, type EndpointTypeMap } from "./generated/index.mjs";
 * const client = createQueueClient<EndpointTypeMap>({ baseUrl, credentials: () => process.env.API_KEY!, endpoints });
 * const output = await client.subscribe("example/model-c/text-to-video", { input: { prompt: "A paper boat" } });
 */
export * from "./errors.js";
export { verifyWebhook, readWebhook, webhookKey, type WebhookRequest, type WebhookReading } from "./webhook.js";
export type { RetryOptions } from "./transport.js";
export { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT_MS, MAX_REDIRECTS } from "./transport.js";
export type { AbortSignalLike, FetchInit, FetchLike, HeadersLike, ResponseLike } from "./platform.js";
export { PredictionFailedError } from "../runtime/index.js";
export {
  type CallOptions,
  type ClientEndpoint,
  type ClientPaths,
  createQueueClient,
  DEFAULT_CLIENT_PATHS,
  DEFAULT_POLL_INTERVAL_MS,
  type PreflightCheck,
  type QueueClient,
  type QueueClientOptions,
  type QueueStatus,
  type Submitted,
  type SubscribeOptions,
  type TypeMap,
  type WaitOptions,
} from "./queue-client.js";
