/**
 * The committed generated validators, executed under plain `node` (no vitest loader, no tsx):
 * for every endpoint a table written from the service spec (sections 2.2, 4.2–4.5, 8): each
 * bound at min−1, min, max, max+1, each enum with a near miss, nullables, "URI or any string",
 * each cross-field rule at and beyond its edge, and several errors in one payload.
 *
 * One `node` child per table runs test/fixtures/emit/run-validator.mjs, which imports
 * `dist/generated/example/<model>/<endpoint>.validate.mjs` (the build of the committed .mts) and prints the diagnostics as JSON.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const DRIVER = join(ROOT, "test/fixtures/emit/run-validator.mjs");

interface Diagnostic {
  severity: "error" | "warning";
  pointer: string;
  rule: string;
  code: string;
  reason: string;
  retryable: boolean;
  message: string;
}

interface Expected {
  severity: "error" | "warning";
  pointer: string;
  rule: string;
  /** fragments the message must contain (expected vs received, hints) */
  fragments: string[];
}

interface Case {
  name: string;
  input: unknown;
  expect: Expected[];
}

const err = (pointer: string, rule: string, ...fragments: string[]): Expected => ({
  severity: "error",
  pointer,
  rule,
  fragments,
});
const warn = (pointer: string, rule: string, ...fragments: string[]): Expected => ({
  severity: "warning",
  pointer,
  rule,
  fragments,
});
const ok = (name: string, input: unknown): Case => ({ name, input, expect: [] });
const bad = (name: string, input: unknown, ...expect: Expected[]): Case => ({ name, input, expect });

/** Marker put in query strings: it must never appear in a message (spec 7.2, input_fetch_failed rule 3). */
const SECRET = "SECRETSIG";

/** Runs one table in a plain `node` child process; returns each payload's diagnostics. */
function runTable(validatorFile: string, cases: readonly Case[]): Diagnostic[][] {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const child = spawnSync(process.execPath, [DRIVER], {
    input: JSON.stringify({ module: join(ROOT, "dist/generated", validatorFile), cases: cases.map((c) => c.input) }),
    encoding: "utf8",
    env,
    timeout: 20_000,
  });
  if (child.status !== 0) throw new Error(`node ${DRIVER} exited ${String(child.status)}: ${child.stderr}`);
  const results = JSON.parse(child.stdout) as Diagnostic[][];
  if (results.length !== cases.length) throw new Error(`expected ${cases.length} results, got ${results.length}`);
  return results;
}

const key = (d: Pick<Diagnostic, "severity" | "pointer" | "rule">): string =>
  `${d.severity} ${JSON.stringify(d.pointer)} ${d.rule}`;

function check(actual: readonly Diagnostic[], expected: readonly Expected[]): void {
  // The same findings (as a multiset of severity, pointer, rule) …
  expect(actual.map(key).sort(), actual.map((d) => d.message).join("\n")).toEqual(expected.map(key).sort());
  for (const d of actual) {
    // … in the service's vocabulary for its own validation failure (spec 7.2) …
    expect(d).toMatchObject({ code: "invalid_input", reason: "input_validation_failed", retryable: false });
    expect(typeof d.message).toBe("string");
    expect(d.message.length).toBeGreaterThan(0);
    // … never echoing a URL's query string …
    expect(d.message).not.toContain(SECRET);
  }
  // … errors before warnings …
  const firstWarning = actual.findIndex((d) => d.severity === "warning");
  if (firstWarning >= 0) expect(actual.slice(firstWarning).every((d) => d.severity === "warning")).toBe(true);
  // … and each message says expected versus received.
  for (const e of expected) {
    const candidates = actual.filter((d) => key(d) === key(e));
    const found = candidates.some((d) => e.fragments.every((f) => d.message.includes(f)));
    expect(
      found,
      `${key(e)} with ${JSON.stringify(e.fragments)}; got ${JSON.stringify(candidates.map((d) => d.message))}`,
    ).toBe(true);
  }
}

function table(
  title: string,
  validatorFile: string,
  cases: readonly Case[],
  mode: "passes" | "fails" = "passes",
): void {
  describe(title, () => {
    let results: Diagnostic[][] = [];
    beforeAll(() => {
      results = runTable(validatorFile, cases);
    });
    const run = mode === "fails" ? it.fails : it;
    cases.forEach((c, i) => {
      run(c.name, () => check(results[i]!, c.expect));
    });
  });
}

const url = (path: string) => `https://cdn.example.com/${path}`;
const urlOfLength = (n: number): string => {
  const base = url("");
  return base + "a".repeat(n - base.length);
};
const repeat = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));

