/**
 * Rules follow the endpoint's schema, never the model's id or alias: each rule kind's shape
 * match on the spec's models (the committed snapshot), on the same models under other ids and
 * aliases, and on shapes that must not match; the values a schema states; the `rules` override.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  checkRules,
  crossFieldRuleIds,
  overrideProblem,
  rulesFor,
  selectRules,
  specModelOf,
  type RuleSpec,
} from "../../src/rules/index.js";
import { loadModelDocument, type EndpointModel, type JsonSchemaObject } from "../../src/schema/index.js";

type Doc = Record<string, any>;
const snapshot = (model: string): Doc => JSON.parse(readFileSync(`schemas-cache/${model}/latest.json`, "utf8")) as Doc;

/** The endpoints of a committed model document, loaded under another id (and optionally edited). */
function endpointsOf(model: string, id = model, edit: (doc: Doc) => void = () => {}): EndpointModel[] {
  const doc = snapshot(model);
  edit(doc);
  // the document's paths name the model: move them to the new id, as a vendor's own document would
  doc.paths = Object.fromEntries(Object.entries(doc.paths as Doc).map(([p, v]) => [p.replace(model, id), v]));
  return loadModelDocument(doc, { model: id, file: "latest.json" }).endpoints;
}
const ids = (e: EndpointModel, setting = {}) => crossFieldRuleIds(rulesFor(e, setting));
const byEndpoint = (endpoints: EndpointModel[]) => Object.fromEntries(endpoints.map((e) => [e.endpoint, ids(e)]));

/** A synthetic endpoint whose input has the given top-level properties. */
function endpoint(properties: Record<string, unknown>, extra: JsonSchemaObject = {}): EndpointModel {
  const input = { type: "object", properties, ...extra };
  return {
    model: "acme/x",
    owner: "acme",
    name: "x",
    endpoint: "anything",
    key: "acme/x/anything",
    queuePath: "/v1/queue/acme/x/anything",
    operationPath: "/acme/x/anything",
    requestMediaType: "application/json",
    responseStatus: "200",
    responseMediaType: "application/json",
    input,
    output: {},
  };
}
const keyframes = {
  type: "array",
  items: { $ref: "#/$defs/Keyframe" },
};
const keyframeDefs = {
  $defs: {
    Keyframe: {
      type: "object",
      properties: { image_url: { type: "string" }, frame_index: { type: "integer", minimum: 0 } },
    },
  },
};
const PROMPT_C = "Chinese text (recommended at most 500 characters) or English text (recommended at most 1000 words)";

const SPEC = {
  "example/model-a": {
    "keyframes-to-video": ["frame-index-unique", "frame-index-within-duration"],
    "text-to-video": [],
  },
  "example/model-b": { "reference-to-video": ["file-url-requires-thinking", "web-url-requires-thinking"] },
  "example/model-c": { "text-to-video": ["duration-auto-or-range", "prompt-length-recommendation"] },
};

describe("each rule kind on the spec's models", () => {
  it.each(Object.entries(SPEC))("%s", (model, want) => {
    expect(byEndpoint(endpointsOf(model))).toEqual(want);
  });

  it("the unknown-field warning comes last, for every endpoint that lists its fields", () => {
    for (const model of Object.keys(SPEC))
      for (const e of endpointsOf(model)) expect(rulesFor(e).at(-1)).toMatchObject({ kind: "unknownFields" });
  });
});

describe("renamed models get the same rules, with no configuration", () => {
  it.each([
    ["example/model-a", "acme/video-gen-pro"],
    ["example/model-b", "studio/refs2video"],
    ["example/model-c", "vendor.x/c_model-9"],
  ] as const)("%s as %s", (model, id) => {
    expect(byEndpoint(endpointsOf(model, id))).toEqual(SPEC[model]);
  });

  it("an alias or a rules setting is not needed, and an alias changes nothing", () => {
    const [c] = endpointsOf("example/model-c", "acme/c");
    expect(ids(c!)).toEqual(ids(c!, { id: "acme/c" }));
    // the old behaviour looked at the alias: an alias naming another spec model has no effect
    expect(crossFieldRuleIds(rulesFor(c!, { alias: "modelA" } as never))).toEqual(
      SPEC["example/model-c"]["text-to-video"],
    );
  });
});

