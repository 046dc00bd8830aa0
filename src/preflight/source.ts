/**
 * Reading a referenced file the way the service fetches it (spec 7.2, input_fetch_failed):
 * a GET with no credentials, no redirect followed, from a public address only, within a
 * timeout, a size limit and the run's deadline. Only the bytes the media checks need are read,
 * with HTTP Range requests; a `data:` URI is read in place. Every failure is a `FetchFailure`
 * whose `retryable` follows spec 7.2 rules 1 and 2.
 */
import { lookup as dnsLookup } from "node:dns";
import { isIP } from "node:net";
import { STATUS_CODES } from "node:http";
import type { Agent } from "undici";
import { errorCode, TRANSIENT_ERRORS } from "../fetch/index.js";
import { redactUrl } from "../runtime/index.js";
import { AllowHosts, notPublic, type Resolver } from "./address.js";
import { Lru } from "./lru.js";
import type { PlatformAbortSignal } from "../platform/index.js";
import { byteSize, limitSize } from "../words/index.js";

/** Why the service would not get the file: `why` says what happened, `advice` what to check. */
export interface FetchFailure {
  /** spec 7.2: true when the host was momentarily unreachable (a 5xx, a timeout, DNS, refused or reset) */
  retryable: boolean;
  /** "HTTP 403", "a redirect (HTTP 302) to https://cdn.example/x.png", "its host resolves to a private address" */
  why: string;
  advice?: string;
}

export class FetchFailed extends Error {
  constructor(readonly failure: FetchFailure) {
    super(failure.why);
  }
}

/** Random access to one file's bytes; `size` once known. Reads past the end come back short. */
export interface ByteSource {
  size: number | undefined;
  read(start: number, length: number): Promise<Uint8Array>;
}

export interface SourceSettings {
  allowHosts: AllowHosts;
  /** how the caller allows a host, for the advice: `--preflight-allow-host` (a flag), `allowHosts` (an option) */
  allowHostsName: string;
  resolve: Resolver;
  /** per request: its headers and its whole body, and per DNS lookup */
  timeoutMs: number;
  maxFileBytes: number;
  /** body bytes one file may cost, whatever the server sends (media.ts' HEAD_BYTES + DEEP_READ_BYTES) */
  readBudget: number;
  deadline: PlatformAbortSignal;
  deadlineMs: number;
  /** counts every body byte received (for stats) */
  onBytes(n: number): void;
  /** runs `task` within the host's concurrency limit */
  limit<T>(host: string, task: () => Promise<T>): Promise<T>;
  /** undici's `Agent` pinned to the checked addresses (typed `unknown`: the public `.d.ts` names no undici type) */
  agent(): Promise<unknown>;
}

/** Advice per status class: what a person should check (spec 7.2 rule 4). */
const STATUS_ADVICE: ReadonlyArray<{ test: (status: number) => boolean; advice: string }> = [
  { test: (s) => s === 401 || s === 403, advice: "a presigned link may have expired, or the file is private" },
  { test: (s) => s === 404 || s === 410, advice: "the file is not at this URL" },
  { test: (s) => s >= 400 && s < 500, advice: "check that the URL is publicly reachable" },
  { test: (s) => s >= 500, advice: "the host failed for the moment" },
];

function statusFailure(status: number): FetchFailure {
  return {
    retryable: status >= 500,
    why: `HTTP ${status}${STATUS_CODES[status] === undefined ? "" : ` ${STATUS_CODES[status]}`}`,
    advice: STATUS_ADVICE.find((a) => a.test(status))?.advice,
  };
}

