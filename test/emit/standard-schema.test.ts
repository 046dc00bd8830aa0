// Issue 27: every entry of the generated `endpoints` registry, and each endpoint module's
// `…StandardSchema` export, is a Standard Schema v1 validator: checked through the built models
// entry point (video-schema-kit/models is dist/generated), then with the real consumers, Hono's
// sValidator and a tRPC procedure, each behind a real HTTP server on 127.0.0.1.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { sValidator } from "@hono/standard-validator";
import type { StandardSchemaV1 as Spec } from "@standard-schema/spec";
import { initTRPC } from "@trpc/server";
import { createHTTPServer } from "@trpc/server/adapters/standalone";
import { Hono } from "hono";
import { afterEach, describe, expect, it } from "vitest";
import * as models from "../../dist/generated/index.mjs";
import {
  endpoints,
  modelAKeyframesToVideoStandardSchema,
  validateModelAKeyframesToVideo,
  type EndpointKey,
  type EndpointTypeMap,
  type ModelAKeyframesToVideoInput,
  type StandardSchemaV1,
} from "../../dist/generated/index.mjs";

const KEY = "example/model-a/keyframes-to-video";
const keyframe = (frame_index: number) => ({ image_url: `https://example.com/${frame_index}.png`, frame_index });
const valid = { prompt: "a cat", keyframes: [keyframe(0), keyframe(48)] };
const duplicate = { prompt: "a cat", keyframes: [keyframe(0), keyframe(0)] };

// --- types: InferInput/InferOutput are exactly the endpoint's Input, by the real spec package,
// by a locally declared copy of its types, and by the copy in the generated support module
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
interface LocalStandardSchemaV1<Input = unknown, Output = Input> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => unknown;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  };
}
type LocalInferInput<S extends LocalStandardSchemaV1> = NonNullable<S["~standard"]["types"]>["input"];
type LocalInferOutput<S extends LocalStandardSchemaV1> = NonNullable<S["~standard"]["types"]>["output"];
type Entry<K extends EndpointKey> = (typeof endpoints)[K];
const typeChecks: Array<true> = [
  true satisfies Equal<Spec.InferInput<Entry<typeof KEY>>, ModelAKeyframesToVideoInput>,
  true satisfies Equal<Spec.InferOutput<Entry<typeof KEY>>, ModelAKeyframesToVideoInput>,
  true satisfies Equal<Spec.InferInput<typeof modelAKeyframesToVideoStandardSchema>, ModelAKeyframesToVideoInput>,
  true satisfies Equal<LocalInferInput<Entry<typeof KEY>>, ModelAKeyframesToVideoInput>,
  true satisfies Equal<
    LocalInferOutput<Entry<"example/model-c/text-to-video">>,
    EndpointTypeMap["example/model-c/text-to-video"]["input"]
  >,
  true satisfies Equal<
    StandardSchemaV1.InferInput<Entry<"example/model-b/reference-to-video">>,
    EndpointTypeMap["example/model-b/reference-to-video"]["input"]
  >,
];
// @ts-expect-error a wrong field type is a compile error
const wrong: Spec.InferInput<Entry<typeof KEY>> = { prompt: 1, keyframes: [] };
// every entry is assignable where the real spec's interface is asked for
const asSpec: Record<EndpointKey, Spec<unknown>> = endpoints;

