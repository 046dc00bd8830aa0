/**
 * An OpenAPI operation as the queue reads it (spec 4.1): its endpoint name, the media type of its
 * request body and of its success response, and that status.
 */
import type { JsonSchemaObject } from "./types.js";
import { isSchemaObject } from "./walk.js";

/** A media type without parameters, lower case: `application/json; charset=utf-8` is `application/json`. */
export function bareMediaType(type: string): string {
  return type.split(";")[0]!.trim().toLowerCase();
}

export const isJson = (type: string): boolean => /^application\/(?:[\w.+-]*\+)?json$/.test(bareMediaType(type));

/**
 * The media type an OpenAPI media-type map is read by: application/json, else another JSON type,
 * else the first one written; with its schema when it has one.
 */
export function mediaOf(content: unknown): { type: string; schema?: unknown } | undefined {
  if (!isSchemaObject(content)) return undefined;
  const types = Object.keys(content);
  const type = types.find((t) => bareMediaType(t) === "application/json") ?? types.find(isJson) ?? types[0];
  if (type === undefined) return undefined;
  const media = content[type];
  return isSchemaObject(media) && "schema" in media ? { type, schema: media.schema } : { type };
}

/** The success status a client reads: the lowest 2xx code written, else `2XX`, else `default`. */
export function successStatus(responses: JsonSchemaObject): string | undefined {
  const codes = Object.keys(responses)
    .filter((k) => /^2\d\d$/.test(k))
    .sort();
  return codes[0] ?? ["2XX", "2xx", "default"].find((k) => k in responses);
}

export const METHODS = ["post", "put", "patch", "get", "delete", "head", "options", "trace"] as const;

/**
 * The endpoint name of an OpenAPI path: what follows `/<owner>/<name>/` (or
 * `/v1/queue/<owner>/<name>/`, spec 4.1), else the last segment; undefined when it is not a name.
 */
export function endpointName(path: string, model: string): string | undefined {
  const prefix = [`/${model}/`, `/v1/queue/${model}/`].find((p) => path.startsWith(p));
  const endpoint = prefix !== undefined ? path.slice(prefix.length) : (path.split("/").filter(Boolean).at(-1) ?? "");
  return /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(endpoint) ? endpoint : undefined;
}