// ---------------------------------------------------------------------------------------------
// Model A, keyframes-to-video (spec 2.2, 4.3, 8)

const kf = (frame_index: unknown, image_url: unknown = url("k.png")) => ({ image_url, frame_index });
const A = (extra: Record<string, unknown> = {}) => ({ prompt: "a cat walks", keyframes: [kf(0)], ...extra });
const ASPECTS_A = ["auto", "21:9", "2:1", "16:9", "4:3", "1:1", "3:4", "9:16"];

table("model A keyframes-to-video (plain node)", "example/model-a/keyframes-to-video.validate.mjs", [
  ok("minimal payload", A()),
  ok(
    "every field at a valid value",
    A({ aspect_ratio: "21:9", duration: 12, generate_audio: false, resolution: "1080p" }),
  ),
  ...ASPECTS_A.map((r) => ok(`aspect_ratio ${r}`, A({ aspect_ratio: r }))),
  bad(
    "aspect_ratio near miss 3:2",
    A({ aspect_ratio: "3:2" }),
    err("/aspect_ratio", "schema/enum", '"3:2"', '"16:9"', '"9:16"'),
  ),
  ok("resolution 720p", A({ resolution: "720p" })),
  bad(
    "resolution near miss 720P",
    A({ resolution: "720P" }),
    err("/resolution", "schema/enum", '"720P"', 'did you mean "720p"'),
  ),
  bad("resolution 4k is model C's only", A({ resolution: "4k" }), err("/resolution", "schema/enum", '"4k"')),
  bad("duration 4 (min−1)", A({ duration: 4 }), err("/duration", "schema/minimum", "4", "minimum 5")),
  ok("duration 5 (min)", A({ duration: 5 })),
  ok("duration 20 (max)", A({ duration: 20 })),
  bad("duration 21 (max+1)", A({ duration: 21 }), err("/duration", "schema/maximum", "21", "maximum 20")),
  bad(
    'duration "auto" is not accepted here',
    A({ duration: "auto" }),
    err("/duration", "schema/type", "expected integer", 'string "auto"'),
  ),
  bad(
    "duration null is not nullable",
    A({ duration: null }),
    err("/duration", "schema/type", "expected integer", "null"),
  ),
  bad(
    "duration 5.5 is not an integer",
    A({ duration: 5.5 }),
    err("/duration", "schema/type", "expected integer", "5.5"),
  ),
  bad(
    'generate_audio "true"',
    A({ generate_audio: "true" }),
    err("/generate_audio", "schema/type", "expected boolean", 'string "true"'),
  ),
  bad(
    "prompt missing points at /prompt",
    { keyframes: [kf(0)] },
    err("/prompt", "schema/required", "prompt", "required"),
  ),
  bad(
    "keyframes missing points at /keyframes",
    { prompt: "p" },
    err("/keyframes", "schema/required", "keyframes", "required"),
  ),
  bad("prompt not a string", A({ prompt: 5 }), err("/prompt", "schema/type", "expected string", "integer 5")),
  bad("keyframes not an array", A({ keyframes: "k" }), err("/keyframes", "schema/type", "expected array")),
  bad(
    "frame_index −1 (min−1)",
    A({ keyframes: [kf(-1)] }),
    err("/keyframes/0/frame_index", "schema/minimum", "keyframes[0].frame_index", "-1", "minimum 0"),
  ),
  ok("frame_index 0 (min)", A({ keyframes: [kf(0)] })),
  bad(
    "frame_index 1.5",
    A({ keyframes: [kf(1.5)] }),
    err("/keyframes/0/frame_index", "schema/type", "expected integer", "1.5"),
  ),
  bad(
    "keyframe without image_url",
    A({ keyframes: [{ frame_index: 0 }] }),
    err("/keyframes/0/image_url", "schema/required", "keyframes[0].image_url"),
  ),
  bad(
    "keyframe without frame_index",
    A({ keyframes: [{ image_url: url("a.png") }] }),
    err("/keyframes/0/frame_index", "schema/required"),
  ),
  // spec 2.2: image_url is "string (URI, length 1 to 2083) or any string": any string is valid
  ok("image_url any string: not a URI", A({ keyframes: [kf(0, "not a url")] })),
  ok("image_url any string: empty", A({ keyframes: [kf(0, "")] })),
  ok("image_url any string: 2084 characters", A({ keyframes: [kf(0, urlOfLength(2084))] })),
  ok("image_url any string: 5000 characters", A({ keyframes: [kf(0, "x".repeat(5000))] })),
  bad(
    "image_url not a string",
    A({ keyframes: [kf(0, 42)] }),
    err("/keyframes/0/image_url", "schema/type", "expected string", "integer 42"),
  ),
  // frame_index <= duration * 24, duration defaulting to 5 (spec 2.2, 4.3, 8)
  ok("frame_index 120 with the default duration (5 × 24)", A({ keyframes: [kf(120)] })),
  bad(
    "frame_index 121 with the default duration",
    A({ keyframes: [kf(0), kf(121)] }),
    err(
      "/keyframes/1/frame_index",
      "frame-index-within-duration",
      "keyframes[1].frame_index",
      "121",
      "(120)",
      "default 5 s",
    ),
  ),
  ok("frame_index 120 with duration 5 given", A({ duration: 5, keyframes: [kf(120)] })),
  bad(
    "frame_index 121 with duration 5 given",
    A({ duration: 5, keyframes: [kf(121)] }),
    err("/keyframes/0/frame_index", "frame-index-within-duration", "121", "(120)", "5 s"),
  ),
  ok("frame_index 240 with duration 10", A({ duration: 10, keyframes: [kf(240)] })),
  bad(
    "frame_index 241 with duration 10",
    A({ duration: 10, keyframes: [kf(241)] }),
    err("/keyframes/0/frame_index", "frame-index-within-duration", "241", "(240)", "10 s"),
  ),
  ok("frame_index 480 with duration 20", A({ duration: 20, keyframes: [kf(480)] })),
  bad(
    "frame_index 481 with duration 20",
    A({ duration: 20, keyframes: [kf(481)] }),
    err("/keyframes/0/frame_index", "frame-index-within-duration", "481", "(480)"),
  ),
  bad(
    "frame bound skipped when duration is above its maximum",
    A({ duration: 21, keyframes: [kf(1000)] }),
    err("/duration", "schema/maximum"),
  ),
  bad(
    "frame bound skipped when duration is below its minimum",
    A({ duration: 4, keyframes: [kf(1000)] }),
    err("/duration", "schema/minimum"),
  ),
  bad(
    'frame bound skipped when duration is "auto"',
    A({ duration: "auto", keyframes: [kf(1000)] }),
    err("/duration", "schema/type"),
  ),
  bad(
    "frame bound skipped when duration is null",
    A({ duration: null, keyframes: [kf(1000)] }),
    err("/duration", "schema/type"),
  ),
  // frame_index unique, every keyframe sharing a value reported (spec 2.2)
  ok("distinct frame_index values", A({ keyframes: [kf(0), kf(1), kf(120)] })),
  bad(
    "two keyframes share a frame_index",
    A({ keyframes: [kf(0), kf(0)] }),
    err(
      "/keyframes/0/frame_index",
      "frame-index-unique",
      "keyframes[0].frame_index",
      "also used by keyframes[1]",
      "unique",
    ),
    err("/keyframes/1/frame_index", "frame-index-unique", "keyframes[1].frame_index", "also used by keyframes[0]"),
  ),
  bad(
    "three keyframes share a frame_index, one does not",
    A({ keyframes: [kf(24), kf(48), kf(24), kf(24)] }),
    err("/keyframes/0/frame_index", "frame-index-unique", "keyframes[2]", "keyframes[3]"),
    err("/keyframes/2/frame_index", "frame-index-unique", "keyframes[0]", "keyframes[3]"),
    err("/keyframes/3/frame_index", "frame-index-unique", "keyframes[0]", "keyframes[2]"),
  ),
  bad(
    "two pairs of duplicates",
    A({ keyframes: [kf(1), kf(2), kf(2), kf(1)] }),
    err("/keyframes/0/frame_index", "frame-index-unique", "keyframes[3]"),
    err("/keyframes/1/frame_index", "frame-index-unique", "keyframes[2]"),
    err("/keyframes/2/frame_index", "frame-index-unique", "keyframes[1]"),
    err("/keyframes/3/frame_index", "frame-index-unique", "keyframes[0]"),
  ),
  bad(
    "duplicates past the last frame: both rules on both keyframes",
    A({ keyframes: [kf(121), kf(121)] }),
    err("/keyframes/0/frame_index", "frame-index-unique"),
    err("/keyframes/1/frame_index", "frame-index-unique"),
    err("/keyframes/0/frame_index", "frame-index-within-duration", "121"),
    err("/keyframes/1/frame_index", "frame-index-within-duration", "121"),
  ),
  bad(
    "unknown field, did you mean",
    A({ aspect: "16:9" }),
    warn("/aspect", "unknown-field", "aspect", 'did you mean "aspect_ratio"'),
  ),
  bad("unknown field from another model", A({ seed: 3 }), warn("/seed", "unknown-field", "seed", "not a field")),
  bad(
    "unknown field inside a keyframe (spec 4.1), with did you mean",
    A({
      keyframes: [
        { ...kf(0), strength: 0.5 },
        { ...kf(24), frame_idx: 3 },
      ],
    }),
    warn(
      "/keyframes/0/strength",
      "unknown-field",
      "keyframes[0].strength: is not a field of keyframes[0]",
      "(known: image_url, frame_index)",
    ),
    warn("/keyframes/1/frame_idx", "unknown-field", 'did you mean "frame_index"'),
  ),
  bad(
    "__proto__ as a field",
    JSON.parse('{"prompt":"p","keyframes":[],"__proto__":{"polluted":true}}'),
    warn("/__proto__", "unknown-field"),
  ),
  bad(
    "several errors in one payload",
    {
      keyframes: [kf(-1), { image_url: url("b.png") }, kf(3), kf(3)],
      aspect_ratio: "3:2",
      duration: 25,
      resolution: "720P",
      audio: true,
    },
    err("/prompt", "schema/required"),
    err("/keyframes/0/frame_index", "schema/minimum", "-1"),
    err("/keyframes/1/frame_index", "schema/required"),
    err("/keyframes/2/frame_index", "frame-index-unique", "keyframes[3]"),
    err("/keyframes/3/frame_index", "frame-index-unique", "keyframes[2]"),
    err("/aspect_ratio", "schema/enum", '"3:2"'),
    err("/duration", "schema/maximum", "25", "20"),
    err("/resolution", "schema/enum", '"720P"'),
    warn("/audio", "unknown-field"),
  ),
  bad("body null", null, err("", "schema/type", "expected object", "null")),
  bad("body an array", [], err("", "schema/type", "expected object", "array")),
  bad("body a string", "prompt", err("", "schema/type", "expected object", "string")),
]);

