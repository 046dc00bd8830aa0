/**
 * The preflight run: every URL a payload references, fetched the way the service will (once
 * per run, a limit of requests per host, one deadline), then the media rules on what was read.
 * `createPreflight` is the batch form `vsk lint --preflight` shares across payloads;
 * `preflight` checks one payload.
 */
import { createHash } from "node:crypto";
import { setMaxListeners } from "node:events";
import type { Agent } from "undici";
import type { JsonSchemaObject } from "../schema/index.js";
import { AllowHosts, type Resolver } from "./address.js";
import {
  fetchFailed,
  frameRate,
  imageFormat,
  MEDIA_LIMITS,
  totalDuration,
  unreadable,
  type PreflightDiagnostic,
  type PreflightVoice,
} from "./diagnostics.js";
import { mediaFieldsOf, referencesOf, type MediaField, type MediaReference } from "./fields.js";
import { DEEP_READ_BYTES, HEAD_BYTES, inspect, type MediaInfo } from "./media.js";
import { Lru } from "./lru.js";
import { pinnedConnect } from "./connect.js";
import {
  dataSource,
  FetchFailed,
  httpSource,
  MAX_PINS,
  systemResolver,
  type ByteSource,
  type FetchFailure,
  type Pins,
  type SourceSettings,
} from "./source.js";

/** The defaults, documented in docs/preflight.md. */
export const PREFLIGHT_DEFAULTS = {
  /** per request: its headers and its whole body within this, or a timeout (and per DNS lookup) */
  timeoutMs: 10_000,
  /** the whole run */
  deadlineMs: 120_000,
  /** requests at a time to one host (host:port) */
  concurrency: 8,
  /** the size limit of spec 7.2 (its value is not shown in the spec, 8): 100 MiB */
  maxFileBytes: 100 * 1024 * 1024,
  /** body bytes read of one file at most, whatever its server sends: the first read and the deep read */
  readBytesPerFile: HEAD_BYTES + DEEP_READ_BYTES,
  /** verdicts kept per run (one per distinct URL, a `data:` URI or a long URL by its hash); an older one is inspected again if met again */
  cachedVerdicts: 20_000,
};

export interface PreflightOptions {
  /** hosts treated as public: `host` (any port) or `host:port` — for local mirrors and tests */
  allowHosts?: readonly string[];
  timeoutMs?: number;
  deadlineMs?: number;
  concurrency?: number;
  maxFileBytes?: number;
  /** resolves a host name to its addresses (default: the system resolver); every one must be public */
  resolve?: Resolver;
  /** what the advice calls the allow-list: `--preflight-allow-host` (vsk lint), `--fetch-inputs-allow-host` (vsk mock); default `allowHosts` (this option) */
  allowHostsName?: string;
  /** `service`: a fetch failure worded as the service's own error (the mock's failed prediction); default `preflight` */
  voice?: PreflightVoice;
}

/** Which fields to check: by the endpoint's input schema (as generated code's `inputSchema`), or given. */
export interface PreflightTarget {
  inputSchema?: JsonSchemaObject;
  fields?: readonly MediaField[];
}

export interface PreflightStats {
  /** distinct URLs (and data: URIs) inspected */
  urls: number;
  /** HTTP requests sent */
  requests: number;
  /** body bytes received */
  bytes: number;
}

export interface PreflightRun {
  /** The diagnostics of one payload; `key` names the endpoint (`owner/name/endpoint`) in nothing but errors. */
  check(key: string, input: unknown, target?: PreflightTarget): Promise<PreflightDiagnostic[]>;
  stats(): PreflightStats;
  /** ends the run: closes its connections and its deadline */
  close(): Promise<void>;
}

/** A URL's verdict: what its bytes are (and why a read was cut short), or why it could not be fetched. Nothing of its bytes. */
type Inspection = { ok: true; info: MediaInfo; cut?: string } | { ok: false; failure: FetchFailure };

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0)
    throw new RangeError(`preflight: ${name} must be a positive number, got ${value}`);
  return value;
}

/**
 * Requests at a time per host: a waiting line per `host:port`. A request still waiting when the
 * run's deadline passes is not sent, and says so (`notSent`): it was never tried.
 */
