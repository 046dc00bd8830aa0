/**
 * An MP4/MOV/M4A's box structure (ISO/IEC 14496-12 4.2, 8), checked before mp4box sees it: no
 * size or count read from the file is trusted before the bytes that would hold it are there.
 * mp4box parses a box's tables by the counts they declare (an `stsz` that declares 2^31 samples
 * of one size makes it fill a 2^31-entry array: issue 37). Here, every box inside a top-level
 * box that is read whole must fit in its parent, containers nest at most `depth` deep, every
 * table's entries must fit in its box, and the samples all tables declare stay under
 * `samples`. A file that breaks one of these is not given to mp4box: its problem is said.
 * The parser process (sandbox.ts) bounds whatever this does not foresee.
 */

/** The bounds, documented in docs/preflight.md. */
export const ISOBMFF_LIMITS = {
  /** containers inside containers: a real file nests about 8 (moov/trak/mdia/minf/stbl/stsd/…) */
  depth: 32,
  /** boxes checked in one file */
  boxes: 65_536,
  /**
   * samples declared by all tracks together: mp4box keeps an object per sample (~330 bytes,
   * ~3 µs each, measured): 262,144 is ~90 MB and ~1 s; an hour of 30 fps video with its AAC
   * audio has ~280,000
   */
  samples: 262_144,
};

/** The bytes read so far: a run of bytes holding a position, and the file's size once known. */
export interface HeldRuns {
  size: number | undefined;
  runAt(at: number): { start: number; bytes: Uint8Array } | undefined;
}

/** Boxes made of boxes, which mp4box parses by parsing their children. */
const CONTAINERS = new Set([
  "moov",
  "trak",
  "mdia",
  "minf",
  "stbl",
  "edts",
  "dinf",
  "udta",
  "mvex",
  "moof",
  "traf",
  "mfra",
  "tref",
  "sinf",
  "schi",
  "meco",
  "strk",
  "strd",
  "ipro",
  "iprp",
  "ipco",
  "grpl",
  "hnti",
  "hinf",
  "ilst",
]);
/** Top-level boxes mp4box skips by their header (their payload is never parsed). */
const SKIPPED = new Set(["mdat", "free", "skip", "wide", "pnot"]);

class Malformed extends Error {}

/** The first thing wrong with the boxes held, in words ("its stsz box lists …"), or undefined. */
export function checkIsoBmff(held: HeldRuns): string | undefined {
  const state = { boxes: 0, samples: 0 };
  try {
    let at = 0;
    for (;;) {
      const run = held.runAt(at);
      if (run === undefined) return undefined;
      const view = new DataView(run.bytes.buffer, run.bytes.byteOffset, run.bytes.byteLength);
      const offset = at - run.start;
      const left = run.bytes.length - offset;
      if (left < 8) return undefined; // its header is not read yet
      let size = view.getUint32(offset);
      const type = fourcc(view, offset + 4);
      let header = 8;
      if (size === 1) {
        if (left < 16) return undefined;
        // past any file (2^53 bytes and more): nothing after it is read, so nothing to check
        if (view.getBigUint64(offset + 8) > BigInt(Number.MAX_SAFE_INTEGER)) return undefined;
        size = largeSize(view, offset + 8, type);
        header = 16;
      } else if (size === 0) {
        // the last box, to the end of the file (4.2)
        if (held.size === undefined) return undefined;
        size = held.size - at;
      }
      if (size < header) throw new Malformed(`its ${shown(type)} box says it is ${size} bytes, less than its header`);
      count(state);
      // a box read whole is checked; one that is not is skipped by its header, as mp4box does
      if (size <= left && !SKIPPED.has(type)) checkBox(view, offset, size, header, type, 0, state);
      at += size;
    }
  } catch (error) {
    if (error instanceof Malformed) return error.message;
    throw error;
  }
}

function fourcc(view: DataView, at: number): string {
  let s = "";
  for (let i = 0; i < 4; i++) s += String.fromCharCode(view.getUint8(at + i));
  return s;
}

/** A four-character code as a message shows it: printable ASCII, else its bytes in hex. */
function shown(type: string): string {
  return /^[\x20-\x7e]{4}$/.test(type)
    ? type
    : [...type].map((c) => c.charCodeAt(0).toString(16).padStart(2, "0")).join("");
}

function largeSize(view: DataView, at: number, type: string): number {
  const size = view.getBigUint64(at);
  if (size > BigInt(Number.MAX_SAFE_INTEGER))
    throw new Malformed(`its ${shown(type)} box says it is ${size} bytes, more than any file`);
  return Number(size);
}

function count(state: { boxes: number }): void {
  if (++state.boxes > ISOBMFF_LIMITS.boxes)
    throw new Malformed(`it has more than ${ISOBMFF_LIMITS.boxes} boxes, more than the preflight reads`);
}

/** The box at `at` (`size` bytes, whole in `view`): its children, or its table's counts. */
function checkBox(
  view: DataView,
  at: number,
  size: number,
  header: number,
  type: string,
  depth: number,
  state: { boxes: number; samples: number },
): void {
  const start = at + header;
  const end = at + size;
  if (CONTAINERS.has(type)) return children(view, start, end, type, depth + 1, state);
  if (type === "meta") {
    // ISO's meta is a FullBox (4 bytes of version and flags first); QuickTime's is not
    const full = end - start >= 4 && view.getUint32(start) === 0;
    return children(view, full ? start + 4 : start, end, type, depth + 1, state);
  }
  table(view, start, end, type, state);
}

