/** `otherModelNamed` (issue 42.3): what in a published document names a model other than the id it is stored under. */
import { describe, expect, it } from "vitest";
import { otherModelNamed } from "../../src/schema/index.js";

const doc = (id: string | undefined, paths: string[]) => ({
  openapi: "3.1.0",
  info: { title: "t", version: "1", ...(id === undefined ? {} : { "x-model-id": id }) },
  paths: Object.fromEntries(paths.map((p) => [p, {}])),
});

describe("otherModelNamed", () => {
  it.each([
    ["its own id and paths", doc("acme/a", ["/acme/a/text-to-video", "/v1/queue/acme/a/x"]), undefined],
    ["no x-model-id, paths without an owner", doc(undefined, ["/text-to-video"]), undefined],
    [
      "another x-model-id only",
      doc("example/model-a", ["/acme/a/text-to-video"]),
      'its info.x-model-id is "example/model-a"',
    ],
    [
      "paths under another model",
      doc(undefined, ["/v1/queue/example/model-a/t2v", "/acme/a/k2v"]),
      '1 of its 2 queue paths name "example/model-a"',
    ],
    ["not an object", "text", undefined],
  ] as const)("%s", (_name, value, want) => {
    expect(otherModelNamed(value, "acme/a")).toBe(want);
  });
});