// ---------------------------------------------------------------------------------------------
// Model A, text-to-video (spec 4.2, 8)

const T = (extra: Record<string, unknown> = {}) => ({ prompt: "a cat walks", ...extra });

table("model A text-to-video (plain node)", "example/model-a/text-to-video.validate.mjs", [
  ok("minimal payload", T()),
  ok(
    "every field at a valid value",
    T({ aspect_ratio: "9:16", duration: 7, generate_audio: true, resolution: "1080p" }),
  ),
  ...ASPECTS_A.map((r) => ok(`aspect_ratio ${r}`, T({ aspect_ratio: r }))),
  bad("aspect_ratio near miss 3:2", T({ aspect_ratio: "3:2" }), err("/aspect_ratio", "schema/enum", '"3:2"')),
  bad(
    "aspect_ratio adaptive is model B/C's",
    T({ aspect_ratio: "adaptive" }),
    err("/aspect_ratio", "schema/enum", '"adaptive"'),
  ),
  bad("resolution near miss 720P", T({ resolution: "720P" }), err("/resolution", "schema/enum", 'did you mean "720p"')),
  bad("resolution near miss 4K", T({ resolution: "4K" }), err("/resolution", "schema/enum", '"4K"')),
  ok('duration "auto"', T({ duration: "auto" })),
  bad('duration "Auto"', T({ duration: "Auto" }), err("/duration", "schema/enum", '"Auto"', 'did you mean "auto"')),
  bad("duration 4 (min−1)", T({ duration: 4 }), err("/duration", "schema/minimum", "4", "minimum 5")),
  ok("duration 5 (min)", T({ duration: 5 })),
  ok("duration 20 (max)", T({ duration: 20 })),
  bad("duration 21 (max+1)", T({ duration: 21 }), err("/duration", "schema/maximum", "21", "maximum 20")),
  bad("duration null", T({ duration: null }), err("/duration", "schema/type", "string or integer", "null")),
  bad(
    'duration "5" says the integer form is allowed too',
    T({ duration: "5" }),
    err("/duration", "schema/enum", '"5" is not one of "auto" (or an integer)'),
  ),
  bad("duration 5.5", T({ duration: 5.5 }), err("/duration", "schema/type", "5.5")),
  bad("prompt missing", {}, err("/prompt", "schema/required")),
  bad("keyframes belong to the other endpoint", T({ keyframes: [] }), warn("/keyframes", "unknown-field")),
  bad(
    "several errors in one payload",
    { aspect_ratio: "4K", duration: 0, generate_audio: 1, resolution: "720P", ratio: "16:9" },
    err("/prompt", "schema/required"),
    err("/aspect_ratio", "schema/enum", '"4K"'),
    err("/duration", "schema/minimum", "0"),
    err("/generate_audio", "schema/type", "expected boolean", "integer 1"),
    err("/resolution", "schema/enum", '"720P"'),
    warn("/ratio", "unknown-field", 'did you mean "aspect_ratio"'),
  ),
]);