function networkFailure(error: unknown, settings: SourceSettings): FetchFailure {
  if (settings.deadline.aborted)
    return {
      retryable: true,
      why: `the preflight's overall deadline (${settings.deadlineMs / 1000} s for the run) passed before the file answered`,
    };
  const code = errorCode(error) ?? (error instanceof Error ? error.name : "");
  // the request's own timer (headers and body) and undici's header and idle-body timers all run
  // timeoutMs: whichever fires first, the same words (they raced, and a run said one or the other)
  if (
    code === "AbortError" ||
    code === "TimeoutError" ||
    code === "UND_ERR_ABORTED" ||
    code === "UND_ERR_HEADERS_TIMEOUT" ||
    code === "UND_ERR_BODY_TIMEOUT"
  )
    return {
      retryable: true,
      why: `no complete answer (headers and body) within ${settings.timeoutMs / 1000} s (a timeout)`,
    };
  const words = TRANSIENT_ERRORS[code];
  // anything else the network says is momentary too (spec 7.2 rule 2): name it, do not guess more
  return { retryable: true, why: words === undefined ? `the connection failed (${code || "unknown error"})` : words };
}

function tooBig(size: number, settings: SourceSettings): FetchFailure {
  return {
    retryable: false,
    why: `the file is ${byteSize(size)}, over the size limit of ${limitSize(settings.maxFileBytes)}`,
    advice:
      "use a smaller file (the limit is the preflight's maxFileBytes option, 100 MiB by default: docs/preflight.md)",
  };
}

/** A `data:` URI's bytes, read in place (RFC 2397). */
export function dataSource(uri: string, settings: Pick<SourceSettings, "maxFileBytes">): ByteSource {
  const comma = uri.indexOf(",");
  if (comma === -1) throw new FetchFailed({ retryable: false, why: "a data: URI without a comma before its data" });
  const meta = uri.slice(5, comma);
  const payload = uri.slice(comma + 1);
  let bytes: Uint8Array;
  try {
    bytes = /;base64$/i.test(meta)
      ? Buffer.from(payload, "base64")
      : Buffer.from(decodeURIComponent(payload), "latin1");
  } catch {
    throw new FetchFailed({ retryable: false, why: "a data: URI whose data does not decode" });
  }
  if (bytes.length > settings.maxFileBytes) throw new FetchFailed(tooBig(bytes.length, settings as SourceSettings));
  return { size: bytes.length, read: async (start, length) => bytes.subarray(start, start + length) };
}

/** "a" or "an" before a range's word: "an unspecified", "a unique-local" (said "yoo"), "a loopback". */
const article = (word: string): string => (/^([aeio]|u(?!ni))/i.test(word) ? `an ${word}` : `a ${word}`);

/** `host` without IPv6 brackets, lower case, with its port: the key of a pin. */
export function pinKey(hostname: string, port: string | number): string {
  const host = hostname.toLowerCase();
  return `${host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host}:${port}`;
}

/** The most host:port pins a run keeps (each a few addresses); an older one is resolved and checked again when needed. */
export const MAX_PINS = 4096;

/**
 * Addresses resolved and checked, by exact `host:port`: a connection to that host and port goes
 * to exactly these (issue 37.3). The first answer that passed is kept for the run, so a DNS answer
 * that changes mid-run is never used; a refusal is kept too.
 */
export type Pins = Lru<string, Promise<string[]>>;

/** A DNS lookup within the request timeout: a resolver that never answers is a timeout, not a stall. */
function resolveWithin(hostname: string, settings: SourceSettings): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(Object.assign(new Error("DNS timeout"), { code: "ETIMEOUT" })), settings.timeoutMs);
  });
  return Promise.race([settings.resolve(hostname), late]).finally(() => clearTimeout(timer));
}

/**
 * The addresses `url`'s host and port may be reached at, checked: throws the failure when the
 * service may not fetch from one of them. An allow-listed host:port is resolved and pinned the
 * same way, not checked — and its pin is its own, never another port's.
 */
