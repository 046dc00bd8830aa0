/**
 * Byte counts as every command words them (src/words/bytes.ts): an amount rounded to one decimal
 * at most, a limit exactly, so that a message never shows a limit the user did not set.
 */
import { describe, expect, it } from "vitest";
import { byteSize, limitSize } from "../../src/words/index.js";

describe("byteSize: an amount read or found", () => {
  it.each([
    [0, "0 B"],
    [138, "138 B"],
    [1023, "1023 B"],
    [1024, "1 KiB"],
    [1536, "1.5 KiB"],
    [600 * 1024 * 1024, "600 MiB"],
    [1.3 * 1024 * 1024, "1.3 MiB"],
    [5 * 1024 ** 4 * 2048, "10240 TiB"],
  ])("%d bytes is %s", (n, text) => expect(byteSize(n)).toBe(text));
});

describe("limitSize: a limit, exactly", () => {
  it.each([
    [8 * 1024 * 1024, "8 MiB"],
    [64 * 1024, "64 KiB"],
    [1000, "1000 bytes"],
    [1024 * 1024 + 1, "1048577 bytes"],
    [1536 * 1024, "1536 KiB"],
    [1024 ** 3, "1 GiB"],
  ])("%d bytes is %s", (n, text) => expect(limitSize(n)).toBe(text));
});
