/**
 * generate's format cache (src/emit/format.ts): a module generated before gets its layout back
 * from `<cache>/video-schema-kit/format` without prettier, byte for byte; an entry that does not
 * hold the hash of its text is formatted afresh; a cache others may write is not used, said on
 * stderr, and what it holds never reaches generated/. The first run is the installed command
 * (bin/vsk.mjs); the runs after it repeat it in process (test/cli/run.ts), with $XDG_CACHE_HOME
 * in a temp directory (no node_modules above the project).
 */
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { tempDir, vsk, vskInProcess, withoutExampleNotice } from "../cli/run.js";

const posix = process.platform !== "win32";
let project: string;
let xdg: string;
let cache: string;

/** Every generated file's text, by path. */
function tree(dir: string): Map<string, string> {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  return new Map(
    files.map((e) => [
      join(e.parentPath, e.name).slice(dir.length + 1),
      readFileSync(join(e.parentPath, e.name), "utf8"),
    ]),
  );
}
const layoutLine = (stdout: string) => stdout.split("\n").find((l) => l.startsWith("Layout: "));
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

let first: ReturnType<typeof vsk>;
let firstTree: Map<string, string>;
beforeAll(() => {
  const dir = tempDir("vsk-format-cache-");
  project = join(dir, "project");
  mkdirSync(project);
  xdg = join(dir, "xdg");
  cache = join(xdg, "video-schema-kit", "format");
  first = vsk(["generate"], project, { XDG_CACHE_HOME: xdg });
  firstTree = tree(join(project, "generated"));
}, 120_000);

describe.runIf(posix)("vsk generate's format cache", () => {
  it("the first run formats every module with prettier and keeps each layout, 0600 in 0700 directories", () => {
    expect(first.code).toBe(0);
    expect(withoutExampleNotice(first.stderr)).toBe("");
    expect(layoutLine(first.stdout)).toBe(
      `Layout: 0 modules from the format cache (${cache}), 16 formatted by prettier.`,
    );
    const entries = readdirSync(cache);
    expect(entries).toHaveLength(16);
    expect((statSync(cache).mode & 0o777).toString(8)).toBe("700");
    for (const entry of entries) expect((statSync(join(cache, entry)).mode & 0o777).toString(8)).toBe("600");
  });

  it("a second run takes every layout from the cache and writes the same bytes", async () => {
    const again = await vskInProcess(["generate"], project, { XDG_CACHE_HOME: xdg });
    expect(again.code).toBe(0);
    expect(layoutLine(again.stdout)).toBe(
      `Layout: 16 modules from the format cache (${cache}), 0 formatted by prettier.`,
    );
    expect(tree(join(project, "generated"))).toEqual(firstTree);
  });

  it("an entry whose text no longer matches its hash is formatted afresh (and written again)", async () => {
    const [entry] = readdirSync(cache);
    const file = join(cache, entry!);
    const [hash] = readFileSync(file, "utf8").split("\n", 1);
    writeFileSync(file, `${hash}\nprocess.exit(7);\n`, { mode: 0o600 });
    const run = await vskInProcess(["generate"], project, { XDG_CACHE_HOME: xdg });
    expect(layoutLine(run.stdout)).toBe(
      `Layout: 15 modules from the format cache (${cache}), 1 formatted by prettier.`,
    );
    expect(tree(join(project, "generated"))).toEqual(firstTree);
    const rewritten = readFileSync(file, "utf8");
    expect(rewritten.slice(0, 64)).toBe(sha256(rewritten.slice(65)));
  });

  it("a cache others may write is not used, said on stderr; an entry planted there never reaches generated/", async () => {
    // a planted entry with a correct hash line: only the cache's trust keeps it out
    for (const entry of readdirSync(cache)) {
      const text = "process.exit(7);\n";
      writeFileSync(join(cache, entry), `${sha256(text)}\n${text}`, { mode: 0o600 });
    }
    chmodSync(cache, 0o777);
    try {
      const run = await vskInProcess(["generate"], project, { XDG_CACHE_HOME: xdg });
      expect(run.code).toBe(0);
      expect(withoutExampleNotice(run.stderr)).toBe(
        `vsk: the format cache ${cache} is not used: ${cache} is writable by others (mode 777); prettier formatted every module (remove the cache, or give it back to your user with mode 0700)\n`,
      );
      expect(layoutLine(run.stdout)).toBeUndefined();
      expect(tree(join(project, "generated"))).toEqual(firstTree);
    } finally {
      chmodSync(cache, 0o700);
    }
  });
});
