/**
 * Webhook deliveries (spec 6.2), verified per Standard Webhooks v1 with Web Crypto (Node,
 * browsers, edge runtimes): `webhook-id`, `webhook-timestamp` (seconds), `webhook-signature`
 * holding space-separated `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`. Signature and
 * delivery format are ours (docs/queue.md): the spec does not show them. The secret's key bytes come
 * from `webhookKey`, which the mock's signer uses too.
 */
import { readWebhook as readWebhookRuntime, type PredictionReading } from "../runtime/index.js";
import { fromBase64Text, subtleCrypto, toBase64Text, utf8, type HeadersLike } from "./platform.js";

export interface WebhookRequest {
  /** `Headers`, or a plain record (Node's `IncomingHttpHeaders` works) */
  headers: HeadersLike | Record<string, string | string[] | undefined>;
  /** the raw body, exactly as received */
  body: string;
}

const PREFIX = "whsec_";
/** Standard base64, padded: what Standard Webhooks libraries decode. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The HMAC key of a webhook secret, the one decoding of the toolkit (`verifyWebhook` and the
 * mock's signer): a `whsec_` secret is the base64 after the prefix, as Standard Webhooks
 * libraries read it; a secret without the prefix is base64-decoded when it is (padded, standard)
 * base64, as those libraries do, and otherwise taken as its UTF-8 bytes (what they call a "raw"
 * secret; `test-secret` is one). A `whsec_` secret that is not base64, or an empty one, is a
 * `TypeError`.
 */
export function webhookKey(secret: string): Uint8Array {
  if (typeof secret !== "string" || secret === "" || secret === PREFIX)
    throw new TypeError("the webhook secret is empty; pass the secret the deliveries are signed with");
  const prefixed = secret.startsWith(PREFIX);
  const text = prefixed ? secret.slice(PREFIX.length) : secret;
  if (BASE64.test(text)) return Uint8Array.from(fromBase64Text(text), (c) => c.charCodeAt(0));
  if (prefixed)
    throw new TypeError(
      "the webhook secret starts with whsec_ but the rest is not base64; copy the whole secret as given",
    );
  return utf8(text);
}

/** Every value of a header (an array's values, or one string), or [] when it is absent. */
function headerValues(headers: WebhookRequest["headers"], name: string): string[] {
  if (typeof (headers as HeadersLike).get === "function") {
    const value = (headers as HeadersLike).get(name);
    return value === null ? [] : [value];
  }
  const record = headers as Record<string, string | string[] | undefined>;
  const values: string[] = [];
  for (const key of Object.keys(record)) {
    if (key.toLowerCase() !== name) continue;
    const value = record[key];
    if (Array.isArray(value)) values.push(...value);
    else if (value !== undefined) values.push(value);
  }
  return values;
}

/** The one value of a header that must not repeat (an id, a timestamp); undefined when absent or differing. */
function singleHeader(headers: WebhookRequest["headers"], name: string): string | undefined {
  const values = new Set(headerValues(headers, name).map((v) => v.trim()));
  return values.size === 1 ? [...values][0] : undefined;
}

/**
 * The `v1` signatures of every `webhook-signature` value: entries are space-separated (a comma
 * and space also separate them where headers were joined, as `Headers` and Node join repeats);
 * an entry must be exactly `<version>,<base64>`, anything else (`v1,<sig>,junk`) never matches.
 */
function v1Signatures(headers: WebhookRequest["headers"]): string[] {
  const signatures: string[] = [];
  for (const value of headerValues(headers, "webhook-signature")) {
    const entries = value.trim().split(/\s+/);
    entries.forEach((entry, i) => {
      // a trailing comma before the next entry is a join of two headers, not part of the entry
      const clean = i < entries.length - 1 && entry.endsWith(",") ? entry.slice(0, -1) : entry;
      const match = /^v1,([A-Za-z0-9+/]+={0,2})$/.exec(clean);
      if (match !== null) signatures.push(match[1]!);
    });
  }
  return signatures;
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
 * True when the delivery is signed with `secret` (decoded by `webhookKey`) and its timestamp is
 * within `toleranceSeconds` of now (default 300). Anything missing or wrong in the delivery gives
 * false: missing headers, an id or timestamp given twice with different values, a malformed
 * signature entry. A caller's mistake is a `TypeError`: an empty secret, a `whsec_` secret that
 * is not base64, a `toleranceSeconds` that is not a finite number >= 0; so is a platform without
 * Web Crypto (`crypto.subtle`: Node >= 20, browsers in secure contexts, edge runtimes have it).
 */
export async function verifyWebhook(
  request: WebhookRequest,
  secret: string,
  options: { toleranceSeconds?: number; now?: () => number } = {},
): Promise<boolean> {
  const tolerance = options.toleranceSeconds ?? 300;
  if (typeof tolerance !== "number" || !Number.isFinite(tolerance) || tolerance < 0)
    throw new TypeError(
      `verifyWebhook: toleranceSeconds must be a finite number of seconds >= 0, got ${String(tolerance)}`,
    );
  const keyBytes = webhookKey(secret);
  // a platform fault, not a bad delivery: said out loud rather than read as "not signed"
  const subtle = subtleCrypto();
  if (subtle === undefined)
    throw new TypeError("verifyWebhook needs Web Crypto (crypto.subtle), which this platform does not provide");
  try {
    const id = singleHeader(request.headers, "webhook-id");
    const timestamp = singleHeader(request.headers, "webhook-timestamp");
    const signatures = v1Signatures(request.headers);
    if (id === undefined || timestamp === undefined || signatures.length === 0) return false;
    if (!/^\d{1,15}$/.test(timestamp)) return false;
    const nowSeconds = Math.floor((options.now ?? Date.now)() / 1000);
    if (Math.abs(nowSeconds - Number(timestamp)) > tolerance) return false;
    const key = await subtle.importKey("raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    const expected = toBase64(await subtle.sign("HMAC", key, utf8(`${id}.${timestamp}.${request.body}`)));
    let ok = false;
    for (const signature of signatures) if (constantTimeEqual(signature, expected)) ok = true;
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