/** The boxes inside a container, each within it. */
function children(
  view: DataView,
  start: number,
  end: number,
  parent: string,
  depth: number,
  state: { boxes: number; samples: number },
): void {
  if (depth > ISOBMFF_LIMITS.depth)
    throw new Malformed(`its boxes nest more than ${ISOBMFF_LIMITS.depth} deep, more than the preflight reads`);
  let at = start;
  // fewer than 8 bytes left are not a box (QuickTime ends a udta with 4 zero bytes)
  while (end - at >= 8) {
    let size = view.getUint32(at);
    const type = fourcc(view, at + 4);
    let header = 8;
    if (size === 1) {
      if (end - at < 16) throw new Malformed(`its ${shown(type)} box in ${shown(parent)} ends inside its header`);
      size = largeSize(view, at + 8, type);
      header = 16;
    } else if (size === 0) throw new Malformed(`its ${shown(type)} box in ${shown(parent)} says it is 0 bytes`);
    if (size < header) throw new Malformed(`its ${shown(type)} box says it is ${size} bytes, less than its header`);
    if (size > end - at)
      throw new Malformed(
        `its ${shown(type)} box says it is ${size} bytes, more than the ${end - at} left in its ${shown(parent)} box`,
      );
    count(state);
    checkBox(view, at, size, header, type, depth, state);
    at += size;
  }
}

/**
 * A table box: its entry count × entry size must fit in the box (4.2's FullBox header first).
 * The tables mp4box reads by a declared count (14496-12 8.6-8.8, 8.16; QuickTime's elst).
 */
function table(view: DataView, start: number, end: number, type: string, state: { samples: number }): void {
  const bytes = end - start;
  const u32 = (at: number): number => (start + at + 4 <= end ? view.getUint32(start + at) : 0);
  const version = bytes >= 1 ? view.getUint8(start) : 0;
  const flags = bytes >= 4 ? view.getUint32(start) & 0xffffff : 0;
  let entries: number;
  let entry: number;
  let fixed: number;
  switch (type) {
    case "stts":
    case "ctts":
      [fixed, entries, entry] = [8, u32(4), 8];
      break;
    case "stsc":
      [fixed, entries, entry] = [8, u32(4), 12];
      break;
    case "stco":
    case "stss":
    case "stps":
      [fixed, entries, entry] = [8, u32(4), 4];
      break;
    case "co64":
      [fixed, entries, entry] = [8, u32(4), 8];
      break;
    case "stsd":
    case "dref":
      // entries are boxes: 8 bytes at least each
      [fixed, entries, entry] = [8, u32(4), 8];
      break;
    case "elst":
      [fixed, entries, entry] = [8, u32(4), version === 1 ? 20 : 12];
      break;
    case "stsz": {
      const sampleSize = u32(4);
      [fixed, entries, entry] = [12, u32(8), sampleSize === 0 ? 4 : 0];
      samples(state, entries, type);
      break;
    }
    case "stz2": {
      const field = bytes >= 8 ? view.getUint8(start + 7) : 0;
      [fixed, entries, entry] = [12, u32(8), field / 8];
      samples(state, entries, type);
      break;
    }
    case "trun": {
      // flags (14496-12 8.8.8): a data offset, first sample flags; then 4 bytes per field per sample
      fixed = 8 + (flags & 0x1 ? 4 : 0) + (flags & 0x4 ? 4 : 0);
      entries = u32(4);
      entry = 4 * [0x100, 0x200, 0x400, 0x800].filter((f) => flags & f).length;
      samples(state, entries, type);
      break;
    }
    case "sbgp":
      [fixed, entries, entry] = version === 1 ? [16, u32(12), 8] : [12, u32(8), 8];
      break;
    case "sidx": {
      fixed = version === 0 ? 32 : 40;
      entries = bytes >= fixed ? view.getUint16(start + fixed - 2) : 0;
      entry = 12;
      break;
    }
    case "saio":
      [fixed, entries, entry] = [flags & 1 ? 16 : 8, u32(flags & 1 ? 12 : 4), version === 0 ? 4 : 8];
      break;
    case "saiz":
      [fixed, entries, entry] = [
        flags & 1 ? 17 : 9,
        u32(flags & 1 ? 13 : 5),
        bytes >= 9 && view.getUint8(start + (flags & 1 ? 12 : 4)) === 0 ? 1 : 0,
      ];
      break;
    case "tfra": {
      const sizes = u32(8);
      const fieldBytes = ((sizes >> 4) & 3) + ((sizes >> 2) & 3) + (sizes & 3) + 3;
      [fixed, entries, entry] = [16, u32(12), (version === 1 ? 16 : 8) + fieldBytes];
      break;
    }
    default:
      return;
  }
  if (bytes < fixed) throw new Malformed(`its ${shown(type)} box is ${bytes + 8} bytes, too short for its own fields`);
  if (entries * entry > bytes - fixed)
    throw new Malformed(`its ${shown(type)} box lists ${entries} entries of ${entry} bytes in ${bytes - fixed} bytes`);
}

/** Samples the tables declare, in all: mp4box keeps an object for each. */
function samples(state: { samples: number }, declared: number, type: string): void {
  state.samples += declared;
  if (state.samples > ISOBMFF_LIMITS.samples)
    throw new Malformed(
      `its ${type} box declares ${declared} samples; the preflight reads at most ${ISOBMFF_LIMITS.samples} in a file`,
    );
}
