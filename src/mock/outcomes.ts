/**
 * How a submitted prediction ends, chosen per request with a `Prefer` header (as Prism does):
 * `Prefer: outcome=failed, reason=provider_timeout` takes the code and `retryable` of the spec
 * 7.2 table; `code=`, `retryable=` and `message=` override them. Other outcomes: `succeeded`
 * (the default), `edge-error` (the result endpoint answers 502 in plain text, spec 7.3),
 * `unknown-code` (a code outside 7.1 and an unknown reason, spec 7.2 open sets),
 * `plain-text-failure` (spec 9.2 rule 3).
 */
import { REASONS, redactUrl, type KnownReason } from "../runtime/index.js";

/** The error object of a failed prediction (spec 2.4), without its timestamp. */
export interface FailureSpec {
  code: string;
  message: string;
  reason?: string;
  retryable?: boolean;
}

export type Outcome =
  | { kind: "succeeded" }
  /** the prediction succeeds, but its result endpoint answers as a CDN edge does (spec 7.3) */
  | { kind: "edge-error" }
  | { kind: "failed"; failure: FailureSpec };

export const OUTCOMES = ["succeeded", "failed", "edge-error", "unknown-code", "plain-text-failure"] as const;

/** A `Prefer` header that asks for something the mock cannot do: answered with 400, never ignored. */
export class PreferError extends Error {
  override name = "PreferError";
}

/** Default messages per reason: the spec's meaning, as a service would word it. */
const MESSAGES: Record<KnownReason, string> = {
  input_validation_failed: "Input validation failed",
  provider_rejected_input: "The provider rejected the input parameters",
  input_fetch_failed: "Could not fetch an input file",
  moderation_blocked: "Blocked by the provider's content safety system",
  provider_rate_limited: "The provider is rate limiting requests",
  provider_unavailable: "The provider failed to serve the request",
  provider_timeout: "The prediction did not complete within the allowed time",
  provider_account_error: "A problem with the service's account at the provider",
  endpoint_misconfigured: "The endpoint is misconfigured",
  queue_enqueue_failed: "The request could not be placed on the queue",
  reaped_stalled: "The prediction stalled and was terminated",
};

/** Parses `key=value, key="quoted value"` preferences (RFC 7240); keys lower-cased. */
export function parsePrefer(header: string | null): Map<string, string> {
  const prefs = new Map<string, string>();
  if (header === null) return prefs;
  const re = /\s*([A-Za-z0-9_-]+)\s*(?:=\s*(?:"((?:[^"\\]|\\.)*)"|([^,;]*)))?\s*[,;]?/gy;
  let m: RegExpExecArray | null;
  while (re.lastIndex < header.length && (m = re.exec(header)) !== null) {
    if (m[0] === "") break;
    prefs.set(m[1]!.toLowerCase(), (m[2]?.replace(/\\(.)/g, "$1") ?? m[3] ?? "").trim());
  }
  return prefs;
}

/** The first URL in an input (for input_fetch_failed messages), without its query string (spec 7.2 rule 3). */
function firstUrl(input: unknown, depth = 0): string | undefined {
  if (depth > 32) return undefined;
  if (typeof input === "string") return /^[a-z][a-z0-9+.-]*:\/\//i.test(input) ? input : undefined;
  if (typeof input !== "object" || input === null) return undefined;
  for (const value of Object.values(input)) {
    const found = firstUrl(value, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The outcome a submit asks for; `PreferError` when the header asks for something unknown. */
export function outcomeOf(prefer: string | null, input: unknown): Outcome {
  const prefs = parsePrefer(prefer);
  const asked = prefs.get("outcome") ?? (prefs.has("reason") || prefs.has("code") ? "failed" : "succeeded");
  const retryableText = prefs.get("retryable");
  if (retryableText !== undefined && retryableText !== "true" && retryableText !== "false")
    throw new PreferError(`Prefer: retryable must be true or false, got ${JSON.stringify(retryableText)}`);
  const retryable = retryableText === undefined ? undefined : retryableText === "true";
  const message = prefs.get("message");
  switch (asked) {
    case "succeeded":
      return { kind: "succeeded" };
    case "edge-error":
      return { kind: "edge-error" };
    case "unknown-code":
      // spec 7.2: "code and reason are open sets; new values are added without announcement"
      return {
        kind: "failed",
        failure: {
          code: prefs.get("code") ?? "provider_capacity_exhausted",
          reason: prefs.get("reason") ?? "capacity_exhausted_for_region",
          message: message ?? "The provider has no capacity left in this region",
          ...(retryable === undefined ? {} : { retryable }),
        },
      };
    case "plain-text-failure":
      // spec 9.2 rule 3: a failure recorded as plain text is published as message under unknown_error_code
      return {
        kind: "failed",
        failure: { code: "unknown_error_code", message: message ?? "upstream worker exited with status 137" },
      };
    case "failed": {
      const reason = prefs.get("reason");
      const entry = reason !== undefined && Object.hasOwn(REASONS, reason) ? REASONS[reason as KnownReason] : undefined;
      if (reason !== undefined && entry === undefined && !prefs.has("code"))
        throw new PreferError(
          `Prefer: reason ${JSON.stringify(reason)} is not in the spec 7.2 table; give code= with it, or use one of ${Object.keys(REASONS).join(", ")}`,
        );
      const code = prefs.get("code") ?? entry?.code ?? "internal_server_error";
      let text = message ?? (reason !== undefined && entry ? MESSAGES[reason as KnownReason] : "The prediction failed");
      if (reason === "input_fetch_failed" && message === undefined) {
        const url = firstUrl(input);
        // spec 7.2 rule 3: the message echoes the URL with its query string removed
        text = url === undefined ? text : `Could not fetch ${redactUrl(url)}`;
      }
      const stated = entry === undefined || entry.retryable === "either" ? undefined : entry.retryable;
      const decided = retryable ?? stated ?? (reason === "input_fetch_failed" ? false : undefined);
      return {
        kind: "failed",
        failure: {
          code,
          message: text,
          ...(reason === undefined ? {} : { reason }),
          ...(decided === undefined ? {} : { retryable: decided }),
        },
      };
    }
    default:
      throw new PreferError(
        `Prefer: outcome ${JSON.stringify(asked)} is not one the mock knows; use one of ${OUTCOMES.join(", ")}`,
      );
  }
}
