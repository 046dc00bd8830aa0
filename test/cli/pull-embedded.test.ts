/**
 * A project whose config names no models and has no schemas-cache/ of its own reads the package's
 * embedded snapshot; `pull` and `drift --update` must then write the project's own schemas-cache/,
 * never into the installed package.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const cli = join(root, "bin/vsk.mjs");
const mirror = join(root, "test/fixtures/pull/mirror");
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

/** sha256 of every file under the package's embedded snapshot, to prove nothing there changed. */
function embeddedHashes(): string {
  const hash = createHash("sha256");
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else hash.update(full).update(readFileSync(full));
    }
  };
  walk(join(root, "schemas-cache"));
  return hash.digest("hex");
}

describe("the embedded snapshot is read, never written", () => {
  it.each([["pull"], ["drift", "--update"]])("%s writes ./schemas-cache of the project", (...command) => {
    const dir = mkdtempSync(join(tmpdir(), "vsk-embedded-"));
    dirs.push(dir);
    writeFileSync(join(dir, "vsk.config.json"), JSON.stringify({ schemaUrl: mirror }));
    const before = embeddedHashes();
    const run = spawnSync(process.execPath, [cli, ...command], { cwd: dir, encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    expect(existsSync(join(dir, "schemas-cache/example/model-a/latest.json"))).toBe(true);
    expect(existsSync(join(dir, "schemas-cache/manifest.json"))).toBe(true);
    expect(embeddedHashes()).toBe(before);
  });
});
