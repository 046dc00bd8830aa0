import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { checkRules, rulesFor, specModelOf } from "../../src/rules/index.js";
import { loadModelDocument, type EndpointModel } from "../../src/schema/index.js";

function endpointOf(model: string, edit: (doc: Record<string, any>) => void): EndpointModel {
  const doc = JSON.parse(readFileSync(`schemas-cache/${model}/latest.json`, "utf8")) as Record<string, any>;
  edit(doc);
  return loadModelDocument(doc, { model, file: "x.json" }).endpoints.find((e) => e.endpoint !== "text-to-video" || model.endsWith("c"))!;
}

describe("rules follow the values the published schema states", () => {
  it("frame_index bound uses the schema's default duration (spec 2.2: at most duration × 24)", () => {
    const e = endpointOf("example/model-a", (d) => (d.components.schemas.KeyframesToVideoInput.properties.duration.default = 10));
    const rules = rulesFor(e, { alias: "modelA" });
    const payload = { prompt: "x", keyframes: [{ image_url: "a", frame_index: 200 }] };
    expect(checkRules(rules, payload, [])).toEqual([]);
    expect(checkRules(rules, { ...payload, keyframes: [{ image_url: "a", frame_index: 241 }] }, [])[0]!.message).toContain("(240) of the default 10 s video");
  });

  it("model C's upper bound follows the schema's maximum; -1 and the 4 s floor stay (spec 4.5)", () => {
    const e = endpointOf("example/model-c", (d) => (d.components.schemas.TextToVideoInput.properties.duration.maximum = 20));
    const rules = rulesFor(e, { alias: "modelC" });
    expect(checkRules(rules, { prompt: "x", duration: 18 }, [])).toEqual([]);
    expect(checkRules(rules, { prompt: "x", duration: 3 }, [])[0]!.rule).toBe("duration-auto-or-range");
  });

  it("an alias names the spec model in any case", () => {
    expect(specModelOf({ alias: "modelc" })).toBe("modelC");
    expect(specModelOf({ alias: "other", rules: "MODELA" })).toBe("modelA");
    expect(specModelOf({ alias: "other" })).toBeUndefined();
  });
});
