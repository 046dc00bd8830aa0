/**
 * `createMockService`: the mock's API (api.ts) over the configured models, served over HTTP on
 * 127.0.0.1 (http.ts) or answered in-process.
 */
import { loadConfig, type VskConfig } from "../config/index.js";
import { openRegistry, RegistryError } from "../lint/index.js";
import { readSnapshot } from "../snapshot/index.js";
import { listen as listenHttp, type HttpLimits, type Listening } from "./http.js";
import { MockApi } from "./api.js";
import type { MockApiOptions, MockEndpoint, MockRequestRecord } from "./types.js";
import type { WebhookDelivery } from "./webhooks.js";
import type { PreflightOptions } from "../preflight/index.js";
import type { PlatformRequest, PlatformResponse } from "../platform/index.js";

export interface MockServiceOptions extends Omit<MockApiOptions, "endpoints">, HttpLimits {
  /**
   * fetch the files each valid submit references, as the service will (issue 26, docs/mock.md):
   * a prediction whose preflight finds an `input-fetch-failed` fails with invalid_input /
   * input_fetch_failed and its retryable. `true`, or the preflight's options (`allowHosts` for a
   * server on 127.0.0.1, `timeoutMs`, …). Default: off (the mock fetches nothing).
   */
  fetchInputs?: boolean | PreflightOptions;
  /** the endpoints to serve; default: every endpoint of the configured models */
  endpoints?: readonly MockEndpoint[];
  /** a `vsk.config.json` (default: the one in `cwd`, else the three embedded models) */
  config?: string;
  /** where the config is looked for (default: `process.cwd()`) */
  cwd?: string;
}

export interface MockService {
  /** answers one request in-process, exactly as over HTTP */
  fetch(request: PlatformRequest): Promise<PlatformResponse>;
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
  const cwd = options.cwd ?? process.cwd();
  const config = options.endpoints === undefined ? loadConfig(cwd, options.config) : undefined;
  const endpoints = options.endpoints ?? endpointsFromConfig(config!);
  // never silent: a mock started outside the project serves the example models, and its 404s say why
  const endpointsNote =
    config !== undefined && config.file === undefined && options.endpointsNote === undefined
      ? ` (no vsk.config.json, nor a "vsk" key in package.json, was found from ${cwd} upward: the mock serves the built-in example models; pass createMockService({ cwd }) or ({ config }) to serve your project's)`
      : options.endpointsNote;
  const { fetchInputs } = options;
  // one preflight per submit, not one run: a link fixed (or expired) since is seen as it is now
  const inputCheck =
    fetchInputs === undefined || fetchInputs === false
      ? options.inputCheck
      : (key: string, input: unknown) =>
          // loaded on first use: the media parsers only for a mock that fetches inputs
          import("../preflight/index.js").then(({ preflight }) =>
            // the failed prediction's error is the service's own words (issue 37.8), its advice
            // naming the mock's option (the CLI: its flag)
            preflight(key, input, {
              allowHostsName: "fetchInputs.allowHosts",
              ...(fetchInputs === true ? {} : fetchInputs),
              voice: "service",
            }),
          );
  const core = new MockApi({
    ...options,
    endpoints,
    ...(endpointsNote === undefined ? {} : { endpointsNote }),
    ...(inputCheck === undefined ? {} : { inputCheck }),
  });
  let listening: Listening | undefined;
  return {
    fetch: (request) => core.fetch(request),
    async listen({ port = 0, host = "127.0.0.1" } = {}) {
      if (listening !== undefined) return { url: listening.url };
      listening = await listenHttp(
        (r, method) => core.fetch(r, method),
        port,
        host,
        (url) => {
          if (options.baseUrl === undefined) core.baseUrl = url;
        },
        options,
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
