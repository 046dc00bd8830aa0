/**
 * The preflight's findings in the project's Diagnostic shape (src/diagnostics), with the
 * service's vocabulary (spec 7.2): `input-fetch-failed` carries reason `input_fetch_failed` and
 * the `retryable` of rules 1 and 2; the media rules are the spec's own (2.2, 4.4, 8). Every
 * message names the field, the URL without its query string (rule 3) and what the service will do.
 */
import { diagnostic, fieldLabel, receivedOf, type Diagnostic } from "../diagnostics/index.js";
import { redactUrl } from "../runtime/index.js";
import type { FetchFailure } from "./source.js";
import type { MediaInfo } from "./media.js";

/** A Diagnostic whose reason and retryable follow spec 7.2 (`input_fetch_failed` may be retryable). */
export type PreflightDiagnostic = Omit<Diagnostic, "reason" | "retryable"> & {
  reason: "input_validation_failed" | "input_fetch_failed";
  retryable: boolean;
};

/** The rule ids, one home. */
export const PREFLIGHT_RULES = {
  fetch: "input-fetch-failed",
  imageFormat: "image-format",
  frameRate: "video-frame-rate",
  videosTotal: "reference-videos-total-duration",
  audiosTotal: "reference-audios-total-duration",
  /** a warning: a reference video or audio whose duration or frame rate could not be read */
  unreadable: "media-unreadable",
} as const;

/** The spec's limits the media rules check (spec 2.2, 4.4, 8). */
export const MEDIA_LIMITS = {
  imageFormats: ["png", "jpg", "webp"] as readonly string[],
  minFps: 16,
  maxVideosSeconds: 15,
  maxAudiosSeconds: 15,
};

/** A URL as a message shows it: no query string, fragment or user info; a `data:` URI by its media type. */
export function shownUrl(url: string): string {
  if (/^data:/i.test(url)) {
    const comma = url.indexOf(",");
    // RFC 2397: the media type is what comes before the comma; without one there is no data at all
    if (comma === -1) return `a data: URI with no comma before its data (${url.length} characters)`;
    const meta = url.slice(5, comma).split(";")[0] || "text/plain";
    return `a data: URI (${meta.slice(0, 60)}, ${url.length} characters)`;
  }
  const shown = redactUrl(url);
  // a URL can be 2083 characters (spec 8) or far more in a bad payload: its start names it
  return shown.length > 200 ? `${shown.slice(0, 200)}… (${shown.length} characters)` : shown;
}

const WILL_FAIL = "the service will fail this prediction with invalid_input";

/**
 * Who speaks: `preflight` foretells the service's failure (lint, the client); `service` is the
 * mock's own failed prediction, worded as the service words it (its retryable is a field).
 */
export type PreflightVoice = "preflight" | "service";

export function fetchFailed(
  pointer: string,
  url: string,
  failure: FetchFailure,
  voice: PreflightVoice = "preflight",
): PreflightDiagnostic {
  const advice = failure.advice === undefined ? "" : `; ${failure.advice}`;
  const again = failure.retryable ? " (retryable: the same request may succeed later)" : "";
  const d = diagnostic(
    "error",
    pointer,
    PREFLIGHT_RULES.fetch,
    voice === "service"
      ? `${fieldLabel(pointer)}: could not fetch ${shownUrl(url)}: ${failure.why}${advice}`
      : `${fieldLabel(pointer)}: ${shownUrl(url)}: the service will fail this prediction with input_fetch_failed: ${failure.why}${advice}${again}`,
    { kind: "fetchable" },
    receivedOf(shownUrl(url)),
  );
  return { ...d, reason: "input_fetch_failed", retryable: failure.retryable };
}

function mediaDiagnostic(
  pointer: string,
  rule: string,
  message: string,
  expected: Diagnostic["expected"],
  received?: Diagnostic["received"],
): PreflightDiagnostic {
  return diagnostic("error", pointer, rule, `${fieldLabel(pointer)}: ${message}`, expected, received);
}

export function imageFormat(pointer: string, url: string, info: MediaInfo): PreflightDiagnostic {
  return mediaDiagnostic(
    pointer,
    PREFLIGHT_RULES.imageFormat,
    `${shownUrl(url)} is ${info.format} (read from its bytes); images must be PNG, JPEG or WebP (spec 2.2): ${WILL_FAIL}`,
    { kind: "imageFormat", formats: ["PNG", "JPEG", "WebP"] },
    info.ext ?? info.format,
  );
}

const seconds = (s: number): string => `${Math.round(s * 100) / 100} s`;
const rate = (fps: number): string => `${Math.round(fps * 100) / 100} fps`;

export function frameRate(pointer: string, url: string, fps: number): PreflightDiagnostic {
  return mediaDiagnostic(
    pointer,
    PREFLIGHT_RULES.frameRate,
    `${shownUrl(url)} runs at ${rate(fps)}; each reference video must be at least ${MEDIA_LIMITS.minFps} fps (spec 4.4, 8): ${WILL_FAIL}`,
    { kind: "minimumFrameRate", limit: MEDIA_LIMITS.minFps },
    Math.round(fps * 100) / 100,
  );
}

/** The total of an array's durations over the limit, each item's share named. */
export function totalDuration(
  array: string,
  what: "videos" | "audios",
  parts: ReadonlyArray<{ index: number; duration: number }>,
): PreflightDiagnostic | undefined {
  const limit = what === "videos" ? MEDIA_LIMITS.maxVideosSeconds : MEDIA_LIMITS.maxAudiosSeconds;
  const total = parts.reduce((sum, p) => sum + p.duration, 0);
  if (total <= limit) return undefined;
  const each = parts.map((p) => `[${p.index}] ${seconds(p.duration)}`).join(", ");
  return mediaDiagnostic(
    array,
    what === "videos" ? PREFLIGHT_RULES.videosTotal : PREFLIGHT_RULES.audiosTotal,
    `the reference ${what} add up to ${seconds(total)} (${each}); at most ${limit} s in total (spec 4.4, 8): ${WILL_FAIL}`,
    { kind: "maximumTotalDuration", limit },
    Math.round(total * 100) / 100,
  );
}

/** A warning: the file was fetched but its format, duration or frame rate could not be read (`info.problem` says why, when known). */
export function unreadable(
  pointer: string,
  url: string,
  info: MediaInfo,
  needs: string,
  readable: string,
  /** why, when the read was cut short: "the server ignored the Range request …" */
  cut?: string,
): PreflightDiagnostic {
  // why, in words: the read cut short (source.ts), the parse that failed (media.ts), or neither
  const reasons = [cut, info.problem].filter((r) => r !== undefined);
  const why = `(${reasons.length === 0 ? `it reads ${readable}` : reasons.join("; ")})`;
  return diagnostic(
    "warning",
    pointer,
    PREFLIGHT_RULES.unreadable,
    `${fieldLabel(pointer)}: ${shownUrl(url)} is ${info.format}; the preflight could not read its ${needs} ${why}, so the spec's limits on it were not checked`,
    { kind: "readableMedia" },
    info.ext ?? info.format,
  );
}