describe("Standard Schema v1 (the models entry point)", () => {
  it("every registry entry and every endpoint module's …StandardSchema export carries version 1, the vendor and validate", () => {
    expect(typeChecks).toHaveLength(6);
    expect(wrong).toBeDefined();
    const exported = Object.keys(models).filter((name) => name.endsWith("StandardSchema"));
    expect(exported).toHaveLength(Object.keys(endpoints).length);
    for (const schema of [...Object.values(asSpec), ...exported.map((n) => models[n as keyof typeof models])]) {
      const props = (schema as Spec<unknown>)["~standard"];
      expect(props.version).toBe(1);
      expect(props.vendor).toBe("video-schema-kit");
      expect(typeof props.validate).toBe("function");
      expect("types" in props).toBe(true);
    }
  });

  it("a valid payload: { value } is the payload itself, synchronously, no defaults filled", () => {
    const result = endpoints[KEY]["~standard"].validate(valid);
    expect(result).not.toBeInstanceOf(Promise);
    expect(result).toEqual({ value: valid });
    expect((result as { value: unknown }).value).toBe(valid);
    expect(Object.keys(valid)).toEqual(["prompt", "keyframes"]);
  });

  it("a cross-field failure: one issue per error diagnostic, its message, its path with numeric indices", () => {
    const result = modelAKeyframesToVideoStandardSchema["~standard"].validate(duplicate);
    const errors = validateModelAKeyframesToVideo(duplicate).filter((d) => d.severity === "error");
    expect(result).toEqual({
      issues: errors.map((d) => ({
        message: d.message,
        path: ["keyframes", Number(d.pointer.split("/")[2]), "frame_index"],
      })),
    });
    expect((result as Spec.FailureResult).issues[1]!.path).toEqual(["keyframes", 1, "frame_index"]);
  });

  it("schema failures are issues too; the root is an empty path; an object key of digits stays a string", () => {
    expect(endpoints[KEY]["~standard"].validate(null)).toEqual({
      issues: [{ message: "(request body): expected object, received null", path: [] }],
    });
    const result = endpoints["example/model-c/text-to-video"]["~standard"].validate({ prompt: "x", duration: 2 });
    expect(result).toEqual({ issues: [expect.objectContaining({ path: ["duration"] })] });
    const extra = endpoints[KEY]["~standard"].validate({ ...valid, keyframes: [{ ...keyframe(0), 0: 1 }] });
    for (const issue of (extra as Spec.FailureResult).issues ?? [])
      expect(issue.path?.every((p, i) => (i === 1 ? p === 0 : typeof p === "string"))).toBe(true);
  });
});

// --- the real consumers, behind real HTTP servers
let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});
async function listen(s: Server): Promise<string> {
  server = s;
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}
const post = (url: string, body: unknown) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe("with Hono's sValidator", () => {
  const app = new Hono().post("/submit", sValidator("json", endpoints[KEY]), (c) => {
    const body = c.req.valid("json");
    const typed: ModelAKeyframesToVideoInput = body; // reaches the handler typed
    return c.json({ frames: typed.keyframes.map((k) => k.frame_index) });
  });
  // a minimal node:http → fetch adapter (no @hono/node-server)
  const hono = () =>
    createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const response = await app.fetch(
        new Request(`http://127.0.0.1${req.url}`, {
          method: req.method,
          headers: req.headers as Record<string, string>,
          body: Buffer.concat(chunks),
        }),
      );
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    });

  it("a valid body reaches the handler; a duplicate frame_index is HTTP 400 naming the field", async () => {
    const base = await listen(hono());
    const ok = await post(`${base}/submit`, valid);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ frames: [0, 48] });
    const bad = await post(`${base}/submit`, duplicate);
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as { error: Spec.Issue[] };
    expect(body.error).toContainEqual({
      message: "keyframes[1].frame_index: 0 is also used by keyframes[0]; each frame_index must be unique (spec 2.2)",
      path: ["keyframes", 1, "frame_index"],
    });
  });
});

describe("with a tRPC procedure", () => {
  // tRPC keeps the issues on the error's cause (a StandardSchemaV1Error): the formatter sends them
  const t = initTRPC.create({
    errorFormatter: ({ shape, error }) => ({
      ...shape,
      data: {
        ...shape.data,
        issues: error.cause !== undefined && "issues" in error.cause ? error.cause.issues : undefined,
      },
    }),
  });
  const router = t.router({
    submit: t.procedure.input(endpoints[KEY]).mutation(({ input }) => input.keyframes.map((k) => k.frame_index)),
  });

  it("valid input runs the procedure; invalid input is BAD_REQUEST with the issues", async () => {
    const base = await listen(createHTTPServer({ router }));
    const ok = await post(`${base}/submit`, valid);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ result: { data: [0, 48] } });
    const bad = await post(`${base}/submit`, duplicate);
    expect(bad.status).toBe(400);
    const { error } = (await bad.json()) as { error: { data: { code: string; issues: Spec.Issue[] } } };
    expect(error.data.code).toBe("BAD_REQUEST");
    expect(error.data.issues).toEqual(
      (modelAKeyframesToVideoStandardSchema["~standard"].validate(duplicate) as Spec.FailureResult).issues,
    );
    expect(error.data.issues[1]).toEqual({
      message: "keyframes[1].frame_index: 0 is also used by keyframes[0]; each frame_index must be unique (spec 2.2)",
      path: ["keyframes", 1, "frame_index"],
    });
  });
});
