/**
 * Webhook deliveries (spec 6.2): the final state of a prediction, POSTed to the URL given at
 * submit (`?webhook=`, docs/queue.md). Signed per Standard Webhooks v1 when a secret is set:
 * `webhook-id`, `webhook-timestamp` (seconds), `webhook-signature: v1,<base64 HMAC-SHA256 of
 * "id.timestamp.body">`, the key decoded from the secret by the client's `webhookKey` (the one
 * decoding `verifyWebhook` uses: a `whsec_` secret is base64, another is base64 when it is
 * base64 and its UTF-8 bytes otherwise).
 */
import { createHmac, randomUUID } from "node:crypto";
import { webhookKey } from "../client/index.js";

/** One delivery, as recorded by the mock (for a test to assert on). */
export interface WebhookDelivery {
  requestId: string;
  /** the target URL */
  url: string;
  headers: Record<string, string>;
  /** the exact body sent */
  body: string;
  /**
   * the receiver's HTTP status, or 0 when the delivery failed (then `error` says why); with a
   * status, `error` says the receiver's answer was over the cap (`maxWebhookResponseBytes`)
   */
  status: number;
  error?: string;
}

/** The headers of a signed delivery (Standard Webhooks v1). */
export function signWebhook(
  secret: string,
  body: string,
  nowMs: number,
  id = `msg_${randomUUID()}`,
): Record<string, string> {
  const ts = String(Math.floor(nowMs / 1000));
  const signature = createHmac("sha256", webhookKey(secret)).update(`${id}.${ts}.${body}`).digest("base64");
  return { "webhook-id": id, "webhook-timestamp": ts, "webhook-signature": `v1,${signature}` };
}

/** Only loopback receivers: the mock never calls out of the machine. */
export function isLoopbackUrl(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  return host === "localhost" || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);
}

/** The default cap on the receiver's answer the mock reads (`maxWebhookResponseBytes`); the rest is not read. */
export const DEFAULT_MAX_WEBHOOK_RESPONSE_BYTES = 64 * 1024;
/** The default deadline of one delivery, answer included (ms). */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 5000;

/** Reads (and drops) at most `limit` bytes of an answer; true when there was more, which is left unread. */
async function drainCapped(response: Response, limit: number): Promise<boolean> {
  if (response.body === null) return false;
  const reader = response.body.getReader();
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return false;
      size += value.byteLength;
      if (size > limit) return true;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** POSTs one delivery; never throws (a receiver that is down is recorded, not fatal). */
export async function deliver(
  url: string,
  body: string,
  headers: Record<string, string>,
  requestId: string,
  { timeoutMs = DEFAULT_WEBHOOK_TIMEOUT_MS, maxResponseBytes = DEFAULT_MAX_WEBHOOK_RESPONSE_BYTES } = {},
): Promise<WebhookDelivery> {
  const all = { "content-type": "application/json", ...headers };
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: all,
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
    const over = await drainCapped(response, maxResponseBytes).catch(() => false);
    return {
      requestId,
      url,
      headers: all,
      body,
      status: response.status,
      ...(over ? { error: `the receiver's answer is over ${maxResponseBytes} bytes; the rest was not read` } : {}),
    };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return {
      requestId,
      url,
      headers: all,
      body,
      status: 0,
      error: cause ?? (error instanceof Error ? error.message : String(error)),
    };
  }
}
