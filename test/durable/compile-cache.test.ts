/**
 * Node's compile cache for vsk's own start (src/durable/cache.ts `useCompileCache`, called by the
 * program before a command's modules load), and the code cache of the script `vsk lint` runs from on
 * Node 20 (`runCachedScript`, cli/program.ts): in vsk's trusted `v8` cache, never in a folder others
 * may write (compiled code is code we run), and not at all where the user chose otherwise or Node
 * has no such cache (20). `enable` stands for `module.enableCompileCache`, which Node 20, the
 * version this suite runs on, does not have; on Node 22 it was checked by hand (docs/lint.md).
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { compileCacheWarning, runCachedScript, useCompileCache } from "../../src/durable/index.js";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A package installed in a project: `<project>/node_modules/video-schema-kit/dist/cli`. */
function installed(): { project: string; cli: string } {
  const project = mkdtempSync(join(tmpdir(), "vsk-compile-cache-"));
  made.push(project);
  const cli = join(project, "node_modules", "video-schema-kit", "dist", "cli");
  mkdirSync(cli, { recursive: true });
  return { project, cli };
}

const recorder = (status = 1, message?: string) => {
  const calls: string[] = [];
  const enable = (dir: string) => {
    calls.push(dir);
    return message === undefined ? { status } : { status, message };
  };
  return { calls, enable };
};

