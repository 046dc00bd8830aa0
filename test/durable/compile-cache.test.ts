/**
 * Node's compile cache for vsk's own start (src/durable/cache.ts `useCompileCache`, called by the
 * program before a command's modules load): in vsk's trusted `v8` cache, never in a folder others
 * may write (compiled code is code we run), and not at all where the user chose otherwise or Node
 * has no such cache (20). `enable` stands for `module.enableCompileCache`, which Node 20, the
 * version this suite runs on, does not have; on Node 22 it was checked by hand (docs/lint.md).
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { useCompileCache } from "../../src/durable/index.js";

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
