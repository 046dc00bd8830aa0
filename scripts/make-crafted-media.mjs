// Writes test/fixtures/preflight/crafted/: hostile media files the preflight must survive (issue 37
// item 1), built byte by byte here (no ffmpeg, no third-party material). Tests only read the
// committed files; run `node scripts/make-crafted-media.mjs` to make them again (the output is the
// same byte for byte). Each file is a small valid movie, `tiny.mp4` (4 s, 24 fps, one video track),
// with one thing made hostile: a table that declares 2^31 entries and holds none, boxes nested
// 10,000 deep, a box whose size is 0, under 8, or past its parent; and images whose headers
// declare 100000×100000 pixels.
import { mkdirSync, writeFileSync } from "node:fs";

const out = new URL("../test/fixtures/preflight/crafted/", import.meta.url);
mkdirSync(out, { recursive: true });

const u8 = (...n) => Buffer.from(n);
const u16 = (n) => Buffer.from([(n >>> 8) & 255, n & 255]);
const u32 = (n) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};
const u64 = (n) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(n));
  return b;
};
const zeros = (n) => Buffer.alloc(n);
const text = (s) => Buffer.from(s, "latin1");
/** An ISO BMFF box (ISO/IEC 14496-12 4.2): 32-bit size, four-character type, payload. */
const box = (type, ...parts) => {
  const body = Buffer.concat(parts);
  return Buffer.concat([u32(8 + body.length), text(type), body]);
};
/** A FullBox: version and 24-bit flags before the payload. */
const full = (type, version, flags, ...parts) =>
  box(type, u8(version, (flags >>> 16) & 255, (flags >>> 8) & 255, flags & 255), ...parts);
const MATRIX = Buffer.concat([
  u32(0x10000),
  u32(0),
  u32(0),
  u32(0),
  u32(0x10000),
  u32(0),
  u32(0),
  u32(0),
  u32(0x40000000),
]);

/** What each hostile variant replaces in the valid movie's sample table (undefined: the valid box). */
function movie(hostile = {}) {
  const samples = 96; // 4 s at 24 fps, timescale 24
  const stts = hostile.stts ?? full("stts", 0, 0, u32(1), u32(samples), u32(1));
  const stsc = hostile.stsc ?? full("stsc", 0, 0, u32(1), u32(1), u32(samples), u32(1));
  const stsz = hostile.stsz ?? full("stsz", 0, 0, u32(8), u32(samples));
  const stco = hostile.stco ?? full("stco", 0, 0, u32(1), u32(0));
  const avc1 = box(
    "avc1",
    zeros(6),
    u16(1), // data_reference_index
    zeros(16),
    u16(320),
    u16(240),
    u32(0x480000),
    u32(0x480000),
    zeros(4),
    u16(1),
    zeros(32),
    u16(0x18),
    u16(0xffff),
  );
  const stbl = box("stbl", full("stsd", 0, 0, u32(1), avc1), stts, stsc, stsz, stco, ...(hostile.stblExtra ?? []));
  const minf = box(
    "minf",
    full("vmhd", 0, 1, zeros(8)),
    box("dinf", full("dref", 0, 0, u32(1), full("url ", 0, 1))),
    stbl,
  );
  const mdia = box(
    "mdia",
    full("mdhd", 0, 0, u32(0), u32(0), u32(24), u32(samples), u16(0x55c4), u16(0)),
    full("hdlr", 0, 0, u32(0), text("vide"), zeros(12), text("crafted\0")),
    minf,
  );
  const tkhd = full(
    "tkhd",
    0,
    3,
    u32(0),
    u32(0),
    u32(1),
    u32(0),
    u32(4000),
    zeros(8),
    zeros(8),
    MATRIX,
    u32(320 << 16),
    u32(240 << 16),
  );
  const trak = box(
    "trak",
    tkhd,
    ...(hostile.edts === undefined ? [] : [hostile.edts]),
    mdia,
    ...(hostile.trakExtra ?? []),
  );
  const mvhd = full(
    "mvhd",
    0,
    0,
    u32(0),
    u32(0),
    u32(1000),
    u32(4000),
    u32(0x10000),
    u16(0x100),
    zeros(10),
    MATRIX,
    zeros(24),
    u32(2),
  );
  const ftyp = box("ftyp", text("isom"), u32(512), text("isomiso2avc1mp41"));
  const moov = hostile.moov ?? box("moov", mvhd, trak, ...(hostile.moovExtra ?? []));
  return Buffer.concat([ftyp, moov, box("mdat", zeros(samples * 8)), ...(hostile.after ?? [])]);
}

