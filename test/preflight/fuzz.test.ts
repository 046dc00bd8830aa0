/**
 * Issue 37 item 1: a fuzz test of the preflight's media parsing. Every committed media fixture
 * (MP4, MOV, WebM, MP3, WAV, M4A, PNG, JPEG, GIF, WebP, and crafted/tiny.mp4) × random mutations
 * (bit flips, truncations, box, chunk and element sizes rewritten, table counts rewritten) goes
 * through `inspect()` as the preflight runs it (the parser process of src/preflight/sandbox.ts):
 * each case ends, within the parse time limit, in a verdict (what the file is, maybe its
 * duration) or a problem in words; never an exception, never a stop of this process.
 *
 * Seeded (fast-check, seed 37): a few seconds in `npm test`, shared among the fixtures. For a
 * longer run: `VSK_FUZZ_LONG=1 npx vitest run test/preflight/fuzz.test.ts` (2 minutes), or
 * `VSK_FUZZ_SECONDS=600` (and `VSK_FUZZ_SEED=n` for other cases).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inspect, type MediaInfo } from "../../src/preflight/index.js";
import { SANDBOX_LIMITS } from "../../src/preflight/sandbox.js";
import { FIXTURES } from "./media-server.js";

const SECONDS = Number(process.env.VSK_FUZZ_SECONDS ?? (process.env.VSK_FUZZ_LONG === "1" ? 120 : 4));
const SEED = Number(process.env.VSK_FUZZ_SEED ?? 37);
const FILES = [
  "video-24fps.mp4",
  "video-moov-at-end.mp4",
  "video.mov",
  "video.webm",
  "audio.mp3",
  "audio.wav",
  "audio.m4a",
  "image.png",
  "image.jpg",
  "image.gif",
  "image.webp",
  "crafted/tiny.mp4",
];

/** Where sizes and counts sit: ISO BMFF boxes (size before the type), RIFF and PNG chunks, EBML elements. */
const ISO_TABLES = ["stsz", "stts", "stsc", "stco", "co64", "elst", "ctts", "stss", "stsd", "dref", "trun", "sbgp"];
const ISO_BOXES = [
  "moov",
  "trak",
  "mdia",
  "minf",
  "stbl",
  "edts",
  "mdat",
  "mvhd",
  "tkhd",
  "mdhd",
  "hdlr",
  "udta",
  "meta",
];
const ISO_BOXES_MORE = ["avc1", "avcC", "mp4a", "esds", "ftyp", "free", "dinf"];
const RIFF_CHUNKS = ["RIFF", "fmt ", "data", "LIST", "VP8 ", "VP8L", "VP8X"];
const PNG_CHUNKS = ["IHDR", "IDAT", "IEND", "tEXt"];
/** EBML ids (WebM): Segment, Info, Tracks, Cluster, SimpleBlock, BlockGroup, Duration, Cues, SeekHead */
const EBML_IDS = ["18538067", "1549a966", "1654ae6b", "1f43b675", "a3", "a0", "4489", "1c53bb6b", "114d9b74"].map((h) =>
  Buffer.from(h, "hex"),
);
const INTERESTING = [0, 1, 4, 7, 8, 9, 0x7fffffff, 0x80000000, 0xffffffff, 0x10000, 0x40000000, 16, 4096];

function offsetsOf(bytes: Buffer, needle: Buffer, max = 64): number[] {
  const found: number[] = [];
  for (let at = bytes.indexOf(needle); at !== -1 && found.length < max; at = bytes.indexOf(needle, at + 1))
    found.push(at);
  return found;
}

type Mutation =
  | { kind: "flip"; at: number; bit: number }
  | { kind: "truncate"; at: number }
  | { kind: "byte"; at: number; value: number }
  | { kind: "size"; tag: string; nth: number; value: number }
  | { kind: "count"; tag: string; nth: number; slot: number; value: number }
  | { kind: "ebml"; nth: number; which: number; value: number[] };

const u32 = fc.oneof(fc.constantFrom(...INTERESTING), fc.nat({ max: 0xffffffff }));
/** Positions mostly where parsers read: the first 64 KiB (headers, a faststart moov), then anywhere. */
const position = fc.oneof(fc.nat({ max: 0xffff }), fc.nat({ max: 1 << 21 }), fc.nat({ max: 2048 }));
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("flip" as const), at: position, bit: fc.nat({ max: 7 }) }),
  fc.record({ kind: fc.constant("truncate" as const), at: position }),
  fc.record({ kind: fc.constant("byte" as const), at: position, value: fc.nat({ max: 255 }) }),
  fc.record({
    kind: fc.constant("size" as const),
    tag: fc.constantFrom(...ISO_TABLES, ...ISO_BOXES, ...ISO_BOXES_MORE, ...RIFF_CHUNKS, ...PNG_CHUNKS),
    nth: fc.nat({ max: 8 }),
    value: u32,
  }),
  // slot 0: a table's count (stsz: its sample size, which when not 0 makes the count a loop's bound); 1: the next field
  fc.record({
    kind: fc.constant("count" as const),
    tag: fc.constantFrom(...ISO_TABLES),
    nth: fc.nat({ max: 8 }),
    slot: fc.nat({ max: 1 }),
    value: u32,
  }),
  fc.record({
    kind: fc.constant("ebml" as const),
    nth: fc.nat({ max: 16 }),
    which: fc.nat({ max: EBML_IDS.length - 1 }),
    // a size's first byte says its length: 0x01 an 8-byte size, 0xff "unknown", 0x80 zero
    value: fc.array(fc.oneof(fc.constantFrom(0x01, 0xff, 0x80, 0x08, 0x7f), fc.nat({ max: 255 })), {
      minLength: 1,
      maxLength: 8,
    }),
  }),
);

