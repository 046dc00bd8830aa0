/**
 * Webhook deliveries (spec 6.2), verified per Standard Webhooks v1 with Web Crypto (Node,
 * browsers, edge runtimes): `webhook-id`, `webhook-timestamp` (seconds), `webhook-signature`
 * holding space-separated `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`; the key is the base64
 * secret after an optional `whsec_` prefix. Signature and delivery format are ours (QUEUE.md):
 * the spec does not show them.
 */
import { readWebhook as readWebhookRuntime, type PredictionReading } from "../runtime/index.js";
import { fromBase64Text, subtleCrypto, toBase64Text, utf8, type HeadersLike } from "./platform.js";

export interface WebhookRequest {
  /** `Headers`, or a plain record (Node's `IncomingHttpHeaders` works) */
  headers: HeadersLike | Record<string, string | string[] | undefined>;
  /** the raw body, exactly as received */
  body: string;
}

function header(headers: WebhookRequest["headers"], name: string): string | undefined {
  if (typeof (headers as HeadersLike).get === "function") return (headers as HeadersLike).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : value;
}

function fromBase64(text: string): Uint8Array | undefined {
  try {
    const binary = fromBase64Text(text);
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

function toBase64(bytes: ArrayBuffer): string {
  let binary = "";
  for (const b of new Uint8Array(bytes)) binary += String.fromCharCode(b);
  return toBase64Text(binary);
}

/** Compares two strings in time that depends only on their lengths. */
function constantTimeEqual(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) diff |= (a.charCodeAt(i) | 0) ^ (b.charCodeAt(i) | 0);
  return diff === 0;
}

/**
 * True when the delivery is signed with `secret` and its timestamp is within `toleranceSeconds`
 * of now (default 300). Missing headers, a malformed secret or signature give false; it throws only
 * on a platform without Web Crypto (`crypto.subtle`: Node >= 20, browsers in secure contexts, edge
 * runtimes have it).
 */
export async function verifyWebhook(
  request: WebhookRequest,
  secret: string,
  options: { toleranceSeconds?: number; now?: () => number } = {},
): Promise<boolean> {
  // a platform fault, not a bad delivery: said out loud rather than read as "not signed"
  const subtle = subtleCrypto();
  if (subtle === undefined)
    throw new TypeError("verifyWebhook needs Web Crypto (crypto.subtle), which this platform does not provide");
  try {
    const id = header(request.headers, "webhook-id");
    const timestamp = header(request.headers, "webhook-timestamp");
    const signatures = header(request.headers, "webhook-signature");
    if (id === undefined || timestamp === undefined || signatures === undefined) return false;
    if (!/^\d{1,15}$/.test(timestamp)) return false;
    const nowSeconds = Math.floor((options.now ?? Date.now)() / 1000);
    if (Math.abs(nowSeconds - Number(timestamp)) > (options.toleranceSeconds ?? 300)) return false;
    const keyBytes = fromBase64(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret);
    if (keyBytes === undefined || keyBytes.length === 0) return false;
    const key = await subtle.importKey("raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    const expected = toBase64(await subtle.sign("HMAC", key, utf8(`${id}.${timestamp}.${request.body}`)));
    let ok = false;
    for (const entry of signatures.split(" ")) {
      const [version, signature] = entry.split(",", 2);
      if (version === "v1" && signature !== undefined && constantTimeEqual(signature, expected)) ok = true;
    }
    return ok;
  } catch {
    return false;
  }
}

/** A webhook delivery read: the prediction reading (spec 6.2, 6.3) and the typed output on success. */
export interface WebhookReading<TOutput = unknown> extends PredictionReading {
  /** the output of a succeeded prediction (`payload`), as sent */
  output?: TOutput;
}

/** Reads a delivery body (text or parsed JSON); never throws. */
export function readWebhook<TOutput = unknown>(body: string | unknown): WebhookReading<TOutput> {
  let parsed: unknown = body;
  if (typeof body === "string") {
    try {
      parsed = JSON.parse(body);
    } catch {
      return {
        ...readWebhookRuntime(undefined),
        notes: ["The webhook body is not JSON; there is no status or error to read."],
      };
    }
  }
  const reading = readWebhookRuntime(parsed);
  const payload =
    typeof parsed === "object" && parsed !== null && Object.hasOwn(parsed, "payload")
      ? (parsed as { payload: TOutput }).payload
      : undefined;
  return payload === undefined ? reading : { ...reading, output: payload };
}
