/**
 * The mock's shapes its parts share: the endpoints it serves, its paths and its options. Types
 * only, their one home: api.ts, routes.ts, handlers.ts, predictions.ts and service.ts import them
 * from here, so those files do not import each other in a circle (issue 42.6).
 */
import type { QueuePaths } from "../runtime/index.js";
import type { JsonSchemaObject } from "../schema/index.js";

/** The paths the spec does not show (4.7): the runtime's docs/queue.md defaults are `DEFAULT_PATHS` (routes.ts). */
export type MockPaths = Omit<QueuePaths, "prediction">;

/** What the mock needs of a diagnostic of the generated validators. */
export interface MockDiagnostic {
  severity: string;
  pointer: string;
  message: string;
}

/** One endpoint the mock serves. */
export interface MockEndpoint {
  /** `<owner>/<name>/<endpoint>` */
  key: string;
  /** the generated validator (schema and cross-field rules) */
  validate(input: unknown): readonly MockDiagnostic[] | Promise<readonly MockDiagnostic[]>;
  /** the endpoint's output schema (spec 2.3), for succeeded outputs */
  output: JsonSchemaObject;
}

/** How much the predictions may hold (predictions.ts). */
export interface StoreLimits {
  /** the most bytes the predictions may take (estimated; default 64 MiB) */
  maxStoredBytes?: number;
  /** how long a finished prediction is kept (ms, default one hour) */
  retainMs?: number;
  /** how many predictions are kept at most (default: no count limit, only bytes) */
  maxPredictions?: number;
}

export interface MockApiOptions extends StoreLimits {
  endpoints: readonly MockEndpoint[];
  /**
   * said after the list of endpoints where a request names none of them (404): why these are
   * served (createMockService: no config was found, so the built-in example models are)
   */
  endpointsNote?: string;
  /** the API key `Authorization: Key <key>` must carry; any key is accepted when unset (spec 5) */
  key?: string;
  /** how long a prediction stays queued (ms, default 100) */
  queueMs?: number;
  /** how long it runs (ms, default 200) */
  runMs?: number;
  /** answer `error: {}` instead of `null` on GET /v1/predictions/{id}, as before 17 Aug 2026 (spec 9.2) */
  pre92?: boolean;
  /** answer an invalid payload with 422 at submit instead of a failed prediction */
  strictSubmit?: boolean;
  /** sign webhook deliveries (Standard Webhooks) with this secret (decoded as `webhookKey` says) */
  webhookSecret?: string;
  /** how much of a webhook receiver's answer is read (default 64 KiB); the rest is not */
  maxWebhookResponseBytes?: number;
  /** the clock (ms since the epoch); default `Date.now` */
  now?: () => number;
  /** the paths the spec does not show (docs/queue.md defaults) */
  paths?: Partial<MockPaths>;
  /** the base URL written into status_url and the like (set by `listen`) */
  baseUrl?: string;
  /** the largest request body accepted (default 1 MiB) */
  maxBodyBytes?: number;
  /** how many submits are read, parsed and validated at once (default 8; the others wait their turn) */
  maxConcurrentSubmits?: number;
  /**
   * fetches the files a valid submit references (issue 26, `createMockService({ fetchInputs })`
   * builds it from the package's preflight): its first `input-fetch-failed` fails the prediction
   * with invalid_input / input_fetch_failed, that diagnostic's message and retryable (spec 7.2)
   */
  inputCheck?: (key: string, input: unknown) => PromiseLike<readonly InputCheckFinding[]>;
  /** called after each request is answered (the CLI logs it) */
  onRequest?: (record: MockRequestRecord) => void;
}

/** What `inputCheck` reports: the preflight's diagnostics, as much of them as the mock reads. */
export interface InputCheckFinding {
  rule: string;
  severity: string;
  message: string;
  retryable: boolean;
}

/** @deprecated the former name of {@link MockApiOptions} */
export type MockCoreOptions = MockApiOptions;

/** One request the mock answered. */
export interface MockRequestRecord {
  method: string;
  /** the path without its query string */
  path: string;
  status: number;
  requestId?: string;
}