function hostLimiter(concurrency: number, deadline: AbortSignal, notSent: (host: string) => FetchFailure) {
  const active = new Map<string, number>();
  const waiting = new Map<string, Array<() => void>>();
  return async function limit<T>(host: string, task: () => Promise<T>): Promise<T> {
    if ((active.get(host) ?? 0) >= concurrency)
      await new Promise<void>((go) => {
        const line = waiting.get(host) ?? [];
        line.push(go);
        waiting.set(host, line);
      });
    active.set(host, (active.get(host) ?? 0) + 1);
    try {
      if (deadline.aborted) throw new FetchFailed(notSent(host));
      return await task();
    } finally {
      const left = active.get(host)! - 1;
      if (left === 0) active.delete(host);
      else active.set(host, left);
      const line = waiting.get(host);
      line?.shift()?.();
      if (line !== undefined && line.length === 0) waiting.delete(host);
    }
  };
}

/** A URL's key in the run's cache: a `data:` URI (it can be megabytes) or a long URL by its hash. */
function cacheKey(url: string): string {
  return url.length <= 256 ? url : `sha256:${createHash("sha256").update(url).digest("base64")}`;
}

/** A preflight run shared by many payloads: one URL cache, one limit per host, one deadline. */
export function createPreflight(options: PreflightOptions = {}): PreflightRun {
  const timeoutMs = positive(options.timeoutMs, PREFLIGHT_DEFAULTS.timeoutMs, "timeoutMs");
  const deadlineMs = positive(options.deadlineMs, PREFLIGHT_DEFAULTS.deadlineMs, "deadlineMs");
  const concurrency = Math.floor(positive(options.concurrency, PREFLIGHT_DEFAULTS.concurrency, "concurrency"));
  const maxFileBytes = positive(options.maxFileBytes, PREFLIGHT_DEFAULTS.maxFileBytes, "maxFileBytes");
  const voice = options.voice ?? "preflight";
  const deadline = new AbortController();
  // each request in flight listens for the deadline (and stops listening when it ends): as many as
  // the hosts × concurrency, so no "possible leak" warning at 11
  setMaxListeners(0, deadline.signal);
  let timer: NodeJS.Timeout | undefined;
  const pins: Pins = new Lru(MAX_PINS);
  let agent: Promise<Agent> | undefined;
  const stats: PreflightStats = { urls: 0, requests: 0, bytes: 0 };
  const limit = hostLimiter(concurrency, deadline.signal, (host) => ({
    retryable: true,
    why: `not requested: the preflight's overall deadline (${deadlineMs / 1000} s for the run) passed while it waited its turn for ${host}`,
  }));
  const settings: SourceSettings = {
    allowHosts: new AllowHosts(options.allowHosts),
    allowHostsName: options.allowHostsName ?? "allowHosts",
    resolve: options.resolve ?? systemResolver,
    timeoutMs,
    maxFileBytes,
    readBudget: PREFLIGHT_DEFAULTS.readBytesPerFile,
    deadline: deadline.signal,
    deadlineMs,
    onBytes: (n) => {
      stats.bytes += n;
    },
    limit: (host, task) =>
      limit(host, () => {
        stats.requests++;
        return task();
      }),
    agent: () =>
      (agent ??= import("undici").then(
        ({ Agent, buildConnector }) =>
          new Agent({
            connections: concurrency,
            connect: pinnedConnect(pins, buildConnector, timeoutMs),
            headersTimeout: timeoutMs,
            bodyTimeout: timeoutMs,
          }),
      )),
  };
  // verdicts only, bounded (issue 37.6): a URL being inspected stays in `pending` until it has one
  const cache = new Lru<string, Inspection>(PREFLIGHT_DEFAULTS.cachedVerdicts);
  const pending = new Map<string, Promise<Inspection>>();

  function inspectUrl(url: string): Promise<Inspection> {
    const key = cacheKey(url);
    const done = cache.get(key);
    if (done !== undefined) return Promise.resolve(done);
    let found = pending.get(key);
    if (found === undefined) {
      // the deadline starts with the first file, so a run built ahead of time does not lose it
      timer ??= setTimeout(() => deadline.abort(), deadlineMs);
      timer.unref?.();
      stats.urls++;
      found = (async (): Promise<Inspection> => {
        try {
          const source: ByteSource & { note?: string } = /^data:/i.test(url)
            ? dataSource(url, settings)
            : httpSource(url, settings, pins);
          const info = await inspect(source, { signal: deadline.signal });
          return source.note === undefined ? { ok: true, info } : { ok: true, info, cut: source.note };
        } catch (error) {
          if (error instanceof FetchFailed) return { ok: false, failure: error.failure };
          // a parser's own failure on bytes that were fetched: the file is there, just not readable
          return { ok: true, info: { family: "other", format: "a file the preflight could not parse" } };
        }
      })().then((verdict) => {
        pending.delete(key);
        cache.set(key, verdict);
        return verdict;
      });
      pending.set(key, found);
    }
    return found;
  }

  async function check(key: string, input: unknown, target: PreflightTarget = {}): Promise<PreflightDiagnostic[]> {
    if (typeof input !== "object" || input === null || Array.isArray(input))
      throw new TypeError(`preflight ${key}: the input must be a JSON object (the request body)`);
    const fields = target.fields ?? mediaFieldsOf(target.inputSchema);
    const refs = referencesOf(input, fields);
    const results = await Promise.all(refs.map((ref) => inspectUrl(ref.url)));
    return diagnose(refs, results, voice);
  }

  return {
    check,
    stats: () => ({ ...stats }),
    async close() {
      if (timer !== undefined) clearTimeout(timer);
      deadline.abort();
      const a = await agent;
      await a?.close();
    },
  };
}

