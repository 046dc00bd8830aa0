// Issue 24.10, 24.11: what an editor shows on hover says what the generated code does. One JSDoc
// block per builder (an editor shows only the last of two), and the "URI or any string" fields
// (spec 2.2, 4.4) documented as accepting any string, "" included, and nothing else.
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { validateModelAKeyframesToVideo, validateModelBReferenceToVideo } from "../../dist/generated/index.mjs";

const GENERATED = resolve(import.meta.dirname, "../../generated");
const modules = readdirSync(GENERATED, { recursive: true, encoding: "utf8" }).filter((f) =>
  /^example\/[^/]+\/[^.]+\.mts$/.test(f),
);
const read = (file: string) => readFileSync(join(GENERATED, file), "utf8");

describe("hover on build…()", () => {
  it.each(modules)("%s: one JSDoc block, with its @throws", (file) => {
    const text = read(file);
    const at = text.search(/^export function build[A-Z]/m);
    expect(at).toBeGreaterThan(0);
    const doc = /\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\n$/.exec(text.slice(0, at));
    expect(doc?.[1]).toMatch(/Builds the queue request[\s\S]*@throws RequestValidationError/);
    expect(text.slice(0, at - doc![0].length)).not.toMatch(/\*\/\s*$/); // no second block before it
  });
});

describe('"URI or any string" fields', () => {
  const keyframe = (image_url: unknown) => ({ prompt: "p", keyframes: [{ image_url, frame_index: 0 }] });

  it('image_url: "" is valid, 42 is not, and the type\'s hover says so', () => {
    expect(validateModelAKeyframesToVideo(keyframe(""))).toEqual([]);
    expect(validateModelAKeyframesToVideo(keyframe(42)).map((d) => d.pointer)).toContain("/keyframes/0/image_url");
    const hover = /\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*image_url: string;/.exec(
      read("example/model-a/keyframes-to-video.types.mts"),
    )?.[1];
    expect(hover).toMatch(/Any other string is accepted too, "" included/);
  });

  it('file_url/web_url: the editor schema lists the forms (42 is rejected), and the rule\'s "" exemption', () => {
    const schema = JSON.parse(read("example/model-b/reference-to-video.schema.json")) as {
      properties: Record<string, { description: string }>;
    };
    for (const field of ["file_url", "web_url"]) {
      const { description } = schema.properties[field]!;
      expect(description).not.toMatch(/any value/);
      expect(description).toMatch(/Allowed: string length from 1 to 2083, or any string, or null\./);
      expect(description).toMatch(/when it is set \(not null, not ""\)/);
      const base = { prompt: "p" };
      expect(validateModelBReferenceToVideo({ ...base, [field]: 42 }).map((d) => d.pointer)).toContain(`/${field}`);
      expect(validateModelBReferenceToVideo({ ...base, [field]: "" })).toEqual([]);
    }
  });
});