const HUGE = 2 ** 31;
/** Boxes nested `depth` deep, each holding the next: `trak` in `trak` (mp4box recurses into each). */
function nested(type, depth) {
  let inner = box("free");
  for (let i = 0; i < depth; i++) inner = Buffer.concat([u32(8 + inner.length), text(type), inner]);
  return inner;
}
/** A box header whose size field says `size`, followed by `payload` whatever it says. */
const sized = (size, type, payload = zeros(8)) => Buffer.concat([u32(size), text(type), payload]);

const files = {
  // the valid movie all the others bend
  "tiny.mp4": movie(),
  // issue 37's file: a constant sample size and 2^31 samples (mp4box fills a 2^31-entry array)
  "stsz-count.mp4": movie({ stsz: full("stsz", 0, 0, u32(8), u32(HUGE)) }),
  // a sample size table that declares 2^31 entries and holds none
  "stsz-table.mp4": movie({ stsz: full("stsz", 0, 0, u32(0), u32(HUGE)) }),
  "stts-count.mp4": movie({ stts: full("stts", 0, 0, u32(HUGE), u32(96), u32(1)) }),
  "stsc-count.mp4": movie({ stsc: full("stsc", 0, 0, u32(HUGE), u32(1), u32(96), u32(1)) }),
  "stco-count.mp4": movie({ stco: full("stco", 0, 0, u32(HUGE), u32(0)) }),
  "co64-count.mp4": movie({ stco: full("co64", 0, 0, u32(HUGE), u64(0)) }),
  "elst-count.mp4": movie({ edts: box("edts", full("elst", 0, 0, u32(HUGE), u32(4000), u32(0), u32(0x10000))) }),
  // 10,000 boxes each holding the next (80 KB: past the first 64 KiB read)
  "deep-nesting.mp4": movie({ moovExtra: [nested("trak", 10_000)] }),
  // a box of size 0 ("to the end of the file") inside moov, where it may not be
  "box-size-zero.mp4": movie({ stblExtra: [sized(0, "stss")] }),
  // a box of size 4: less than its own header
  "box-size-small.mp4": movie({ stblExtra: [sized(4, "stss")] }),
  // a box that claims 1 GB inside a 1 KB moov
  "box-size-over.mp4": movie({ stblExtra: [sized(0x40000000, "stss", u32(0))] }),
  // a 64-bit size (size field 1) of 2^62 on a top-level box after the mdat
  "box-size-64.mp4": movie({ after: [Buffer.concat([u32(1), text("free"), u64(2n ** 62n)])] }),
};

/** PNG (ISO/IEC 15948): the signature and an IHDR chunk declaring 100000×100000, then IEND. */
function png() {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes) => {
    let c = 0xffffffff;
    for (const b of bytes) c = crcTable[(c ^ b) & 255] ^ (c >>> 8);
    return u32((c ^ 0xffffffff) >>> 0);
  };
  const chunk = (type, data) =>
    Buffer.concat([u32(data.length), text(type), data, crc(Buffer.concat([text(type), data]))]);
  return Buffer.concat([
    u8(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a),
    chunk("IHDR", Buffer.concat([u32(100_000), u32(100_000), u8(8, 6, 0, 0, 0)])),
    chunk("IDAT", u8(0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01)),
    chunk("IEND", zeros(0)),
  ]);
}
/** WebP (RIFF, VP8X extended header): a 24-bit canvas of 100000×100000. */
function webp() {
  const le24 = (n) => u8(n & 255, (n >>> 8) & 255, (n >>> 16) & 255);
  const vp8x = Buffer.concat([text("VP8X"), u8(10, 0, 0, 0), zeros(4), le24(100_000 - 1), le24(100_000 - 1)]);
  const body = Buffer.concat([text("WEBP"), vp8x]);
  return Buffer.concat([text("RIFF"), u8(body.length & 255, (body.length >>> 8) & 255, 0, 0), body]);
}
/** JPEG: SOI, a baseline SOF0 of 65535×65535 (its 16-bit most), EOI. */
function jpeg() {
  const sof = Buffer.concat([
    u8(0xff, 0xc0),
    u16(17),
    u8(8),
    u16(0xffff),
    u16(0xffff),
    u8(3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1),
  ]);
  return Buffer.concat([u8(0xff, 0xd8), sof, u8(0xff, 0xd9)]);
}
/** GIF89a: a logical screen of 65535×65535 and no image. */
const gif = () => Buffer.concat([text("GIF89a"), u8(0xff, 0xff, 0xff, 0xff, 0, 0, 0), u8(0x3b)]);

files["image-huge.png"] = png();
files["image-huge.webp"] = webp();
files["image-huge.jpg"] = jpeg();
files["image-huge.gif"] = gif();

for (const [name, bytes] of Object.entries(files)) writeFileSync(new URL(name, out), bytes);
console.log(
  Object.entries(files)
    .map(([name, bytes]) => `${String(bytes.length).padStart(8)} ${name}`)
    .join("\n"),
);
