/**
 * The platform types the package's public declarations name (issue 30.10): a consumer's own
 * `Request`, `Response`, `URL`, `AbortSignal` and `Buffer` where its TypeScript has them (DOM or
 * Node types), else the structural parts declared here. So the `.d.ts` of the root entry and of
 * `video-schema-kit/mock` compile with `lib: ["ES2022"]` and no `types`, as the client's do
 * (src/client/platform.ts, which is structural throughout because it is also copied into
 * generated code), and a project that has the real types still sees them. Inside this package,
 * compiled with Node's types, each alias is the platform's own type.
 *
 * Modules of Node (`node:fs`, `node:stream`, `node:http`) are never imported by a public
 * declaration: what a signature needs of a stream or a server is spelled out here instead.
 */
import type { HeadersLike, ResponseLike } from "../client/index.js";

/** The instance type of the global `Name` where the consumer's lib declares one, else `Fallback`. */
type Global<Name extends string, Fallback> = typeof globalThis extends { [K in Name]: { prototype: infer T } }
  ? T
  : Fallback;

/** What a declaration needs of a `Request` (the mock's handlers read these). */
export interface RequestLike {
  readonly url: string;
  readonly method: string;
  readonly headers: HeadersLike;
  text(): Promise<string>;
}

/** What a declaration needs of a parsed `URL`. */
export interface UrlLike {
  readonly href: string;
  readonly origin: string;
  readonly pathname: string;
  readonly search: string;
  readonly searchParams: { get(name: string): string | null };
}

/** What a declaration needs of an `AbortSignal`. */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason?: unknown;
}

/** The platform's `Request` (DOM, Node >= 18), else {@link RequestLike}. */
export type PlatformRequest = Global<"Request", RequestLike>;
/** The platform's `Response`, else the client's `ResponseLike`, so the mock's `fetch` fits the client's. */
export type PlatformResponse = Global<"Response", ResponseLike>;
/** The platform's `URL`, else {@link UrlLike}. */
export type PlatformUrl = Global<"URL", UrlLike>;
/** The platform's `AbortSignal`, else {@link AbortSignalLike}. */
export type PlatformAbortSignal = Global<"AbortSignal", AbortSignalLike>;
/** Node's `Buffer` where the consumer has Node's types, else the `Uint8Array` it extends. */
export type PlatformBuffer = typeof globalThis extends { Buffer: { isBuffer(value: any): value is infer B } }
  ? B
  : Uint8Array;

/** The environment variables a call reads (`process.env`'s shape). */
export type EnvLike = Readonly<Record<string, string | undefined>>;

/** A stream text is written to (`process.stdout`, a file stream, a test's collector). */
export interface WritableLike {
  write(chunk: string): boolean;
}

/** A stream of bytes read to its end (a file, stdin, a decompressor's output). */
export type ReadableLike = AsyncIterable<Uint8Array | string>;