async function resolveChecked(url: URL, port: string, settings: SourceSettings): Promise<string[]> {
  const allowed = settings.allowHosts.has(url.hostname, port);
  const literal = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  if (isIP(literal) !== 0) addresses = [literal];
  else {
    try {
      addresses = await resolveWithin(url.hostname, settings);
    } catch (error) {
      const code = errorCode(error);
      throw new FetchFailed({
        retryable: true,
        why: `DNS lookup of ${url.hostname} failed${code === undefined ? "" : ` (${code})`}`,
      });
    }
    if (addresses.length === 0)
      throw new FetchFailed({ retryable: true, why: `DNS lookup of ${url.hostname} found no address` });
  }
  for (const address of allowed ? [] : addresses) {
    const refused = notPublic(address);
    if (refused === undefined) continue;
    const carried =
      refused.ipv4 === undefined
        ? `${article(refused.kind)} address (${address})`
        : `an address (${address}) that carries ${article(refused.kind)} IPv4 address (${refused.ipv4}, ${refused.form})`;
    throw new FetchFailed({
      retryable: false,
      why: `its host ${url.hostname} is ${carried} the service may not fetch from`,
      advice: `use a publicly reachable URL (for a local mirror, allow the host: ${allowAdvice(settings.allowHostsName, url.host)})`,
    });
  }
  return addresses;
}

/** `--preflight-allow-host 127.0.0.1:8080` for a flag, `allowHosts: ["127.0.0.1:8080"]` for an option. */
function allowAdvice(name: string, host: string): string {
  return name.startsWith("--") ? `${name} ${host}` : `${name}: [${JSON.stringify(host)}]`;
}

/** The checked addresses of `url`'s host:port, once per run; a momentary failure (DNS) is tried again by the next URL. */
function checkHost(url: URL, settings: SourceSettings, pins: Pins): Promise<string[]> {
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  const key = pinKey(url.hostname, port);
  let pin = pins.get(key);
  if (pin === undefined) {
    const made = resolveChecked(url, port, settings);
    pins.set(key, made);
    made.catch((error: unknown) => {
      if (error instanceof FetchFailed && error.failure.retryable && pins.get(key) === made) pins.delete(key);
    });
    pin = made;
  }
  return pin;
}

/** `bytes a-b/total` → total. */
function totalOf(contentRange: string | undefined): number | undefined {
  const match = /\/(\d+)\s*$/.exec(contentRange ?? "");
  return match === null ? undefined : Number(match[1]);
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** An http(s) URL read with Range requests; the first read checks the host and learns the size. */
export function httpSource(raw: string, settings: SourceSettings, pins: Pins): HttpSource {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FetchFailed({ retryable: false, why: "not a URL the service can fetch", advice: "give an https URL" });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new FetchFailed({
      retryable: false,
      why: `a ${url.protocol} URL, which the service does not fetch`,
      advice: "give an https URL",
    });
  // credentials in the URL (`user:pw@host`) would become an Authorization header: never sent
  url.username = "";
  url.password = "";
  const source: HttpSource = {
    size: undefined,
    received: 0,
    ignoresRange: false,
    note: undefined,
    async read(start, length) {
      await checkHost(url, settings, pins);
      if (source.size !== undefined && start >= source.size) return new Uint8Array(0);
      // a server that ignores Range sends from byte 0: what lies past the budget is never asked for
      if (source.ignoresRange && start + 1 > settings.readBudget - source.received) {
        source.note ??= cutNote(settings);
        return new Uint8Array(0);
      }
      return settings.limit(url.host, () => rangeRead(url, start, length, settings, source));
    },
  };
  return source;
}

export interface HttpSource extends ByteSource {
  /** body bytes received for this file so far: at most settings.readBudget */
  received: number;
  /** a 200 answered a Range request: every read starts at byte 0 */
  ignoresRange: boolean;
  /** what the budget left unread, for a warning: set when a read was cut short */
  note: string | undefined;
}

/** What a read cut at the budget means for the checks (issue 37.5). */
function cutNote(settings: SourceSettings): string {
  return `the server ignored the Range request and sent the file from its start, and the preflight reads at most ${limitSize(settings.readBudget)} of a file, so the part that holds them was not read`;
}

/** One GET of `length` bytes from `start`: a 206 answers the range, a 200 is read from its start and cut. */
async function rangeRead(
  url: URL,
  start: number,
  length: number,
  settings: SourceSettings,
  source: HttpSource,
): Promise<Uint8Array> {
  const { request } = await import("undici");
  // a timer this request owns and clears, for its headers and its whole body (issue 37.4: a signal
  // built from AbortSignal.any over AbortSignal.timeout could be collected and never fire), and
  // the run's deadline; both end here, whatever happens
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), settings.timeoutMs);
  const onDeadline = () => abort.abort();
  settings.deadline.addEventListener("abort", onDeadline, { once: true });
  if (settings.deadline.aborted) abort.abort();
  try {
    return await rangeReadWithin(url, start, length, settings, source, abort.signal, request);
  } finally {
    clearTimeout(timer);
    settings.deadline.removeEventListener("abort", onDeadline);
  }
}

