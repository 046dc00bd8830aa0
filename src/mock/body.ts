/**
 * Reading a submit's body: JSON only (spec 5), at most `maxBodyBytes`. Past the limit the rest is
 * drained without being kept, so the client reads the 413 rather than a reset connection.
 */
import { apiError } from "./replies.js";

/** The default cap on a request body (`maxBodyBytes`). */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** A JSON media type: `application/json` or `application/<x>+json`, parameters allowed. */
export function isJsonType(type: string | null): boolean {
  return type === null || /^application\/(.+\+)?json\b/i.test(type);
}

/** The body as text, or the 413 to answer. */
export async function readBody(request: Request, limit: number, now: number): Promise<{ text: string } | Response> {
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