describe("shapes that must not match", () => {
  const cases: Array<[string, Record<string, unknown>, JsonSchemaObject?]> = [
    ["a duration with minimum 0 (not -1)", { duration: { type: "integer", minimum: 0, maximum: 15 } }],
    [
      "model B's duration (minimum 2, nullable)",
      { duration: { anyOf: [{ type: "integer", minimum: 2, maximum: 30 }, { type: "null" }] } },
    ],
    ["a duration with minimum -1 but no maximum", { duration: { type: "integer", minimum: -1 } }],
    ["a number duration with minimum -1", { duration: { type: "number", minimum: -1, maximum: 15 } }],
    ["a prompt without the recommendations", { prompt: { type: "string", description: "Text describing the video" } }],
    [
      "a prompt with one recommendation only",
      { prompt: { type: "string", description: "recommended at most 500 characters" } },
    ],
    ["an integer prompt that states them", { prompt: { type: "integer", description: PROMPT_C } }],
    [
      "keyframes of strings",
      { keyframes: { type: "array", items: { type: "string" } }, duration: { type: "integer" } },
    ],
    [
      "a string frame_index",
      { keyframes: { type: "array", items: { type: "object", properties: { frame_index: { type: "string" } } } } },
    ],
    ["a frame_index outside an array", { frame_index: { type: "integer" }, duration: { type: "integer" } }],
    ["file_url without enable_thinking", { file_url: { type: "string" }, web_url: { type: "string" } }],
    ["a string enable_thinking", { file_url: { type: "string" }, enable_thinking: { type: "string" } }],
    ["a boolean file_url", { file_url: { type: "boolean" }, enable_thinking: { type: "boolean" } }],
    [
      "model A text-to-video's auto-or-integer duration alone",
      {
        duration: {
          anyOf: [
            { type: "string", enum: ["auto"] },
            { type: "integer", minimum: 5, maximum: 20 },
          ],
        },
      },
    ],
  ];
  it.each(cases)("%s: no cross-field rule", (_name, properties, extra) => {
    expect(ids(endpoint(properties, extra))).toEqual([]);
  });

  it("keyframes without a duration get uniqueness but not the frame bound", () => {
    expect(ids(endpoint({ keyframes }, keyframeDefs))).toEqual(["frame-index-unique"]);
  });

  it("a field named like a prototype member is not found by inheritance", () => {
    expect(ids(endpoint({ constructor: { type: "integer" } }))).toEqual([]);
  });
});

describe("shapes that match anywhere, under any endpoint name", () => {
  it("keyframes with an integer duration, nullable and inline items", () => {
    const e = endpoint({
      keyframes: {
        anyOf: [
          { type: "array", items: { type: "object", properties: { frame_index: { type: "integer" } } } },
          { type: "null" },
        ],
      },
      duration: { type: "integer", default: 8 },
    });
    expect(ids(e)).toEqual(["frame-index-unique", "frame-index-within-duration"]);
    expect(rulesFor(e).find((r) => r.kind === "itemFieldWithinDuration")).toMatchObject({ defaultDuration: 8 });
  });

  it("one URL field with its flag gets one rule", () => {
    expect(ids(endpoint({ web_url: { type: "string" }, enable_thinking: { type: "boolean" } }))).toEqual([
      "web-url-requires-thinking",
    ]);
  });
});

