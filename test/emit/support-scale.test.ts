import { describe, expect, it } from "vitest";
import { diagnosticsFromAjv, fieldLabel, type AjvError } from "../../src/diagnostics/index.js";
import { checkRules, type RuleSpec } from "../../src/rules/index.js";

// Diagnostics must stay linear in the size of the payload: a hostile or broken request of a
// megabyte must not stall `vsk lint` or an application calling `build…()`.
describe("diagnostics stay linear on large payloads", () => {
  it("20 000 keyframes sharing one frame_index: one bounded message each", () => {
    const rule: RuleSpec = {
      id: "frame-index-unique",
      kind: "uniqueItemField",
      array: "/keyframes",
      field: "frame_index",
      spec: "2.2",
    };
    const keyframes = Array.from({ length: 20_000 }, () => ({ image_url: "a", frame_index: 0 }));
    const found = checkRules([rule], { keyframes }, []);
    expect(found).toHaveLength(20_000);
    expect(Math.max(...found.map((d) => d.message.length))).toBeLessThan(300);
    expect(found[0]!.message).toContain("keyframes[1], keyframes[2], keyframes[3], 19996 more");
  });

  it("20 000 failed anyOf fields collapse to one message each", () => {
    const errors: AjvError[] = [];
    for (let i = 0; i < 20_000; i++) {
      const at = `/items/${i}/n`;
      errors.push(
        {
          instancePath: at,
          schemaPath: "#/items/properties/n/anyOf/0/type",
          keyword: "type",
          params: { type: "integer" },
        },
        {
          instancePath: at,
          schemaPath: "#/items/properties/n/anyOf/1/type",
          keyword: "type",
          params: { type: "null" },
        },
        { instancePath: at, schemaPath: "#/items/properties/n/anyOf", keyword: "anyOf", params: {} },
      );
    }
    const items = Array.from({ length: 20_000 }, () => ({ n: "x" }));
    const found = diagnosticsFromAjv(errors, { items });
    expect(found).toHaveLength(20_000);
    expect(found[5]!.message).toBe('items[5].n: expected integer or null, received string "x"');
  });

  it("a megabyte field name is shortened in labels, and a signed URL as a name is redacted", () => {
    const huge = "k".repeat(1_000_000);
    expect(fieldLabel(`/${huge}`).length).toBeLessThan(100);
    const rule: RuleSpec = { id: "unknown-field", kind: "unknownFields", known: ["prompt"] };
    const [d] = checkRules([rule], { "https://x.io/a?sig=SECRET": 1 }, []);
    expect(JSON.stringify(d)).not.toContain("SECRET");
  });
});
