/**
 * Remembered messages (per schema path, pointer and value; and the last error at each schema
 * path) never answer for a payload that differs: the same mistakes in any order, at other
 * places, with other values, give the messages a fresh validator run gives.
 */
import { describe, expect, it } from "vitest";
import { validateModelAKeyframesToVideo as validate } from "../../generated/index.mjs";

const img = (i: number) => `https://cdn.example.com/k/${i}.png?X-Amz-Signature=s${i}`;
const payload = (duration: unknown, resolution: unknown, frames: unknown[]) => ({
  prompt: "p",
  keyframes: frames.map((frame_index, i) => ({ image_url: img(i), frame_index })),
  duration,
  resolution,
});
const said = (p: unknown) => validate(p).map((d) => `${d.pointer} ${d.message}`);

describe("remembered messages follow the payload", () => {
  const cases = [
    payload(25, "720P", [-1, 3, 3]),
    payload(30, "720P", [-1, 3, 3]),
    payload(25, "1080P", [0, -2, 5]),
    payload("25", "720P", [-1]),
    payload(25, 720, [3, -1, 3]),
    payload(null, "720P", []),
  ];
  const fresh = cases.map(said); // each payload's messages, first seen in this order

  it("the same payloads again, in reverse and interleaved, say the same", () => {
    for (let round = 0; round < 3; round++) {
      const order = round === 1 ? [...cases.keys()].reverse() : [...cases.keys(), ...cases.keys()];
      for (const k of order) expect(said(cases[k])).toEqual(fresh[k]);
    }
  });

  it("a value changed at a remembered place gets its own message", () => {
    expect(said(payload(25, "720P", [-1, 3, 3]))).toContain("/duration duration: 25 is above the maximum 20");
    expect(said(payload(26, "720P", [-1, 3, 3]))).toContain("/duration duration: 26 is above the maximum 20");
    expect(said(payload(26, "720P", [-1, 3, 3]))).not.toContain("/duration duration: 25 is above the maximum 20");
    expect(said(payload(5, "720P", [-7]))).toContain(
      "/keyframes/0/frame_index keyframes[0].frame_index: -7 is below the minimum 0",
    );
  });
});