// ---------------------------------------------------------------------------------------------
// Model B, reference-to-video (spec 4.4, 8)

const B = (extra: Record<string, unknown> = {}) => ({ prompt: "use image 1 as the style", ...extra });
const urls = (n: number) => repeat(n, (i) => url(`ref-${i}.png`));

table("model B reference-to-video (plain node)", "example/model-b/reference-to-video.validate.mjs", [
  ok("empty payload: no field is required", {}),
  ok("every field at a valid value", {
    prompt: "p",
    aspect_ratio: "16:9",
    seed: 42,
    audio: false,
    duration: 10,
    enable_thinking: true,
    file_url: url("doc.pdf"),
    web_url: "https://example.com/page",
    reference_images: urls(2),
    reference_videos: urls(1),
    reference_audios: urls(1),
    resolution: "720p",
  }),
  ...["adaptive", "16:9", "4:3", "1:1", "3:4", "9:16"].map((r) => ok(`aspect_ratio ${r}`, B({ aspect_ratio: r }))),
  bad(
    "aspect_ratio near miss 3:2",
    B({ aspect_ratio: "3:2" }),
    err("/aspect_ratio", "schema/enum", '"3:2"', '"adaptive"'),
  ),
  bad("aspect_ratio auto is model A's", B({ aspect_ratio: "auto" }), err("/aspect_ratio", "schema/enum", '"auto"')),
  ...["480p", "720p", "1080p"].map((r) => ok(`resolution ${r}`, B({ resolution: r }))),
  bad("resolution near miss 720P", B({ resolution: "720P" }), err("/resolution", "schema/enum", 'did you mean "720p"')),
  bad("resolution near miss 4K", B({ resolution: "4K" }), err("/resolution", "schema/enum", '"4K"')),
  bad("seed −1 (min−1)", B({ seed: -1 }), err("/seed", "schema/minimum", "-1", "minimum 0")),
  ok("seed 0 (min)", B({ seed: 0 })),
  ok("seed 2147483647 (max)", B({ seed: 2147483647 })),
  bad(
    "seed 2147483648 (max+1)",
    B({ seed: 2147483648 }),
    err("/seed", "schema/maximum", "2147483648", "maximum 2147483647"),
  ),
  bad("seed 1.5", B({ seed: 1.5 }), err("/seed", "schema/type", "expected integer", "1.5")),
  bad("seed null is not nullable", B({ seed: null }), err("/seed", "schema/type", "null")),
  bad("duration 1 (min−1)", B({ duration: 1 }), err("/duration", "schema/minimum", "1", "minimum 2")),
  ok("duration 2 (min)", B({ duration: 2 })),
  ok("duration 30 (max)", B({ duration: 30 })),
  bad("duration 31 (max+1)", B({ duration: 31 }), err("/duration", "schema/maximum", "31", "maximum 30 (or null)")),
  ok("duration null selects smart duration", B({ duration: null })),
  bad('duration "auto"', B({ duration: "auto" }), err("/duration", "schema/type", "integer or null", 'string "auto"')),
  bad("duration 2.5", B({ duration: 2.5 }), err("/duration", "schema/type", "integer or null", "2.5")),
  ok(
    "nullables all null",
    B({
      file_url: null,
      web_url: null,
      reference_images: null,
      reference_videos: null,
      reference_audios: null,
      duration: null,
    }),
  ),
  ok("reference arrays empty", B({ reference_images: [], reference_videos: [], reference_audios: [] })),
  ok("reference_images 10 (max)", B({ reference_images: urls(10) })),
  bad(
    "reference_images 11 (max+1)",
    B({ reference_images: urls(11) }),
    err("/reference_images", "schema/maxItems", "at most 10 items", "received 11"),
  ),
  ok("reference_videos 5 (max)", B({ reference_videos: urls(5) })),
  bad(
    "reference_videos 6 (max+1)",
    B({ reference_videos: urls(6) }),
    err("/reference_videos", "schema/maxItems", "at most 5 items", "received 6"),
  ),
  ok("reference_audios 5 (max)", B({ reference_audios: urls(5) })),
  bad(
    "reference_audios 6 (max+1)",
    B({ reference_audios: urls(6) }),
    err("/reference_audios", "schema/maxItems", "at most 5 items", "received 6"),
  ),
  bad(
    "reference_images a string, not an array",
    B({ reference_images: url("a.png") }),
    err("/reference_images", "schema/type", "array or null"),
  ),
  // URL items: URI form, length 1 to 2083 (spec 8); "" is below 1 and not a URI either
  bad(
    "reference item of length 0 (min−1)",
    B({ reference_images: [""] }),
    err("/reference_images/0", "schema/minLength", "at least 1 character", "received 0"),
    err("/reference_images/0", "schema/format", "uri"),
  ),
  ok("reference item of length 2083 (max)", B({ reference_videos: [urlOfLength(2083)] })),
  bad(
    "reference item of length 2084 (max+1)",
    B({ reference_audios: [url("a.mp3"), urlOfLength(2084)] }),
    err("/reference_audios/1", "schema/maxLength", "reference_audios[1]", "at most 2083 characters", "received 2084"),
  ),
  bad(
    "reference item not a URI",
    B({ reference_images: ["image one"] }),
    err("/reference_images/0", "schema/format", '"image one"', "uri"),
  ),
  bad(
    "reference item not a string",
    B({ reference_videos: [url("v.mp4"), 5] }),
    err("/reference_videos/1", "schema/type", "expected string", "integer 5"),
  ),
  // file_url / web_url: "URI, length 1 to 2083, or any string", nullable (spec 4.4): any string is valid
  ok("file_url any string: not a URI", B({ enable_thinking: true, file_url: "my document" })),
  ok("file_url any string: empty", B({ enable_thinking: true, file_url: "" })),
  ok("file_url any string: 3000 characters", B({ enable_thinking: true, file_url: urlOfLength(3000) })),
  ok("web_url any string", B({ enable_thinking: true, web_url: "example.com" })),
  bad(
    "file_url not a string",
    B({ enable_thinking: true, file_url: 7 }),
    err("/file_url", "schema/type", "string or null", "integer 7"),
  ),
  // file_url / web_url require enable_thinking === true (spec 4.4)
  ok("file_url with enable_thinking true", B({ enable_thinking: true, file_url: url(`doc.pdf?token=${SECRET}`) })),
  bad(
    "file_url with enable_thinking false",
    B({ enable_thinking: false, file_url: url(`doc.pdf?token=${SECRET}`) }),
    err("/file_url", "file-url-requires-thinking", "file_url", "enable_thinking: true", "false"),
  ),
  bad(
    "file_url with enable_thinking absent",
    B({ file_url: url(`doc.pdf?token=${SECRET}`) }),
    err("/file_url", "file-url-requires-thinking", "enable_thinking: true", "not set", "default false"),
  ),
  bad(
    "file_url with enable_thinking null: a type error and the rule",
    B({ enable_thinking: null, file_url: url("doc.pdf") }),
    err("/enable_thinking", "schema/type", "expected boolean", "null"),
    err("/file_url", "file-url-requires-thinking", "null"),
  ),
  ok("file_url null with enable_thinking absent", B({ file_url: null })),
  ok("file_url null with enable_thinking false", B({ file_url: null, enable_thinking: false })),
  ok("web_url with enable_thinking true", B({ enable_thinking: true, web_url: "https://example.com/" })),
  bad(
    "web_url with enable_thinking false",
    B({ enable_thinking: false, web_url: "https://example.com/" }),
    err("/web_url", "web-url-requires-thinking", "web_url", "false"),
  ),
  bad(
    "web_url with enable_thinking absent",
    B({ web_url: `https://example.com/?s=${SECRET}` }),
    err("/web_url", "web-url-requires-thinking", "not set"),
  ),
  ok("web_url null with enable_thinking absent", B({ web_url: null })),
  // "" names no document or page (a URI has 1 to 2083 characters, spec 4.4): not "set", so the
  // rule stays quiet and the service receives the body as given; any other string is set
  ok('file_url "" with enable_thinking false: names no document', B({ file_url: "", enable_thinking: false })),
  ok('file_url "" with enable_thinking absent', B({ file_url: "" })),
  ok('web_url "" with enable_thinking absent', B({ web_url: "" })),
  bad(
    'file_url " " (one space) with enable_thinking absent: a string, so set',
    B({ file_url: " " }),
    err("/file_url", "file-url-requires-thinking", "not set"),
  ),
  bad(
    'file_url "" but web_url set: only web_url needs thinking',
    B({ file_url: "", web_url: "page", enable_thinking: false }),
    err("/web_url", "web-url-requires-thinking", "false"),
  ),
  bad(
    "file_url and web_url without thinking: both reported",
    B({ enable_thinking: false, file_url: "doc", web_url: "page" }),
    err("/file_url", "file-url-requires-thinking"),
    err("/web_url", "web-url-requires-thinking"),
  ),
  bad(
    "unknown field, did you mean",
    B({ enable_thiking: true }),
    warn("/enable_thiking", "unknown-field", 'did you mean "enable_thinking"'),
  ),
  bad(
    "unknown field negative_prompt",
    B({ negative_prompt: "x" }),
    warn("/negative_prompt", "unknown-field", "negative_prompt"),
  ),
  bad(
    "several errors in one payload",
    {
      seed: -1,
      duration: 31,
      aspect_ratio: "4K",
      resolution: "720P",
      reference_images: urls(11),
      reference_videos: ["", url("ok.mp4")],
      file_url: url(`doc.pdf?X-Amz-Signature=${SECRET}`),
      ratio: "1:1",
    },
    err("/seed", "schema/minimum"),
    err("/duration", "schema/maximum", "31"),
    err("/aspect_ratio", "schema/enum", '"4K"'),
    err("/resolution", "schema/enum", '"720P"'),
    err("/reference_images", "schema/maxItems", "received 11"),
    err("/reference_videos/0", "schema/minLength"),
    err("/reference_videos/0", "schema/format"),
    err("/file_url", "file-url-requires-thinking"),
    warn("/ratio", "unknown-field", 'did you mean "aspect_ratio"'),
  ),
  // Query strings never reach a message (spec 7.2 input_fetch_failed rule 3, issue 3)
  bad(
    "invalid URI item with a query string",
    B({ reference_images: [url(`a%zz.png?token=${SECRET}`)] }),
    err("/reference_images/0", "schema/format", "https://cdn.example.com/a%zz.png"),
  ),
  bad(
    "URL in an enum field",
    B({ aspect_ratio: url(`x?token=${SECRET}`) }),
    err("/aspect_ratio", "schema/enum", "https://cdn.example.com/x"),
  ),
  bad(
    "URL with user info and query",
    B({ seed: `https://user:${SECRET}@example.com/a?b=${SECRET}` }),
    err("/seed", "schema/type", "https://example.com/a"),
  ),
  bad(
    "URL as a field name",
    JSON.parse(`{"https://example.com/?token=${SECRET}": 1}`),
    // the pointer loses the query string too: no output may carry it
    warn(`/https:~1~1example.com~1`, "unknown-field"),
  ),
]);

