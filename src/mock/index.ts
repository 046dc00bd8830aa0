/**
 * `video-schema-kit/mock`: a local, spec-faithful stand-in for the service (docs/queue.md), for a
 * team's tests of its whole submit → status → result path. It serves the configured models from
 * the snapshot and validates submits with the generated validators (cross-field rules included).
 *
 * @example
 * const mock = createMockService({ key: "test-key", queueMs: 0, runMs: 0 });
 * const { url } = await mock.listen();            // http://127.0.0.1:<ephemeral port>
 * // … point the client at url, or call mock.fetch(new Request(…)) in-process …
 * await mock.close();
 */
export type {
  MockApiOptions,
  MockCoreOptions,
  MockRequestRecord,
  MockDiagnostic,
  MockEndpoint,
  MockPaths,
  StoreLimits,
} from "./types.js";
export type { PredictionStatus } from "./predictions.js";
export { DEFAULT_MAX_STORED_BYTES, DEFAULT_RETAIN_MS } from "./predictions.js";
export { DEFAULT_HTTP_LIMITS, type HttpLimits } from "./http.js";
export { DEFAULT_MAX_BODY_BYTES } from "./body.js";
export type { WebhookDelivery } from "./webhooks.js";
export { DEFAULT_PATHS } from "./routes.js";
export { OUTCOMES, parsePrefer, outcomeOf, PreferError, type Outcome, type FailureSpec } from "./outcomes.js";
export { signWebhook, isLoopbackUrl, DEFAULT_MAX_WEBHOOK_RESPONSE_BYTES } from "./webhooks.js";
export { webhookKey } from "../client/index.js";
export { createMockService, endpointsFromConfig, type MockService, type MockServiceOptions } from "./service.js";
