import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { classifyModel, diffModels } from "../../src/drift/index.js";
import { checkRules, rulesFor } from "../../src/rules/index.js";
import { loadModelDocument } from "../../src/schema/index.js";

const load = (edit?: (d: any) => void) => {
  const doc = JSON.parse(readFileSync("schemas-cache/example/model-a/latest.json", "utf8"));
  edit?.(doc);
  return loadModelDocument(doc, { model: "example/model-a", file: "x.json" });
};

describe("a request example is a payload the snapshot accepts, cross-field rules included", () => {
  it("keyframes maxItems newly set: an example whose keyframes do not repeat a frame_index", () => {
    const before = load();
    const after = load((d) => (d.components.schemas.KeyframesToVideoInput.properties.keyframes.maxItems = 2));
    const ref = { id: "example/model-a", alias: "modelA" };
    const changes = classifyModel(diffModels(before, after), before, after, ref);
    const change = changes.find((c) => c.endpoint === "keyframes-to-video" && c.id.includes("max-items"));
    expect(change?.severity).toBe("breaking");
    const rules = rulesFor(
      before.endpoints.find((e) => e.endpoint === "keyframes-to-video")!,
      ref,
    );
    // sampled items differ (frame_index 0, 1, 2), so the example passes the snapshot's rules
    const example = change!.example as { keyframes: Array<{ frame_index: number }> };
    expect(example.keyframes.map((k) => k.frame_index)).toEqual([0, 1, 2]);
    expect(checkRules(rules, example, []).filter((d) => d.severity === "error")).toEqual([]);
  });
});
