/**
 * `video-schema-kit/mock`: a local, spec-faithful stand-in for the service (QUEUE.md), for a
 * team's tests of its whole submit → status → result path. It serves the configured models from
 * the snapshot and validates submits with the generated validators (cross-field rules included).
 *
 * @example
 * const mock = createMockService({ key: "test-key", queueMs: 0, runMs: 0 });
 * const { url } = await mock.listen();            // http://127.0.0.1:<ephemeral port>
 * // … point the client at url, or call mock.fetch(new Request(…)) in-process …
 * await mock.close();
 */
import { loadConfig, type VskConfig } from "../config/index.js";
import { openRegistry, RegistryError } from "../lint/index.js";
import { readSnapshot } from "../snapshot/index.js";
import { listen as listenHttp, type Listening } from "./http.js";
import { MockCore, type MockCoreOptions, type MockEndpoint, type MockRequestRecord } from "./service.js";
import type { WebhookDelivery } from "./webhooks.js";

export type { MockCoreOptions, MockDiagnostic, MockEndpoint, MockRequestRecord } from "./service.js";
export type { WebhookDelivery } from "./webhooks.js";
export type { MockPaths, PredictionStatus } from "./wire.js";
export { DEFAULT_PATHS } from "./wire.js";
export { OUTCOMES, parsePrefer, outcomeOf, PreferError, type Outcome, type FailureSpec } from "./outcomes.js";
export { signWebhook, isLoopbackUrl } from "./webhooks.js";

export interface MockServiceOptions extends Omit<MockCoreOptions, "endpoints"> {
  /** the endpoints to serve; default: every endpoint of the configured models */
  endpoints?: readonly MockEndpoint[];
  /** a `vsk.config.json` (default: the one in `cwd`, else the three embedded models) */
  config?: string;
  /** where the config is looked for (default: `process.cwd()`) */
  cwd?: string;
}

export interface MockService {
  /** answers one request in-process, exactly as over HTTP */
  fetch(request: Request): Promise<Response>;
  /** serves over HTTP; default `127.0.0.1` and an ephemeral port */
  listen(options?: { port?: number; host?: string }): Promise<{ url: string }>;
  /** stops serving and drops pending timers */
  close(): Promise<void>;
  /** moves one prediction (or every unfinished one) to its next phase at once */
  advance(requestId?: string): void;
  /** resolves when every webhook delivery under way has been made */
  settled(): Promise<void>;
  /** the requests answered (method, path without query string, status, request id) */
  readonly requests: readonly MockRequestRecord[];
  /** the webhook deliveries made */
  readonly webhooks: readonly WebhookDelivery[];
}

/** Every endpoint of the configured models: the snapshot's output schemas, the generated validators. */
export function endpointsFromConfig(config: VskConfig): MockEndpoint[] {
  const registry = openRegistry(config);
  const endpoints: MockEndpoint[] = [];
  for (const model of readSnapshot(config.snapshotDir, config.models)) {
    for (const endpoint of model.schema.endpoints) {
      if (!registry.entries.has(endpoint.key))
        throw new RegistryError(
          `${endpoint.key}: no generated validator in ${registry.dir}; run \`vsk generate\` so the mock validates submits`,
        );
      endpoints.push({
        key: endpoint.key,
        output: endpoint.output,
        validate: async (input) => (await registry.validator(endpoint.key))(input),
      });
    }
  }
  return endpoints;
}

export function createMockService(options: MockServiceOptions = {}): MockService {
  const endpoints = options.endpoints ?? endpointsFromConfig(loadConfig(options.cwd ?? process.cwd(), options.config));
  const core = new MockCore({ ...options, endpoints });
  let listening: Listening | undefined;
  return {
    fetch: (request) => core.fetch(request),
    async listen({ port = 0, host = "127.0.0.1" } = {}) {
      if (listening !== undefined) return { url: listening.url };
      listening = await listenHttp(
        (r) => core.fetch(r),
        port,
        host,
        (url) => {
          if (options.baseUrl === undefined) core.baseUrl = url;
        },
      );
      return { url: listening.url };
    },
    async close() {
      core.close();
      const server = listening?.server;
      listening = undefined;
      if (server !== undefined) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
    advance: (requestId) => core.advance(requestId),
    settled: () => core.settled(),
    requests: core.requests,
    webhooks: core.webhooks,
  };
}
