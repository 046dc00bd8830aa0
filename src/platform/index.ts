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
export type {
  RequestLike,
  UrlLike,
  AbortSignalLike,
  PlatformRequest,
  PlatformResponse,
  PlatformUrl,
  PlatformAbortSignal,
  PlatformBuffer,
  EnvLike,
  WritableLike,
  ReadableLike,
} from "./types.js";