/** The rules on what was read, per reference, then the totals per array (spec 2.2, 4.4, 8). */
function diagnose(
  refs: readonly MediaReference[],
  results: readonly Inspection[],
  voice: PreflightVoice,
): PreflightDiagnostic[] {
  const out: PreflightDiagnostic[] = [];
  const totals = new Map<string, { what: "videos" | "audios"; parts: Array<{ index: number; duration: number }> }>();
  refs.forEach((ref, i) => {
    const result = results[i]!;
    if (!result.ok) {
      out.push(fetchFailed(ref.pointer, ref.url, result.failure, voice));
      return;
    }
    const info = result.info;
    if (ref.kind === "image") {
      // a parse that failed before the format was known (media.ts): not read, so not judged
      if (info.problem !== undefined && info.ext === undefined)
        out.push(unreadable(ref.pointer, ref.url, info, "format", "PNG, JPEG, WebP"));
      else if (info.family !== "image" || !MEDIA_LIMITS.imageFormats.includes(info.ext ?? ""))
        out.push(imageFormat(ref.pointer, ref.url, info));
      return;
    }
    if (ref.kind !== "video" && ref.kind !== "audio") return; // documents, web pages: fetchability only
    const what = ref.kind === "video" ? "videos" : "audios";
    const readable = ref.kind === "video" ? "MP4, MOV, WebM" : "MP3, WAV, M4A";
    const needs = ref.kind === "video" ? "duration and frame rate" : "duration";
    if (info.family !== ref.kind || info.duration === undefined || (ref.kind === "video" && info.fps === undefined)) {
      out.push(unreadable(ref.pointer, ref.url, info, needs, readable, result.cut));
    }
    if (ref.kind === "video" && info.family === "video" && info.fps !== undefined && info.fps < MEDIA_LIMITS.minFps)
      out.push(frameRate(ref.pointer, ref.url, info.fps));
    if (info.duration !== undefined && ref.array !== undefined && info.family === ref.kind) {
      const entry = totals.get(ref.array) ?? { what, parts: [] };
      entry.parts.push({ index: Number(ref.pointer.slice(ref.array.length + 1)), duration: info.duration });
      totals.set(ref.array, entry);
    }
  });
  for (const [array, { what, parts }] of totals) {
    const d = totalDuration(array, what, parts);
    if (d !== undefined) out.push(d);
  }
  return out;
}

/** Checks one payload's referenced files; see `createPreflight` for many payloads. */
export async function preflight(
  key: string,
  input: unknown,
  options: PreflightOptions & PreflightTarget = {},
): Promise<PreflightDiagnostic[]> {
  const run = createPreflight(options);
  try {
    return await run.check(key, input, options);
  } finally {
    await run.close();
  }
}
