/**
 * Reading a submit's body: JSON only (spec 5), at most `maxBodyBytes`. Past the limit the rest is
 * drained without being kept, so the client reads the 413 rather than a reset connection.
 */
import { apiError } from "./replies.js";
import type { PlatformRequest, PlatformResponse } from "../platform/index.js";

/** The default cap on a request body (`maxBodyBytes`). */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/**
 * Spec 5: `Content-Type: application/json`, parameters allowed (`; charset=utf-8`); not
 * `application/json-evil` nor another `+json` type. A request without the header is read as JSON.
 */
export function isJsonType(type: string | null): boolean {
  return type === null || /^\s*application\/json\s*(;|$)/i.test(type);
}

/** The body as text, or the 413 to answer. */
export async function readBody(
  request: PlatformRequest,
  limit: number,
  now: number,
): Promise<{ text: string } | PlatformResponse> {
  const tooLarge = () => apiError(413, "PAYLOAD_TOO_LARGE", `the request body is over ${limit} bytes`, now);
  if (request.body === null) return { text: "" };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      // drain (without keeping) what the client is still sending; past 16 times the limit, stop listening
      if (size > 16 * limit) {
        await reader.cancel().catch(() => undefined);
        return tooLarge();
      }
      chunks.length = 0;
      continue;
    }
    chunks.push(value);
  }
  if (size > limit) return tooLarge();
  return { text: Buffer.concat(chunks).toString("utf8") };
}

/** The default number of submits read, parsed and validated at once (`maxConcurrentSubmits`). */
export const DEFAULT_CONCURRENT_SUBMITS = 8;

/**
 * At most `size` tasks at once, the rest waiting in order: a submit's body is read, parsed and
 * validated inside a slot, so the memory they take is bounded whatever the number of connections
 * (a waiting client's body stays in its socket).
 */
export class Slots {
  private busy = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly size: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.busy >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.busy++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next === undefined) this.busy--;
      else next();
    }
  }
}
