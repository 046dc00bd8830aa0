/**
 * One payload resolver for `vsk lint` and `vsk drift --requests`: envelope or flags, a model's
 * only endpoint, the editor's `$schema` key, and what is said when the endpoint is unknown.
 */
import { describe, expect, it } from "vitest";
import { resolvePayload, resolveTarget, type EndpointCatalog } from "../../src/lint/index.js";

const ENDPOINTS: Record<string, string[]> = {
  "example/model-a": ["keyframes-to-video", "text-to-video"],
  "example/model-b": ["reference-to-video"],
};
const ALIASES: Record<string, string> = { modelA: "example/model-a", modelB: "example/model-b" };
const catalog: EndpointCatalog = {
  modelIds: Object.keys(ENDPOINTS),
  resolveModel: (name) => ALIASES[name] ?? (Object.hasOwn(ENDPOINTS, name) ? name : undefined),
  endpointsOf: (model) => (Object.hasOwn(ENDPOINTS, model) ? ENDPOINTS[model]! : []),
  describe: () => "A: k, t; B: r",
};

describe("resolvePayload", () => {
  it("reads an envelope by id or alias, with its input under /input", () => {
    expect(resolvePayload({ model: "modelA", endpoint: "text-to-video", input: { prompt: "x" } }, {}, catalog)).toEqual(
      { model: "example/model-a", endpoint: "text-to-video", input: { prompt: "x" }, prefix: "/input" },
    );
  });
  it("says a name lost its query string, so the message does not contradict itself (issue S2)", () => {
    const bad = resolvePayload(
      { model: "modelA", endpoint: "text-to-video?token=EPTOK", input: { prompt: "x" } },
      {},
      catalog,
    ) as { message: string };
    expect(bad.message).toBe(
      'endpoint: "text-to-video" (query string or fragment removed) is not an endpoint of example/model-a; known: A: k, t; B: r',
    );
    const model = resolvePayload({ model: "modelA#frag=1", endpoint: "t", input: {} }, {}, catalog) as {
      message: string;
    };
    expect(model.message).toMatch(/^model: "modelA" \(query string or fragment removed\) is not a configured model/);
    expect(resolveTarget(catalog, "example/model-a", "nope?sig=1")).toEqual({
      problem:
        'unknown endpoint "nope" (query string or fragment removed) for example/model-a; known: keyframes-to-video, text-to-video',
    });
    // an ordinary unknown name is quoted as it is
    expect((resolvePayload({ model: "modelZ", input: {} }, {}, catalog) as { message: string }).message).toMatch(
      /^model: "modelZ" is not a configured model/,
    );
  });
  it("needs no endpoint name for a model with one endpoint", () => {
    expect(resolvePayload({ model: "example/model-b", input: {} }, {}, catalog)).toMatchObject({
      endpoint: "reference-to-video",
    });
  });
  it("takes a bare payload's endpoint from the flags, without the editor's $schema key", () => {
    const r = resolvePayload(
      { $schema: "./generated/x.schema.json", prompt: "x" },
      { model: "example/model-a", endpoint: "text-to-video" },
      catalog,
    );
    expect(r).toEqual({ model: "example/model-a", endpoint: "text-to-video", input: { prompt: "x" }, prefix: "" });
  });
  it.each([
    [
      { model: "nope", input: {} },
      {},
      { rule: "lint/unknown-endpoint", pointer: "/model", model: null },
      /^model: "nope" is not a configured model; known: A: k, t; B: r$/,
    ],
    [{ model: 5, input: {} }, {}, { rule: "lint/unknown-endpoint", pointer: "/model" }, /^model: 5 is not/],
    [
      { model: "modelA", input: {} },
      {},
      { rule: "lint/unknown-endpoint", pointer: "/endpoint", model: "example/model-a", endpoint: null },
      /^endpoint: expected the endpoint name as a string, received nothing/,
    ],
    [
      { model: "modelA", endpoint: "x?sig=secret", input: {} },
      {},
      { pointer: "/endpoint" },
      /^endpoint: "x" \(query string or fragment removed\) is not an endpoint of example\/model-a/,
    ],
    [{ prompt: "x" }, {}, { rule: "lint/no-endpoint", pointer: "" }, /^cannot tell which endpoint/],
    // prototype keys are not an envelope's keys
    [Object.create({ model: "modelA", input: {} }), {}, { rule: "lint/no-endpoint" }, /^cannot tell/],
  ])("says why the endpoint is unknown: %j", (value, target, fields, message) => {
    const r = resolvePayload(value, target, catalog);
    expect(r).toMatchObject(fields);
    expect("message" in r ? r.message : "").toMatch(message);
  });
});

describe("resolveTarget (--model/--endpoint)", () => {
  it.each([
    [undefined, undefined, {}],
    ["modelB", undefined, { model: "example/model-b", endpoint: "reference-to-video" }],
    [undefined, "reference-to-video", { model: "example/model-b", endpoint: "reference-to-video" }],
    ["modelA", "text-to-video", { model: "example/model-a", endpoint: "text-to-video" }],
  ])("%s %s → %j", (model, endpoint, expected) => {
    expect(resolveTarget(catalog, model, endpoint)).toEqual(expected);
  });
  it.each([
    ["modelA", undefined, "example/model-a has 2 endpoints (keyframes-to-video, text-to-video); add --endpoint NAME"],
    ["modelC", undefined, 'unknown model "modelC"; known: A: k, t; B: r'],
    ["modelA", "nope", 'unknown endpoint "nope" for example/model-a; known: keyframes-to-video, text-to-video'],
    [undefined, "nope", 'unknown endpoint "nope"; known: A: k, t; B: r'],
  ])("%s %s is a usage problem", (model, endpoint, problem) => {
    expect(resolveTarget(catalog, model, endpoint)).toEqual({ problem: expect.stringContaining(problem) });
  });
});
