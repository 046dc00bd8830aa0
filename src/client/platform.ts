/**
 * What the client needs of its platform (Node, browsers, edge runtimes), typed structurally here
 * and read from `globalThis` when called, so that the client (and the copy `vsk generate` writes)
 * compiles with `lib: ["ES2022"]` and no DOM or Node types at all, and still accepts the real
 * `fetch`, `Headers` and `AbortSignal` of a project that has them.
 */

/** The part of `Headers` the client reads. */
export interface HeadersLike {
  get(name: string): string | null;
}

/** The part of a body stream's reader the client uses: chunks until done, or cancel. */
export interface BodyReaderLike {
  read(): Promise<{ done: boolean; value?: Uint8Array | undefined }>;
  cancel(reason?: unknown): Promise<void>;
}

/** The part of a `fetch` `Response` the client reads. */
export interface ResponseLike {
  readonly status: number;
  readonly headers: HeadersLike;
  /** `"opaqueredirect"` for a redirect a browser hides under `redirect: "manual"` */
  readonly type?: string;
  /** the body as a stream, read chunk by chunk up to the byte cap; without one, `text()` is read */
  readonly body?: { getReader(): BodyReaderLike; cancel?(reason?: unknown): Promise<void> } | null;
  text(): Promise<string>;
}

/** The part of an `AbortSignal` the client reads (the caller's own signal is accepted as it is). */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason?: unknown;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

/** What the client passes to `fetch`. */
export interface FetchInit {
  method: string;
  headers: Record<string, string>;
  body?: string;
  /** always `"manual"`: the client follows a redirect only to the same origin (transport.ts) */
  redirect?: "manual";
  /**
   * The caller's AbortSignal (or the client's own, for `timeoutMs`), passed on as it is. Typed
   * `any` on purpose: `fetch` takes the platform's own AbortSignal type, which a structural type
   * can never be assigned to, so any narrower type here would refuse the real `fetch`.
   */
  signal?: any;
}

/**
 * `fetch` as the client calls it: `input` is a `Request` built from `init` where the platform has
 * one, else the URL string, and `init` repeats what it holds. So the real `fetch` of any platform
 * fits, a wrapper `(input, init) => fetch(input, init)` does, and so does a `(request: Request) =>
 * Response` handler such as the mock's in-process `fetch` (`input` is typed `any` for that: a
 * structural type could never be assigned to the platform's own `Request`).
 */
export type FetchLike = (input: any, init: FetchInit) => Promise<ResponseLike>;

/** A `Request` for `url` and `init` where the platform has one; the URL string elsewhere. */
export function newRequest(url: string, init: FetchInit): unknown {
  const Ctor = platform.Request;
  return typeof Ctor === "function" ? new Ctor(url, init) : url;
}

interface AbortControllerLike {
  readonly signal: AbortSignalLike;
  abort(reason?: unknown): void;
}

/** Web Crypto's HMAC, the only part of `crypto.subtle` the webhook verifier uses. */
interface SubtleLike {
  importKey(
    format: "raw",
    keyData: Uint8Array,
    algorithm: { name: "HMAC"; hash: "SHA-256" },
    extractable: false,
    usages: ["sign"],
  ): Promise<unknown>;
  sign(algorithm: "HMAC", key: unknown, data: Uint8Array): Promise<ArrayBuffer>;
}

/** The globals the client uses, as the platform provides them (none of them is in ES2022). */
interface Platform {
  fetch?: FetchLike;
  Request?: new (url: string, init: FetchInit) => unknown;
  URL: new (url: string, base?: string) => { readonly origin: string; readonly href: string };
  AbortController: new () => AbortControllerLike;
  AbortSignal?: { any?(signals: AbortSignalLike[]): AbortSignalLike };
  DOMException?: new (message: string, name: string) => Error;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  crypto?: { subtle?: SubtleLike };
  TextEncoder: new () => { encode(text: string): Uint8Array };
  TextDecoder: new () => { decode(bytes?: Uint8Array, options?: { stream?: boolean }): string };
  atob(base64: string): string;
  btoa(binary: string): string;
}

const platform = globalThis as unknown as Platform;

/** The platform's `fetch`, bound to the global object; a clear error where there is none. */
export function globalFetch(): FetchLike {
  const found = platform.fetch;
  if (typeof found !== "function")
    throw new TypeError("this platform has no global fetch: pass one as the client's `fetch` option");
  return found.bind(globalThis);
}

export function newAbortController(): AbortControllerLike {
  return new platform.AbortController();
}

/** One signal aborted when any of `signals` is (`AbortSignal.any` where the platform has it). */
export function anySignal(signals: AbortSignalLike[]): AbortSignalLike {
  const any = platform.AbortSignal?.any;
  if (typeof any === "function") return any.call(platform.AbortSignal, signals);
  const controller = newAbortController();
  for (const signal of signals) {
    if (signal.aborted) {
      controller.abort(signal.reason);
      break;
    }
    signal.addEventListener("abort", () => controller.abort(signal.reason), { once: true });
  }
  return controller.signal;
}

/** An error named `AbortError`, as `fetch` rejects with (a DOMException where the platform has one). */
export function newAbortError(message: string): Error {
  const Ctor = platform.DOMException;
  if (typeof Ctor === "function") return new Ctor(message, "AbortError");
  return Object.assign(new Error(message), { name: "AbortError" });
}

export function setTimer(callback: () => void, ms: number): unknown {
  return platform.setTimeout(callback, ms);
}

export function clearTimer(handle: unknown): void {
  platform.clearTimeout(handle);
}

/** Web Crypto's `subtle`, or undefined where the platform has none. */
export function subtleCrypto(): SubtleLike | undefined {
  return platform.crypto?.subtle;
}

export function utf8(text: string): Uint8Array {
  return new platform.TextEncoder().encode(text);
}

/** A URL's origin and resolved href (`new URL(url, base)`); throws on what is not a URL. */
export function parseUrl(url: string, base?: string): { readonly origin: string; readonly href: string } {
  return new platform.URL(url, base);
}

/** A streaming UTF-8 decoder (`TextDecoder`). */
export function utf8Decoder(): { decode(bytes?: Uint8Array, options?: { stream?: boolean }): string } {
  return new platform.TextDecoder();
}

export function fromBase64Text(base64: string): string {
  return platform.atob(base64);
}

export function toBase64Text(binary: string): string {
  return platform.btoa(binary);
}
