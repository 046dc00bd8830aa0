/**
 * The mock's routes (docs/queue.md): what the service spec shows, followed exactly, and our defaults
 * for the paths it does not show (each a setting, `MockApiOptions.paths`). Every request is
 * authenticated first (spec 5); a known path with the wrong method is a 405 with `Allow`.
 */
import { DEFAULT_QUEUE_PATHS, SUBMIT_PATH } from "../runtime/index.js";
import type { MockPaths } from "./types.js";
import { cancel, prediction, result, status, submit, type MockContext } from "./handlers.js";
import { apiError, type Answer } from "./replies.js";
import type { PlatformRequest, PlatformUrl } from "../platform/index.js";

export { fillPath, SUBMIT_PATH } from "../runtime/index.js";

export const DEFAULT_PATHS: MockPaths = DEFAULT_QUEUE_PATHS;

/** Spec 4.6: `GET {base_url}/v1/predictions/{prediction_id}`. */
export const PREDICTION_PATH = DEFAULT_QUEUE_PATHS.prediction;

type Handler = (
  ctx: MockContext,
  request: PlatformRequest,
  url: PlatformUrl,
  params: Record<string, string>,
) => Answer | Promise<Answer>;

/** Method, path template, handler: the whole wire, one row each. */
function routes(paths: MockPaths): ReadonlyArray<readonly [string, string, Handler]> {
  return [
    ["POST", SUBMIT_PATH, submit],
    ["GET", paths.status, status],
    ["GET", paths.result, result],
    ["PUT", paths.cancel, cancel],
    ["GET", PREDICTION_PATH, prediction],
  ];
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

/** Authenticates (spec 5: "Authorization: Key <API_KEY>", sent with every request), then dispatches. */
export async function route(
  ctx: MockContext,
  request: PlatformRequest,
  url: PlatformUrl,
  method: string,
): Promise<Answer> {
  const now = ctx.now();
  const auth = request.headers.get("authorization") ?? "";
  const match = /^Key\s+(\S.*)$/.exec(auth);
  if (match === null || (ctx.options.key !== undefined && match[1] !== ctx.options.key))
    return {
      response: apiError(
        401,
        "UNAUTHORIZED",
        match === null
          ? "missing or malformed Authorization header; send `Authorization: Key <API_KEY>`"
          : "invalid API key",
        now,
      ),
    };
  const path = url.pathname;
  const allowed: string[] = [];
  for (const [routeMethod, template, handler] of routes(ctx.paths)) {
    const params = matchPath(template, path);
    if (params === undefined) continue;
    if (routeMethod === method) return handler(ctx, request, url, params);
    allowed.push(routeMethod);
  }
  if (allowed.length > 0)
    return {
      response: apiError(
        405,
        "METHOD_NOT_ALLOWED",
        `${method} is not allowed here; use ${allowed.join(" or ")}`,
        now,
        undefined,
        { allow: allowed.join(", ") },
      ),
    };
  return {
    response: apiError(
      404,
      "NOT_FOUND",
      `no route for ${method} ${path}; endpoints: ${ctx.knownEndpoints().join(", ")}${ctx.options.endpointsNote ?? ""}`,
      now,
      {
        endpoints: ctx.knownEndpoints(),
      },
    ),
  };
}
