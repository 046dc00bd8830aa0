/**
 * Issue 40: `vsk lint --summary-only` shows no finding, so the validators count them without
 * wording them (`FindingLimit.words === false`). The summary tables read each finding's severity,
 * pointer and rule: those must be exactly what the worded findings have, in the same order, with
 * the same cap, on every generated validator. Seeded payloads mix wrong types, bounds, enums near
 * misses, nulls, signed URLs, unknown and near-miss keys, repeated and late frame indexes, and
 * two problems at one field (told apart by their words, which the unworded path still compares).
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import type { Diagnostic, FindingLimit } from "../../src/diagnostics/index.js";
import { random } from "./random.js";

const ROOT = join(import.meta.dirname, "../..");
const ENDPOINTS = [
  "model-a/text-to-video",
  "model-a/keyframes-to-video",
  "model-b/reference-to-video",
  "model-c/text-to-video",
];

const FIELDS = [
  "prompt",
  "aspect_ratio",
  "ratio",
  "duration",
  "generate_audio",
  "resolution",
  "seed",
  "audio",
  "enable_thinking",
  "file_url",
  "web_url",
  "reference_images",
  "reference_videos",
  "reference_audios",
  "keyframes",
  "durration",
  "Prompt",
  "extra/field",
  "a~b",
];

function value(r: () => number, i: number): unknown {
  const url = `https://cdn.example/img/${i}.png?X-Amz-Signature=abc${i}`;
  const pool: unknown[] = [
    "a cat walks",
    "",
    "16:9",
    "17:9",
    "auto",
    "720p",
    "4k",
    url,
    "x".repeat(80),
    -1,
    0,
    2,
    5,
    8,
    20,
    31,
    40,
    2.5,
    true,
    false,
    null,
    [url],
    [url, 3, null],
    { a: 1 },
    [],
  ];
  return pool[Math.floor(r() * pool.length)];
}

function keyframes(r: () => number, i: number): unknown {
  const n = Math.floor(r() * 5);
  const items: unknown[] = [];
  for (let k = 0; k < n; k++) {
    const roll = r();
    if (roll < 0.1) items.push("not an object");
    else if (roll < 0.2) items.push({ image_url: value(r, i) });
    else
      items.push({
        image_url: r() < 0.8 ? `https://cdn.example/${i}/${k}.png` : value(r, i),
        frame_index: r() < 0.7 ? [0, 96, 96, 130, 500][Math.floor(r() * 5)] : value(r, i),
        ...(r() < 0.15 ? { frame: 1 } : {}),
      });
  }
  return items;
}

function payload(r: () => number, i: number): unknown {
  if (r() < 0.03) return value(r, i);
  const out: Record<string, unknown> = {};
  const n = 1 + Math.floor(r() * 6);
  for (let k = 0; k < n; k++) {
    const field = FIELDS[Math.floor(r() * FIELDS.length)]!;
    out[field] = field === "keyframes" && r() < 0.8 ? keyframes(r, i) : value(r, i);
  }
  if (r() < 0.5) out.prompt ??= "a prompt";
  return out;
}

/** What the summary tables read of a finding (and a more-findings' counts). */
const counted = (ds: Diagnostic[]) =>
  ds.map((d) => [d.severity, d.pointer, d.rule, d.rule === "more-findings" ? d.expected : undefined]);

describe("findings counted, not worded (FindingLimit.words: false)", () => {
  it("are the worded findings' severity, pointer and rule, in order, on every generated validator", async () => {
    const r = random(40);
    let findings = 0;
    let samePointer = 0;
    for (const endpoint of ENDPOINTS) {
      const file = join(ROOT, "dist/generated/example", `${endpoint}.validate.mjs`);
      const { validate } = (await import(pathToFileURL(file).href)) as {
        validate: (input: unknown, limit?: FindingLimit) => Diagnostic[];
      };
      for (let i = 0; i < 300; i++) {
        const input = payload(r, i);
        for (const limit of [{ max: 100 }, { max: 2 }, { max: 100, errorsOnly: true }]) {
          const worded = validate(input, limit);
          const unworded = validate(input, { ...limit, words: false });
          expect(counted(unworded), `${endpoint} ${JSON.stringify(input)} ${JSON.stringify(limit)}`).toEqual(
            counted(worded),
          );
          for (const d of unworded) if (d.rule !== "more-findings") expect(d.message).toBe("");
          findings += worded.length;
          const pointers = worded.map((d) => d.pointer);
          if (new Set(pointers).size < pointers.length) samePointer++;
        }
      }
    }
    // the seeded payloads reach what the test is about: many findings, and fields with two of them
    expect(findings).toBeGreaterThan(2500);
    expect(samePointer).toBeGreaterThan(50);
  });
});
