/**
 * The mock's answers, one function per route (docs/queue.md): submit (spec 4.1), queue status, result
 * (spec 7.3), cancel, and the prediction record (spec 4.6).
 */
import { randomUUID } from "node:crypto";
import { DEFAULT_MAX_BODY_BYTES, isJsonType, readBody, type Slots } from "./body.js";
import { outcomeOf, PreferError, type Outcome } from "./outcomes.js";
import { inputDuration, sampleOutput } from "./output.js";
import type { Prediction, PredictionStore } from "./predictions.js";
import { apiError, json, timestamp, type Answer } from "./replies.js";
import { fillPath } from "../runtime/index.js";
import { isLoopbackUrl } from "./webhooks.js";
import type { MockApiOptions, MockEndpoint, MockPaths } from "./types.js";
import type { PlatformRequest, PlatformResponse, PlatformUrl } from "../platform/index.js";

/** What a handler reads of the mock (`MockApi`). */
export interface MockContext {
  readonly options: MockApiOptions;
  readonly paths: MockPaths;
  readonly store: PredictionStore;
  readonly submitSlots: Slots;
  readonly baseUrl: string;
  now(): number;
  endpoint(model: string, endpoint: string): MockEndpoint | undefined;
  knownEndpoints(): string[];
  /** delivers the final state to the prediction's webhook once it is finished (spec 6.2) */
  maybeDeliver(p: Prediction): void;
  /** delivers when the prediction finishes on its own clock */
  scheduleDelivery(p: Prediction): void;
}

type Params = Record<string, string>;

/** A failed prediction's message lists this many validation errors, then says how many more. */
const MAX_LISTED_DIAGNOSTICS = 20;
/** The longest failure message a prediction keeps (characters). */
const MAX_MESSAGE_CHARS = 4096;

function find(ctx: MockContext, params: Params): Prediction | PlatformResponse {
  const p = ctx.store.get(params.id ?? "");
  if (p === undefined || (params.owner !== undefined && (p.owner !== params.owner || p.name !== params.name)))
    return apiError(404, "NOT_FOUND", `no request ${JSON.stringify(params.id)} for this model`, ctx.now());
  return p;
}

/** The output of a succeeded prediction, drawn from its endpoint's output schema (spec 2.3). */
export function outputOf(ctx: MockContext, p: Prediction): unknown {
  return sampleOutput(p.endpoint.output, { requestId: p.id, baseUrl: ctx.baseUrl, duration: p.duration });
}

/** Spec 4.1: POST /v1/queue/{owner}/{name}/{endpoint}, in one of the submit slots. */
export function submit(ctx: MockContext, request: PlatformRequest, url: PlatformUrl, params: Params): Promise<Answer> {
  return ctx.submitSlots.run(() => admit(ctx, request, url, params));
}

async function admit(ctx: MockContext, request: PlatformRequest, url: PlatformUrl, params: Params): Promise<Answer> {
  const now = ctx.now();
  const model = `${params.owner}/${params.name}`;
  const endpoint = ctx.endpoint(model, params.endpoint!);
  if (endpoint === undefined)
    return {
      response: apiError(
        404,
        "NOT_FOUND",
        `no endpoint ${model}/${params.endpoint}; endpoints: ${ctx.knownEndpoints().join(", ")}${ctx.options.endpointsNote ?? ""}`,
        now,
        { endpoints: ctx.knownEndpoints() },
      ),
    };
  if (!isJsonType(request.headers.get("content-type")))
    return {
      response: apiError(
        415,
        "UNSUPPORTED_MEDIA_TYPE",
        "send the payload as Content-Type: application/json (spec 5)",
        now,
      ),
    };
  const body = await readBody(request, ctx.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, now);
  if (body instanceof Response) return { response: body };
  let input: unknown;
  try {
    input = JSON.parse(body.text);
  } catch (error) {
    return {
      response: apiError(
        400,
        "INVALID_JSON",
        `the body is not JSON: ${error instanceof Error ? error.message : String(error)}`,
        now,
      ),
    };
  }
  const webhook = url.searchParams.get("webhook");
  if (webhook !== null && !isLoopbackUrl(webhook))
    return {
      response: apiError(
        400,
        "WEBHOOK_NOT_ALLOWED",
        "the mock delivers webhooks to loopback URLs only (127.0.0.1, ::1, localhost)",
        now,
      ),
    };
  let outcome: Outcome;
  try {
    outcome = outcomeOf(request.headers.get("prefer"), input);
  } catch (error) {
    if (error instanceof PreferError) return { response: apiError(400, "INVALID_PREFER", error.message, now) };
    throw error;
  }
  const diagnostics = (await endpoint.validate(input)).filter((d) => d.severity === "error");
  if (diagnostics.length > 0) {
    const listed = diagnostics.slice(0, MAX_LISTED_DIAGNOSTICS).map((d) => d.message);
    const more = diagnostics.length - listed.length;
    const message = `Input validation failed: ${listed.join("; ")}${more > 0 ? `; and ${more} more` : ""}`;
    if (ctx.options.strictSubmit)
      return {
        response: apiError(422, "INPUT_VALIDATION_FAILED", message, now, {
          diagnostics: diagnostics.map((d) => ({ pointer: d.pointer, message: d.message })),
        }),
      };
    // spec 7.2: the service's own validation failure is a prediction failure, the message naming the field
    outcome = {
      kind: "failed",
      failure: { code: "invalid_input", reason: "input_validation_failed", retryable: false, message },
    };
  }
  // --fetch-inputs (issue 26): a valid input's files, fetched as the service will (spec 7.2)
  if (diagnostics.length === 0 && ctx.options.inputCheck !== undefined) {
    const fetchFailure = (await ctx.options.inputCheck(endpoint.key, input)).find(
      (d) => d.rule === "input-fetch-failed" && d.severity === "error",
    );
    if (fetchFailure !== undefined)
      outcome = {
        kind: "failed",
        failure: {
          code: "invalid_input",
          reason: "input_fetch_failed",
          retryable: fetchFailure.retryable,
          message: fetchFailure.message,
        },
      };
  }
  // what is kept is bounded: a failure's message is cut at MAX_MESSAGE_CHARS
  if (outcome.kind === "failed" && outcome.failure.message.length > MAX_MESSAGE_CHARS)
    outcome = {
      kind: "failed",
      failure: { ...outcome.failure, message: `${outcome.failure.message.slice(0, MAX_MESSAGE_CHARS)}…` },
    };
  const id = randomUUID();
  const prediction: Prediction = {
    id,
    endpoint,
    owner: params.owner!,
    name: params.name!,
    duration: inputDuration(input),
    createdAt: now,
    outcome,
    forced: 0,
    delivered: false,
    ...(webhook === null ? {} : { webhook }),
  };
  if (!ctx.store.add(prediction))
    return {
      response: apiError(
        503,
        "QUEUE_FULL",
        "the mock holds as many unfinished predictions as its memory limit allows (maxStoredBytes); let some finish or cancel them, then try again",
        now,
        undefined,
        { "retry-after": "1" },
      ),
    };
  if (webhook !== null) ctx.scheduleDelivery(prediction);
  const ids = { owner: params.owner!, name: params.name!, id };
  return {
    requestId: id,
    response: json(200, {
      request_id: id,
      status: "queued",
      status_url: ctx.baseUrl + fillPath(ctx.paths.status, ids),
      response_url: ctx.baseUrl + fillPath(ctx.paths.result, ids),
      cancel_url: ctx.baseUrl + fillPath(ctx.paths.cancel, ids),
    }),
  };
}