async function rangeReadWithin(
  url: URL,
  start: number,
  length: number,
  settings: SourceSettings,
  source: HttpSource,
  signal: AbortSignal,
  request: typeof import("undici").request,
): Promise<Uint8Array> {
  let response;
  try {
    response = await request(url, {
      dispatcher: (await settings.agent()) as Agent,
      method: "GET",
      // no Authorization, no cookie, no API key: only what a fetcher of a public file sends
      headers: { range: `bytes=${start}-${start + length - 1}`, "user-agent": "video-schema-kit-preflight" },
      headersTimeout: settings.timeoutMs,
      bodyTimeout: settings.timeoutMs,
      signal,
    });
  } catch (error) {
    throw new FetchFailed(networkFailure(error, settings));
  }
  const { statusCode: status, headers, body } = response;
  body.on("error", () => {});
  if (status >= 300 && status < 400) {
    body.destroy();
    const location = header(headers, "location");
    let target = "";
    try {
      if (location !== undefined) target = ` to ${redactUrl(new URL(location, url).href)}`;
    } catch {
      // a Location that does not parse is not echoed: it cannot be redacted reliably
    }
    throw new FetchFailed({
      retryable: false,
      why: `a redirect (HTTP ${status})${target}, which the service does not follow`,
      advice: "submit the final URL",
    });
  }
  if (status === 416 && start > 0) {
    body.destroy();
    return new Uint8Array(0);
  }
  if (status < 200 || status >= 300) {
    body.destroy();
    throw new FetchFailed(statusFailure(status));
  }
  const partial = status === 206;
  const size = partial ? totalOf(header(headers, "content-range")) : Number(header(headers, "content-length") ?? NaN);
  if (size !== undefined && Number.isFinite(size)) {
    source.size = size;
    if (size > settings.maxFileBytes) {
      body.destroy();
      throw new FetchFailed(tooBig(size, settings));
    }
  }
  // a server that ignores Range sends the file from byte 0: skip to `start`, stop after `length`,
  // and never read past the file's budget (issue 37.5: a 100 MB file cost 100 MB)
  if (!partial) source.ignoresRange = true;
  let skip = partial ? 0 : start;
  const chunks: Buffer[] = [];
  let have = 0;
  let seen = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      const allowance = settings.readBudget - source.received;
      const kept = chunk.length > allowance ? chunk.subarray(0, allowance) : chunk;
      source.received += kept.length;
      settings.onBytes(kept.length);
      seen += kept.length;
      if (!partial && seen > settings.maxFileBytes) throw new FetchFailed(tooBig(seen, settings));
      let piece = kept;
      if (skip > 0) {
        const drop = Math.min(skip, piece.length);
        piece = piece.subarray(drop);
        skip -= drop;
      }
      if (piece.length > 0) {
        chunks.push(piece);
        have += piece.length;
      }
      if (have >= length) break;
      if (source.received >= settings.readBudget) {
        if (!partial) source.note ??= cutNote(settings);
        break;
      }
    }
  } catch (error) {
    body.destroy();
    if (error instanceof FetchFailed) throw error;
    throw new FetchFailed(networkFailure(error, settings));
  }
  body.destroy();
  return Buffer.concat(chunks).subarray(0, length);
}

/** The default resolver: every address the system resolver gives for the name. */
export const systemResolver: Resolver = (hostname) =>
  new Promise((done, fail) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) =>
      error ? fail(error) : done(addresses.map((a) => a.address)),
    ),
  );