function mutate(original: Buffer, mutations: readonly Mutation[]): Buffer {
  let bytes = Buffer.from(original);
  for (const m of mutations) {
    if (bytes.length === 0) break;
    if (m.kind === "flip") bytes[m.at % bytes.length]! ^= 1 << m.bit;
    else if (m.kind === "byte") bytes[m.at % bytes.length] = m.value;
    else if (m.kind === "truncate") bytes = bytes.subarray(0, m.at % bytes.length);
    else if (m.kind === "ebml") {
      const at = offsetsOf(bytes, EBML_IDS[m.which]!)[m.nth];
      if (at !== undefined) {
        const from = at + EBML_IDS[m.which]!.length;
        Buffer.from(m.value).copy(bytes, from, 0, Math.max(0, Math.min(m.value.length, bytes.length - from)));
      }
    } else {
      const tag = Buffer.from(m.tag, "latin1");
      const at = offsetsOf(bytes, tag)[m.nth];
      if (at === undefined) continue;
      const riff = RIFF_CHUNKS.includes(m.tag);
      // ISO box and PNG chunk: the size before the tag, big-endian; RIFF: after it, little-endian;
      // an ISO table's count: after the tag and its version and flags
      const where = m.kind === "count" ? at + 8 + 4 * m.slot : riff ? at + 4 : at - 4;
      if (where < 0 || where + 4 > bytes.length) continue;
      if (riff) bytes.writeUInt32LE(m.value >>> 0, where);
      else bytes.writeUInt32BE(m.value >>> 0, where);
    }
  }
  return bytes;
}

const limits = { ...SANDBOX_LIMITS };
beforeAll(() => {
  // a parse that loops costs 2 s, not 5
  SANDBOX_LIMITS.parseMs = 2_000;
});
afterAll(() => {
  Object.assign(SANDBOX_LIMITS, limits);
});

describe("fuzzing the media parsers", () => {
  it(
    `every fixture × random mutations ends in bounded time with a verdict or a problem (${SECONDS} s, seed ${SEED})`,
    async () => {
      const outcomes = new Map<string, number>();
      let slowest = 0;
      let cases = 0;
      // the parser process started before the clock, so that its start is not one case's time
      await inspect({ size: 1, read: async () => new Uint8Array([0]) });
      for (const [i, name] of FILES.entries()) {
        const original = readFileSync(join(FIXTURES, name));
        const property = fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 6 }), async (mutations) => {
          const bytes = mutate(original, mutations);
          const started = performance.now();
          const info: MediaInfo = await inspect({
            size: bytes.length,
            read: async (start, length) => bytes.subarray(start, start + length),
          });
          const ms = performance.now() - started;
          slowest = Math.max(slowest, ms);
          cases++;
          // a killed parse restarts the process for the next: its time, plus a start
          expect(ms).toBeLessThan(SANDBOX_LIMITS.parseMs + 15_000);
          expect(typeof info.format).toBe("string");
          expect(["image", "video", "audio", "other"]).toContain(info.family);
          const outcome =
            info.problem === undefined ? (info.duration === undefined ? "verdict" : "duration") : "problem";
          outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
        });
        // one case whatever the time (a killed parse and the restart after it may take longer than a
        // file's share of the budget on a loaded machine: a share that ends before its first case
        // checks nothing, and fast-check calls that a failure), then as many as the share allows
        await fc.assert(property, { seed: SEED + i, numRuns: 1 });
        const more = await fc.check(property, {
          seed: SEED + 100 + i,
          numRuns: Number.MAX_SAFE_INTEGER,
          interruptAfterTimeLimit: (SECONDS * 1000) / FILES.length,
          markInterruptAsFailure: false,
        });
        if (more.failed && more.counterexample !== null) throw new Error(fc.defaultReportMessage(more));
      }
      expect(cases).toBeGreaterThanOrEqual(FILES.length);
      if (process.env.VSK_FUZZ_LONG === "1" || process.env.VSK_FUZZ_SECONDS !== undefined)
        console.log(
          `fuzz: ${cases} cases, slowest ${Math.round(slowest)} ms, ${JSON.stringify(Object.fromEntries(outcomes))}`,
        );
    },
    SECONDS * 1000 + 60_000,
  );
});