// ---------------------------------------------------------------------------------------------
// Model C, text-to-video (spec 4.5, 8)

const C = (extra: Record<string, unknown> = {}) => ({ prompt: "a cat walks", ...extra });
const words = (n: number) => repeat(n, () => "word").join(" ");

table("model C text-to-video (plain node)", "example/model-c/text-to-video.validate.mjs", [
  ok("minimal payload", C()),
  ok("every field at a valid value", C({ duration: 8, generate_audio: false, ratio: "21:9", resolution: "4k" })),
  ...["21:9", "16:9", "4:3", "1:1", "3:4", "9:16", "adaptive"].map((r) => ok(`ratio ${r}`, C({ ratio: r }))),
  bad("ratio near miss 3:2", C({ ratio: "3:2" }), err("/ratio", "schema/enum", '"3:2"', '"adaptive"')),
  bad("ratio auto is model A's", C({ ratio: "auto" }), err("/ratio", "schema/enum", '"auto"')),
  ...["480p", "720p", "1080p", "4k"].map((r) => ok(`resolution ${r}`, C({ resolution: r }))),
  bad(
    "resolution near miss 4K",
    C({ resolution: "4K" }),
    err("/resolution", "schema/enum", '"4K"', 'did you mean "4k"'),
  ),
  bad("resolution near miss 720P", C({ resolution: "720P" }), err("/resolution", "schema/enum", 'did you mean "720p"')),
  // duration: minimum −1, maximum 15; −1 automatic; otherwise at least 4 (spec 4.5, 8)
  bad("duration −2 (schema min−1)", C({ duration: -2 }), err("/duration", "schema/minimum", "-2", "minimum -1")),
  ok("duration −1 (automatic)", C({ duration: -1 })),
  bad(
    "duration 0",
    C({ duration: 0 }),
    err("/duration", "duration-auto-or-range", "duration: 0", "-1", "automatic", "4 to 15"),
  ),
  bad("duration 1", C({ duration: 1 }), err("/duration", "duration-auto-or-range", "1")),
  bad(
    "duration 3 (rule min−1)",
    C({ duration: 3 }),
    err("/duration", "duration-auto-or-range", "duration: 3", "4 to 15"),
  ),
  ok("duration 4 (rule min)", C({ duration: 4 })),
  ok("duration 15 (max)", C({ duration: 15 })),
  bad(
    "duration 16 (max+1): the schema reports it, the rule does not repeat it",
    C({ duration: 16 }),
    err("/duration", "schema/maximum", "16", "maximum 15"),
  ),
  bad("duration 3.5", C({ duration: 3.5 }), err("/duration", "schema/type", "expected integer", "3.5")),
  bad('duration "auto"', C({ duration: "auto" }), err("/duration", "schema/type", 'string "auto"')),
  bad("duration null", C({ duration: null }), err("/duration", "schema/type", "null")),
  bad("prompt missing", { duration: 5 }, err("/prompt", "schema/required")),
  // prompt recommendations are warnings only (spec 4.5: "not stated as hard limits")
  ok("prompt of 500 Chinese characters", C({ prompt: "猫".repeat(500) })),
  bad(
    "prompt of 501 Chinese characters: a warning",
    C({ prompt: "猫".repeat(501) }),
    warn("/prompt", "prompt-length-recommendation", "501 Chinese characters", "500"),
  ),
  ok("prompt of 250 Han characters and 250 Chinese punctuation marks", C({ prompt: "猫。".repeat(250) })),
  bad(
    "prompt of 501 Chinese characters counting Chinese punctuation and full-width forms: a warning that says so",
    C({ prompt: `${"猫".repeat(300)}${"，".repeat(100)}${"、".repeat(100)}！` }),
    warn(
      "/prompt",
      "prompt-length-recommendation",
      "501 Chinese characters (Han, Chinese punctuation and full-width forms), more than the recommended 500",
    ),
  ),
  ok("prompt of 1000 English words", C({ prompt: words(1000) })),
  bad(
    "prompt of 1001 English words: a warning",
    C({ prompt: words(1001) }),
    warn("/prompt", "prompt-length-recommendation", "1001 English words", "1000"),
  ),
  bad(
    "prompt over both recommendations: two warnings",
    C({ prompt: `${"猫".repeat(600)} ${words(1200)}` }),
    warn("/prompt", "prompt-length-recommendation", "600 Chinese characters"),
    warn("/prompt", "prompt-length-recommendation", "1200 English words"),
  ),
  bad(
    "aspect_ratio on model C: did you mean ratio",
    C({ aspect_ratio: "16:9" }),
    warn("/aspect_ratio", "unknown-field", "aspect_ratio", 'did you mean "ratio"'),
  ),
  bad("Ratio: did you mean ratio", C({ Ratio: "16:9" }), warn("/Ratio", "unknown-field", 'did you mean "ratio"')),
  bad(
    "several errors and warnings in one payload",
    {
      prompt: "猫".repeat(501),
      duration: 0,
      ratio: "3:2",
      resolution: "4K",
      generate_audio: "no",
      aspect_ratio: "16:9",
    },
    err("/duration", "duration-auto-or-range", "0"),
    err("/ratio", "schema/enum", '"3:2"'),
    err("/resolution", "schema/enum", '"4K"'),
    err("/generate_audio", "schema/type", 'string "no"'),
    warn("/prompt", "prompt-length-recommendation", "501"),
    warn("/aspect_ratio", "unknown-field", 'did you mean "ratio"'),
  ),
]);