describe("vsk's compile cache", () => {
  it("is the project's node_modules/.cache/video-schema-kit/v8, created 0700 and given to Node", () => {
    const { project, cli } = installed();
    const { calls, enable } = recorder();
    const dir = join(project, "node_modules", ".cache", "video-schema-kit", "v8");
    expect(useCompileCache(cli, {}, enable)).toEqual({ dir });
    expect(calls).toEqual([dir]);
    if (process.platform !== "win32") expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it("is not used in a folder others may write: nothing given to Node, the reason returned", () => {
    if (process.getuid === undefined) return; // Windows: no owner test, as for every cache of ours
    const { project, cli } = installed();
    const shared = join(project, "node_modules", ".cache", "video-schema-kit");
    mkdirSync(join(shared, "v8"), { recursive: true, mode: 0o700 });
    chmodSync(shared, 0o777);
    const { calls, enable } = recorder();
    expect(useCompileCache(cli, {}, enable)).toEqual({
      dir: join(shared, "v8"),
      refused: `${shared} is writable by others (mode 777)`,
    });
    expect(calls).toEqual([]);
  });

  it("says why when Node could not enable it", () => {
    const { cli } = installed();
    const { enable } = recorder(0, "Cannot create cache directory: EACCES");
    expect(useCompileCache(cli, {}, enable)?.refused).toBe("Cannot create cache directory: EACCES");
  });

  it("does nothing where Node has none, or the user chose: NODE_COMPILE_CACHE, NODE_DISABLE_COMPILE_CACHE", () => {
    const { project, cli } = installed();
    const { calls, enable } = recorder();
    expect(useCompileCache(cli, {}, null)).toBeUndefined();
    expect(useCompileCache(cli, { NODE_COMPILE_CACHE: join(project, "theirs") }, enable)).toBeUndefined();
    expect(useCompileCache(cli, { NODE_DISABLE_COMPILE_CACHE: "1" }, enable)).toBeUndefined();
    expect(calls).toEqual([]);
    expect(existsSync(join(project, "node_modules", ".cache"))).toBe(false);
  });
});

describe("the code cache of lint's script (Node 20: runCachedScript)", () => {
  /** A script bundle as scripts/bundle.mjs writes dist/cli/lint-script.js: one function, import() handed in. */
  const body = (answer: number) =>
    `(function (exports, require, module, __vsk_import_meta, __vsk_import) {
      "use strict";
      exports.answer = ${answer};
      exports.url = __vsk_import_meta.url;
      exports.load = (specifier) => __vsk_import(specifier);
      exports.hash = () => require("node:crypto").createHash("sha256").update("x").digest("hex").slice(0, 8);
    })`;
  const entries = (dir: string) => readdirSync(dir).filter((f) => f.endsWith(".bin"));

  it("keeps the script's compiled code 0600 in the 0700 v8 cache; the next run takes it, import() and all", async () => {
    const { project, cli } = installed();
    const file = join(cli, "lint-script.js");
    writeFileSync(file, body(1));
    const dir = join(project, "node_modules", ".cache", "video-schema-kit", "v8");
    const first = runCachedScript(file, cli, {});
    expect({ answer: first.exports.answer, cache: first.cache, fromCache: first.fromCache }).toEqual({
      answer: 1,
      cache: { dir },
      fromCache: false,
    });
    first.keep();
    const [entry] = entries(dir);
    expect(entries(dir)).toHaveLength(1);
    if (process.platform !== "win32") {
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      expect(statSync(join(dir, entry!)).mode & 0o777).toBe(0o600);
    }
    const second = runCachedScript(file, cli, {});
    expect(second.fromCache).toBe(true);
    expect(second.exports.url).toBe(pathToFileURL(file).href);
    // V8 drops a cached script's own import(): the one handed in still loads
    expect(
      ((await (second.exports.load as (s: string) => Promise<{ sep: string }>)("node:path")) as { sep: string }).sep,
    ).toBe("/");
    // node:crypto loads at its first use, and is node:crypto then
    expect((second.exports.hash as () => string)()).toBe("2d711642");
    second.keep();
    expect(entries(dir)).toEqual([entry]);
  });

  it("a damaged entry is not given to V8 (which would crash on it): the script compiles, the entry is written again", () => {
    const { project, cli } = installed();
    const file = join(cli, "lint-script.js");
    const dir = join(project, "node_modules", ".cache", "video-schema-kit", "v8");
    writeFileSync(file, body(5));
    runCachedScript(file, cli, {}).keep();
    const entry = join(dir, entries(dir)[0]!);
    const bytes = readFileSync(entry);
    for (let i = Math.floor(bytes.length / 2); i < bytes.length - 8; i++) bytes[i]! ^= 0x5a;
    writeFileSync(entry, bytes);
    const run = runCachedScript(file, cli, {});
    expect({ answer: run.exports.answer, fromCache: run.fromCache }).toEqual({ answer: 5, fromCache: false });
    run.keep();
    expect(runCachedScript(file, cli, {}).fromCache).toBe(true);
  });

  it("belongs to one build of the script: a new build compiles, and its entry replaces the old one", () => {
    const { project, cli } = installed();
    const file = join(cli, "lint-script.js");
    const dir = join(project, "node_modules", ".cache", "video-schema-kit", "v8");
    writeFileSync(file, body(1));
    runCachedScript(file, cli, {}).keep();
    const [old] = entries(dir);
    writeFileSync(file, body(22)); // a rebuild
    const rebuilt = runCachedScript(file, cli, {});
    expect({ answer: rebuilt.exports.answer, fromCache: rebuilt.fromCache }).toEqual({ answer: 22, fromCache: false });
    rebuilt.keep();
    expect(entries(dir)).toHaveLength(1);
    expect(entries(dir)).not.toContain(old);
    expect(runCachedScript(file, cli, {}).fromCache).toBe(true);
  });

  it("is not used, nor written, in a folder others may write: the script runs, the reason is said", () => {
    if (process.getuid === undefined) return; // Windows: no owner test, as for every cache of ours
    const { project, cli } = installed();
    const file = join(cli, "lint-script.js");
    writeFileSync(file, body(1));
    const shared = join(project, "node_modules", ".cache", "video-schema-kit");
    runCachedScript(file, cli, {}).keep();
    chmodSync(join(shared, "v8"), 0o777);
    const run = runCachedScript(file, cli, {});
    expect({ answer: run.exports.answer, fromCache: run.fromCache, cache: run.cache }).toEqual({
      answer: 1,
      fromCache: false,
      cache: { dir: join(shared, "v8"), refused: `${join(shared, "v8")} is writable by others (mode 777)` },
    });
    expect(compileCacheWarning(run.cache!.dir, run.cache!.refused!)).toBe(
      `not using the compile cache ${join(shared, "v8")}: ${join(shared, "v8")} is writable by others (mode 777) (give the folder back to your user with mode 0700, or set NODE_DISABLE_COMPILE_CACHE=1)`,
    );
  });

  it("is off with NODE_DISABLE_COMPILE_CACHE: the script runs, nothing is written", () => {
    const { project, cli } = installed();
    const file = join(cli, "lint-script.js");
    writeFileSync(file, body(3));
    const run = runCachedScript(file, cli, { NODE_DISABLE_COMPILE_CACHE: "1" });
    expect({ answer: run.exports.answer, cache: run.cache }).toEqual({ answer: 3, cache: undefined });
    run.keep();
    expect(existsSync(join(project, "node_modules", ".cache"))).toBe(false);
  });
});
