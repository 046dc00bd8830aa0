/**
 * Issue 40: vsk lint locates a `.json` document's findings together, in one walk over the
 * payload's text (`locatePointers`), instead of one walk from the start per finding. Each answer
 * must be `locatePointer`'s, on seeded documents: nested objects and arrays, pretty-printed or
 * not, CRLF, repeated keys (the first is the one found), keys with escapes (`\u0041`, `\"`, `~`,
 * `/`), and pointers that exist, end inside a string or number, or go past what the text holds.
 */
import { describe, expect, it } from "vitest";
import { locatePointer, locatePointers } from "../../src/json/index.js";
import { random } from "./random.js";

const KEYS = ["a", "b", "frame_index", "a~b", "x/y", 'q"t', "A", "0", "1", ""];
/** How a key may be written: as JSON.stringify writes it, or with `A` as `\u0041`. */
const written = (key: string): string => JSON.stringify(key).replace(/A/g, "\\u0041");

/** A JSON text and the pointers of (some of) its values, built together. */
function document(r: () => number, depth: number, pointer: string, pointers: string[], nl: string): string {
  pointers.push(pointer);
  const roll = r();
  if (depth > 3 || roll < 0.25)
    return [`"s${Math.floor(r() * 9)}"`, "12", "-1.5e3", "true", "null"][Math.floor(r() * 5)]!;
  const pad = r() < 0.5 ? "" : nl + "  ".repeat(depth + 1);
  if (roll < 0.55) {
    const n = Math.floor(r() * 4);
    const items: string[] = [];
    for (let i = 0; i < n; i++) items.push(pad + document(r, depth + 1, `${pointer}/${i}`, pointers, nl));
    return `[${items.join(",")}${n > 0 ? pad : ""}]`;
  }
  const n = Math.floor(r() * 5);
  const members: string[] = [];
  for (let i = 0; i < n; i++) {
    const key = KEYS[Math.floor(r() * KEYS.length)]!;
    const token = key.replace(/~/g, "~0").replace(/\//g, "~1");
    members.push(
      `${pad}${written(key)}${r() < 0.3 ? " : " : ":"}${document(r, depth + 1, `${pointer}/${token}`, pointers, nl)}`,
    );
  }
  return `{${members.join(",")}${n > 0 ? pad : ""}}`;
}

describe("locatePointers", () => {
  it("gives locatePointer's line and column for every pointer, in one walk", () => {
    const r = random(40);
    let located = 0;
    for (let round = 0; round < 600; round++) {
      const all: string[] = [];
      const text = (r() < 0.2 ? "\uFEFF " : "") + document(r, 0, "", all, r() < 0.3 ? "\r\n" : "\n");
      JSON.parse(text.replace(/^\uFEFF/, "")); // a valid document, as lint hands over
      // some of its pointers, in any order, repeated, and some that go past what it holds
      const wanted: string[] = [];
      const n = 1 + Math.floor(r() * (round % 10 === 0 ? 48 : 8)); // past 32: sorted another way
      for (let i = 0; i < n; i++) {
        const p = all[Math.floor(r() * all.length)]!;
        wanted.push(r() < 0.25 ? `${p}/${KEYS[Math.floor(r() * KEYS.length)]}` : p);
      }
      const one = wanted.map((p) => locatePointer(text, p));
      expect(locatePointers(text, wanted), `${text}\n${JSON.stringify(wanted)}`).toEqual(one);
      located += wanted.length;
    }
    expect(located).toBeGreaterThan(2000);
  });
});