/** Queue status (docs/queue.md): request_id, status, queue_position while queued, logs on ?logs=1, error. */
export function status(ctx: MockContext, _request: PlatformRequest, url: PlatformUrl, params: Params): Answer {
  const p = find(ctx, params);
  if (p instanceof Response) return { response: p };
  const status = ctx.store.statusOf(p);
  ctx.maybeDeliver(p);
  const body: Record<string, unknown> = { request_id: p.id, status };
  if (status === "queued") body.queue_position = ctx.store.queuePosition(p);
  if (url.searchParams.get("logs") === "1" || url.searchParams.get("logs") === "true")
    body.logs = ctx.store.logsOf(p, status);
  body.error = ctx.store.errorOf(p, status);
  return { response: json(200, body), requestId: p.id };
}

/** Result (spec 7.3): output, PREDICTION_FAILED, a generic 400, or an edge's plain text. */
export function result(ctx: MockContext, _request: PlatformRequest, _url: PlatformUrl, params: Params): Answer {
  const p = find(ctx, params);
  if (p instanceof Response) return { response: p };
  const now = ctx.now();
  const status = ctx.store.statusOf(p);
  ctx.maybeDeliver(p);
  if (status === "failed") {
    const details = ctx.store.errorOf(p, status)!;
    return {
      requestId: p.id,
      response: json(400, {
        error: { code: "PREDICTION_FAILED", message: details.message, details },
        timestamp: timestamp(now),
      }),
    };
  }
  if (status === "succeeded") {
    if (p.outcome.kind === "edge-error")
      return {
        requestId: p.id,
        response: new Response("502 Bad Gateway: upstream closed the connection\n", {
          status: 502,
          headers: { "content-type": "text/plain; charset=utf-8" },
        }),
      };
    return { requestId: p.id, response: json(200, outputOf(ctx, p)) };
  }
  // spec 3 rule 4: queued, running or cancelled → a generic 400
  const words = status === "cancelled" ? "the request was cancelled" : `the request is still ${status}`;
  return { requestId: p.id, response: apiError(400, "REQUEST_NOT_COMPLETED", `${words}; no result`, now) };
}

/** Cancel (docs/queue.md): an unfinished prediction becomes cancelled; a finished one is a generic 400. */
export function cancel(ctx: MockContext, _request: PlatformRequest, _url: PlatformUrl, params: Params): Answer {
  const p = find(ctx, params);
  if (p instanceof Response) return { response: p };
  const status = ctx.store.statusOf(p);
  if (status !== "queued" && status !== "running")
    return {
      requestId: p.id,
      response: apiError(400, "REQUEST_NOT_CANCELLABLE", `the request is already ${status}`, ctx.now()),
    };
  p.cancelledAt = ctx.now();
  ctx.maybeDeliver(p);
  return { requestId: p.id, response: json(200, { status: "cancelled" }) };
}

/** Spec 4.6: GET /v1/predictions/{id} → status and error (null, or `{}` before 9.2). */
export function prediction(ctx: MockContext, _request: PlatformRequest, _url: PlatformUrl, params: Params): Answer {
  const p = find(ctx, params);
  if (p instanceof Response) return { response: p };
  const status = ctx.store.statusOf(p);
  ctx.maybeDeliver(p);
  const error = ctx.store.errorOf(p, status) ?? (ctx.options.pre92 ? {} : null);
  return { requestId: p.id, response: json(200, { id: p.id, status, error }) };
}