describe("rules follow the values the published schema states", () => {
  it("frame_index bound uses the schema's default duration (spec 2.2: at most duration × 24)", () => {
    const [e] = endpointsOf("example/model-a", "acme/a", (d) => {
      d.components.schemas.KeyframesToVideoInput.properties.duration.default = 10;
    });
    const rules = rulesFor(e!);
    const payload = { prompt: "x", keyframes: [{ image_url: "a", frame_index: 200 }] };
    expect(checkRules(rules, payload, [])).toEqual([]);
    expect(checkRules(rules, { ...payload, keyframes: [{ image_url: "a", frame_index: 241 }] }, [])[0]!.message).toBe(
      "keyframes[0].frame_index: 241 is past the last frame (240) of the default 10 s video (duration × 24, spec 2.2)",
    );
  });

  it("model C's upper bound follows the schema's maximum; -1 and the 4 s floor stay (spec 4.5)", () => {
    const [e] = endpointsOf("example/model-c", "acme/c", (d) => {
      d.components.schemas.TextToVideoInput.properties.duration.maximum = 20;
    });
    const rules = rulesFor(e!);
    expect(checkRules(rules, { prompt: "x", duration: 18 }, [])).toEqual([]);
    expect(checkRules(rules, { prompt: "x", duration: 3 }, [])[0]!.message).toBe(
      "duration: 3 is not allowed; expected -1 (automatic) or 4 to 20 (spec 4.5)",
    );
  });

  it("the prompt recommendations are read from the prompt's description", () => {
    const [e] = endpointsOf("example/model-c", "acme/c", (d) => {
      d.components.schemas.TextToVideoInput.properties.prompt.description = PROMPT_C.replace("500", "300");
    });
    const [d] = checkRules(rulesFor(e!), { prompt: "字".repeat(301) }, []);
    expect(d).toMatchObject({ severity: "warning", rule: "prompt-length-recommendation" });
    expect(d!.message).toContain("more than the recommended 300");
  });
});

describe("models[].rules: an explicit override", () => {
  it("names a spec model in any case", () => {
    expect(specModelOf("modelc")).toBe("modelC");
    expect(specModelOf("MODELA")).toBe("modelA");
    expect(specModelOf("modelD")).toBeUndefined();
  });

  it("a fitting override gives exactly that spec model's rules", () => {
    const endpoints = endpointsOf("example/model-c", "acme/c");
    expect(overrideProblem(endpoints, { id: "acme/c", rules: "MODELC" })).toBeUndefined();
    expect(ids(endpoints[0]!, { rules: "modelC" })).toEqual(SPEC["example/model-c"]["text-to-video"]);
  });

  it("an override naming a spec model whose endpoint the model lacks names the model, the endpoint and its rules", () => {
    const problem = overrideProblem(endpointsOf("example/model-b", "acme/b"), { id: "acme/b", rules: "modelA" });
    expect(problem).toBe(
      'acme/b: "rules": "modelA" needs endpoint keyframes-to-video (rules frame-index-unique, frame-index-within-duration), which the model does not have (its endpoints: reference-to-video); remove "rules" from this model in the config to let the rules follow the schema, or fix the model id',
    );
  });

  it("an override whose rule does not fit names the model, the rule and the field", () => {
    const endpoints = endpointsOf("example/model-a", "acme/a");
    const problem = overrideProblem(endpoints, { id: "acme/a", rules: "modelC" });
    expect(problem).toBe(
      'acme/a: "rules": "modelC": rule duration-auto-or-range does not fit text-to-video: it needs field "duration" to be an integer with minimum -1 (-1 means automatic) and a maximum, found types integer, string; remove "rules" from this model in the config to let the rules follow the schema, or fix the model id',
    );
    // generate refuses it; rulesFor (drift's lenient use) leaves the misfit out
    expect(selectRules(endpoints[1]!, { rules: "modelC" }).misfits.map((m) => [m.rule, m.field])).toEqual([
      ["duration-auto-or-range", "duration"],
      ["prompt-length-recommendation", "prompt"],
    ]);
  });

  it("a value that names no spec model is a problem too", () => {
    expect(overrideProblem(endpointsOf("example/model-b"), { id: "example/model-b", rules: "modelD" })).toMatch(
      /^example\/model-b: "rules": "modelD" is not a model of the spec/,
    );
  });
});

it("rule specs stay data (JSON round trip)", () => {
  for (const model of Object.keys(SPEC))
    for (const e of endpointsOf(model)) {
      const rules: RuleSpec[] = rulesFor(e);
      expect(JSON.parse(JSON.stringify(rules))).toEqual(rules);
    }
});
