/**
 * Diagnostics as data (spec 7.2: a message says expected versus received): every schema
 * violation and cross-field finding of the committed generated validators, run with plain
 * `node`, carries `expected` and `received` as small JSON-safe data beside the same message.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { receivedOf, type Diagnostic } from "../../src/diagnostics/index.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const DRIVER = join(ROOT, "test/fixtures/emit/run-validator.mjs");

/** The diagnostics of each payload, as a plain `node` process prints them (JSON). */
function validate(validatorFile: string, cases: readonly unknown[]): Diagnostic[][] {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const child = spawnSync(process.execPath, [DRIVER], {
    input: JSON.stringify({ module: join(ROOT, "dist/generated", validatorFile), cases }),
    encoding: "utf8",
    env,
    timeout: 20_000,
  });
  if (child.status !== 0) throw new Error(`node ${DRIVER} exited ${String(child.status)}: ${child.stderr}`);
  return JSON.parse(child.stdout) as Diagnostic[][];
}

const data = (d: Diagnostic) => ({ pointer: d.pointer, expected: d.expected, received: d.received });
const KEYFRAMES = "example/model-a/keyframes-to-video.validate.mjs";
const REFERENCE = "example/model-b/reference-to-video.validate.mjs";
const MODEL_C = "example/model-c/text-to-video.validate.mjs";
const img = (i: number) => `https://cdn.example.com/k${i}.png?X-Amz-Signature=SECRETSIG`;

describe("schema violations carry the keyword and its params, and the value found", () => {
  const [invalid, missing] = validate(KEYFRAMES, [
    {
      prompt: "p",
      keyframes: [
        { image_url: img(0), frame_index: -1 },
        { image_url: 5, frame_index: 3 },
      ],
      aspect_ratio: "3:2",
      duration: 25,
      resolution: ["720p"],
    },
    { keyframes: [{ image_url: img(0), frame_index: 0 }] },
  ]);
  const at = (list: Diagnostic[] | undefined, pointer: string) => {
    const found = list?.find((d) => d.pointer === pointer);
    if (found === undefined) throw new Error(`no diagnostic at ${pointer}: ${JSON.stringify(list)}`);
    return found;
  };

  it("minimum and maximum: the limit, and the number as it is", () => {
    expect(data(at(invalid, "/keyframes/0/frame_index"))).toEqual({
      pointer: "/keyframes/0/frame_index",
      expected: { kind: "minimum", comparison: ">=", limit: 0 },
      received: -1,
    });
    const duration = at(invalid, "/duration");
    expect(duration.expected).toMatchObject({ kind: "maximum", limit: expect.any(Number) });
    expect(duration.received).toBe(25);
    expect(duration.message).toBe(`duration: 25 is above the maximum ${String(duration.expected?.limit)}`);
  });

  it("enum: the allowed values; type: a list of types; an array by its size", () => {
    const ratio = at(invalid, "/aspect_ratio");
    expect(ratio.expected?.kind).toBe("enum");
    expect(ratio.expected?.allowedValues).toContain("16:9");
    expect(ratio.received).toBe("3:2");
    expect(at(invalid, "/keyframes/1/image_url")).toMatchObject({
      expected: { kind: "type", type: ["string"] },
      received: 5,
    });
    expect(at(invalid, "/resolution")).toMatchObject({ received: { type: "array", items: 1 } });
  });

  it("a missing required field: received is absent (not in the JSON at all)", () => {
    const prompt = at(missing, "/prompt");
    expect(prompt.expected).toEqual({ kind: "required", missingProperty: "prompt" });
    expect("received" in prompt).toBe(false);
    expect(prompt.message).toBe("prompt: is required but missing");
  });

  it("the same payload again (the remembered messages) gives the same data", () => {
    const [first, again] = validate(KEYFRAMES, [
      { prompt: "p", duration: 99 },
      { prompt: "p", duration: 99 },
    ]);
    expect(again).toEqual(first);
    expect(first?.find((d) => d.pointer === "/duration")).toMatchObject({
      expected: { kind: "maximum" },
      received: 99,
    });
  });
});

describe("cross-field rules carry their parameters", () => {
  it("frame_index unique, and within the duration", () => {
    const [found] = validate(KEYFRAMES, [
      {
        prompt: "p",
        keyframes: [
          { image_url: img(0), frame_index: 130 },
          { image_url: img(1), frame_index: 130 },
        ],
      },
    ]);
    const unique = found!.filter((d) => d.rule === "frame-index-unique").map(data);
    expect(unique).toEqual([
      {
        pointer: "/keyframes/0/frame_index",
        expected: { kind: "uniqueItemField", array: "/keyframes", field: "frame_index" },
        received: 130,
      },
      {
        pointer: "/keyframes/1/frame_index",
        expected: { kind: "uniqueItemField", array: "/keyframes", field: "frame_index" },
        received: 130,
      },
    ]);
    expect(found!.find((d) => d.rule === "frame-index-within-duration")).toMatchObject({
      expected: { kind: "itemFieldWithinDuration", limit: 120, duration: 5, framesPerSecond: 24 },
      received: 130,
    });
  });

  it("file_url requires enable_thinking: the flag, and the URL without its query string", () => {
    const [found] = validate(REFERENCE, [
      { prompt: "p", reference_images: [img(0)], file_url: "https://files.example/a.pdf?token=SECRETSIG" },
    ]);
    const d = found!.find((x) => x.rule === "file-url-requires-thinking");
    expect(d).toMatchObject({
      expected: { kind: "requiresFlag", flag: "/enable_thinking", value: true },
      received: "https://files.example/a.pdf",
    });
    expect(JSON.stringify(found)).not.toContain("SECRETSIG");
  });

  it("model C duration, and an unknown field with its suggestion", () => {
    const [found] = validate(MODEL_C, [{ prompt: "p", duration: 2, durration: { a: 1, b: 2 } }]);
    expect(found!.map((d) => [d.rule, d.expected, d.received])).toEqual([
      ["duration-auto-or-range", { kind: "integerInSetOrRange", values: [-1], min: 4, max: 15 }, 2],
      [
        "unknown-field",
        {
          kind: "unknownFields",
          known: ["prompt", "duration", "generate_audio", "ratio", "resolution"],
          suggestion: "duration",
        },
        { type: "object", fields: 2 },
      ],
    ]);
  });
});

describe("receivedOf: small and JSON-safe", () => {
  it.each<[string, unknown, unknown]>([
    ["a number", 5, 5],
    ["a boolean", false, false],
    ["null", null, null],
    ["nothing", undefined, undefined],
    ["a signed URL", img(1), "https://cdn.example.com/k1.png"],
    ["a URL inside text", `see ${img(2)} now`, "see https://cdn.example.com/k2.png now"],
    ["a long string", "x".repeat(5000), `${"x".repeat(57)}…`],
    ["an integer beyond 2^53", 9007199254740993n, { type: "integer", text: "9007199254740993" }],
    ["NaN", Number.NaN, { type: "number", text: "NaN" }],
    ["an array", [1, 2, 3], { type: "array", items: 3 }],
    ["an object", { a: { deep: [1] } }, { type: "object", fields: 1 }],
  ])("%s", (_, value, expected) => {
    const received = receivedOf(value);
    expect(received).toEqual(expected);
    if (received !== undefined) expect(JSON.parse(JSON.stringify(received))).toEqual(received);
  });
});
