/**
 * src/platform (issue 30.10): compiled with Node's types, as this repository is, each alias is the
 * platform's own type, so the package's code keeps its real types; a consumer without DOM or Node
 * types gets the structural stand-ins instead (proved by test/consumer, lib ES2022 and types []).
 * Checked by `npm run typecheck` (tsc over test/); vitest runs the same assertions as no-ops.
 */
import { describe, expectTypeOf, it } from "vitest";
import type { ResponseLike } from "../../src/client/platform.js";
import type {
  PlatformAbortSignal,
  PlatformBuffer,
  PlatformRequest,
  PlatformResponse,
  PlatformUrl,
} from "../../src/platform/index.js";

describe("the platform types, where Node's types are present", () => {
  it("are the platform's own Request, Response, URL, AbortSignal and Buffer", () => {
    expectTypeOf<PlatformRequest>().toEqualTypeOf<Request>();
    expectTypeOf<PlatformResponse>().toEqualTypeOf<Response>();
    expectTypeOf<PlatformUrl>().toEqualTypeOf<URL>();
    expectTypeOf<PlatformAbortSignal>().toEqualTypeOf<AbortSignal>();
    expectTypeOf<PlatformBuffer>().toEqualTypeOf<Buffer>();
  });

  it("the mock's Response still fits the client's ResponseLike", () => {
    expectTypeOf<PlatformResponse>().toMatchTypeOf<ResponseLike>();
  });
});