// ---------------------------------------------------------------------------------------------
// Query strings in messages, however the URL is written (spec 7.2, input_fetch_failed rule 3)

table("a URL's query string never reaches a message (plain node)", "example/model-b/reference-to-video.validate.mjs", [
  bad(
    "unencoded space before the query",
    B({ reference_videos: [`https://x.io/my clip.mp4?sig=${SECRET}`] }),
    err("/reference_videos/0", "schema/format", "https://x.io/my clip.mp4"),
  ),
  bad(
    "scheme-relative URL",
    B({ reference_images: [`//cdn.example.com/a.png?token=${SECRET}`] }),
    err("/reference_images/0", "schema/format", "//cdn.example.com/a.png"),
  ),
  bad(
    "URL without a scheme",
    B({ reference_images: [`cdn.example.com/a.png?token=${SECRET}`] }),
    err("/reference_images/0", "schema/format", "cdn.example.com/a.png"),
  ),
  bad(
    "apostrophes in the query, enum field",
    B({ aspect_ratio: `https://x.io/a?sig='${SECRET}'` }),
    err("/aspect_ratio", "schema/enum"),
  ),
]);

// ---------------------------------------------------------------------------------------------
// Redaction edge cases found by review (fixed in src/diagnostics/wording.ts describeValue).

table("a URL value's query string never leaks, whatever it holds", "example/model-b/reference-to-video.validate.mjs", [
  // `"` is not a URL character, so text redaction alone would stop there: `?sig="SECRET"`.
  bad(
    "double quotes in the query",
    B({ reference_images: [`https://x.io/a.png?sig="${SECRET}"`] }),
    err("/reference_images/0", "schema/format"),
  ),
  // a fragment after an unencoded space
  bad(
    "fragment after an unencoded space",
    B({ reference_audios: [`https://x.io/a b.mp3#${SECRET}`] }),
    err("/reference_audios/0", "schema/format"),
  ),
]);
