/**
 * The output of a succeeded prediction, drawn from the endpoint's output schema (spec 2.3): every
 * required field, with a plausible value. File objects (spec 2.1) get a content type, a file name,
 * a size and a URL under the mock's own base; durations follow the input's `duration` where it
 * is a number. Unknown shapes get the simplest value their schema allows.
 */
import { followRefs, isSchemaObject, type JsonSchemaObject } from "../schema/index.js";

export interface OutputContext {
  requestId: string;
  baseUrl: string;
  /** the input's `duration`, the one input field an output follows */
  duration: number | undefined;
}

const MAX_DEPTH = 16;

function resolve(schema: unknown, root: JsonSchemaObject): JsonSchemaObject | undefined {
  const current = followRefs(root, schema, 32);
  if (!isSchemaObject(current)) return undefined;
  // a nullable field (`anyOf: [X, {type: "null"}]`, spec loader form): take X
  const branches = Array.isArray(current.anyOf)
    ? current.anyOf
    : Array.isArray(current.oneOf)
      ? current.oneOf
      : undefined;
  if (branches !== undefined && current.type === undefined && current.properties === undefined) {
    const first = branches.find((b) => !(isSchemaObject(b) && b.type === "null"));
    return first === undefined ? { type: "null" } : resolve(first, root);
  }
  if (Array.isArray(current.allOf) && current.allOf.length === 1 && current.properties === undefined)
    return resolve(current.allOf[0], root);
  return current;
}

function typeOf(schema: JsonSchemaObject): string | undefined {
  if (typeof schema.type === "string") return schema.type;
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== "null") as string | undefined;
  if (isSchemaObject(schema.properties)) return "object";
  if (schema.items !== undefined) return "array";
  return undefined;
}

/** The input's `duration` where it is a whole number of seconds: all a prediction keeps of its input. */
export function inputDuration(input: unknown): number | undefined {
  if (typeof input !== "object" || input === null) return undefined;
  const d = (input as Record<string, unknown>).duration;
  return typeof d === "number" && Number.isInteger(d) && d > 0 ? d : undefined;
}

/** The value for one named field: plausible where the name says what it is. */
function valueFor(
  name: string,
  schema: JsonSchemaObject,
  root: JsonSchemaObject,
  ctx: OutputContext,
  depth: number,
): unknown {
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if ("default" in schema && schema.default !== undefined) return schema.default;
  const type = typeOf(schema);
  const min = typeof schema.minimum === "number" ? schema.minimum : undefined;
  const max = typeof schema.maximum === "number" ? schema.maximum : undefined;
  const clamp = (n: number) => Math.min(max ?? n, Math.max(min ?? n, n));
  switch (type) {
    case "object":
      return objectFor(schema, root, ctx, depth + 1);
    case "array": {
      const count = typeof schema.minItems === "number" ? Math.min(schema.minItems, 8) : 0;
      const items = resolve(schema.items, root) ?? {};
      return Array.from({ length: count }, () => valueFor(name, items, root, ctx, depth + 1));
    }
    case "integer":
      if (/dur/.test(name)) return clamp(ctx.duration ?? 5);
      if (/size/.test(name)) return clamp(1_048_576);
      if (/tokens/.test(name)) return clamp(108_000);
      return clamp(1);
    case "number":
      if (/units/.test(name)) return clamp(1.08);
      return clamp(1);
    case "boolean":
      return false;
    case "null":
      return null;
    case "string": {
      if (schema.format === "uri" || schema.format === "url" || /url/.test(name))
        return `${ctx.baseUrl}/files/${encodeURIComponent(ctx.requestId)}.mp4`;
      if (/content_type|mime/.test(name)) return "video/mp4";
      if (/file_name|filename/.test(name)) return `${ctx.requestId}.mp4`;
      if (schema.format === "date-time") return new Date(0).toISOString();
      const minLength = typeof schema.minLength === "number" ? schema.minLength : 0;
      return "mock".padEnd(Math.min(Math.max(minLength, 4), 64), "-").slice(0, Math.max(minLength, 4));
    }
    default:
      return null;
  }
}

function objectFor(schema: JsonSchemaObject, root: JsonSchemaObject, ctx: OutputContext, depth: number): unknown {
  if (depth > MAX_DEPTH) return {};
  const out: Record<string, unknown> = {};
  const properties = isSchemaObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : [];
  for (const name of required) {
    if (typeof name !== "string") continue;
    const field = resolve(properties[name], root) ?? {};
    Object.defineProperty(out, name, {
      value: valueFor(name, field, root, ctx, depth),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** The output of a succeeded prediction for an endpoint whose output schema is `schema`. */
export function sampleOutput(schema: JsonSchemaObject, ctx: OutputContext): unknown {
  const top = resolve(schema, schema) ?? {};
  return valueFor("output", top, schema, ctx, 0);
}
