/**
 * Issue 23.13: the lint validator cache holds code lint imports. With no node_modules above the
 * generated directory it lives in the user's own cache directory ($XDG_CACHE_HOME, else
 * ~/.cache), created 0700; a cache directory or file that others may write (or that another user
 * owns) is refused with a warning, and lint compiles into a private directory instead: a
 * validator planted there never runs. Through the installed command (bin/vsk.mjs), on a copy of
 * the repository's TypeScript generated/ in a temp directory (no node_modules above it).
 */
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { vskInProcess, withoutExampleNotice } from "../cli/run.js";

const ROOT = resolve(import.meta.dirname, "../..");
const VSK = join(ROOT, "bin/vsk.mjs");
const posix = process.platform !== "win32";

let dir: string;
let project: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "vsk-lint-cache-"));
  project = join(dir, "project");
  mkdirSync(project);
  cpSync(join(ROOT, "generated"), join(project, "generated"), { recursive: true });
  // an invalid payload: a validator that runs reports it
  writeFileSync(join(project, "bad.json"), JSON.stringify({ prompt: 1 }));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function lint(env: Record<string, string | undefined>) {
  const run = spawnSync(
    process.execPath,
    [VSK, "lint", "bad.json", "--model", "modelA", "--endpoint", "text-to-video", "--format", "json"],
    { cwd: project, encoding: "utf8", env: { ...process.env, XDG_CACHE_HOME: undefined, ...env } },
  );
  expect(run.stderr).not.toMatch(/^\s+at /m);
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

describe.runIf(posix)("the lint cache with no node_modules above generated/", () => {
  it("lives under $XDG_CACHE_HOME/video-schema-kit/lint, created 0700, and is reused", { timeout: 120_000 }, () => {
    const xdg = join(dir, "xdg");
    const first = lint({ XDG_CACHE_HOME: xdg });
    expect(first.code).toBe(1);
    expect(first.stderr).toContain(`into ${join(xdg, "video-schema-kit", "lint")}/`);
    const lintDir = join(xdg, "video-schema-kit", "lint");
    const [hashDir] = readdirSync(lintDir);
    for (const d of [join(xdg, "video-schema-kit"), lintDir, join(lintDir, hashDir!)]) expect(mode(d)).toBe("700");
    const second = lint({ XDG_CACHE_HOME: xdg });
    expect(second.code).toBe(1);
    expect(withoutExampleNotice(second.stderr)).toBe("");
  });

  it("lives under ~/.cache without $XDG_CACHE_HOME (and a relative one is ignored)", { timeout: 120_000 }, () => {
    const home = join(dir, "home");
    mkdirSync(home);
    const run = lint({ HOME: home, XDG_CACHE_HOME: "relative/cache" });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`into ${join(home, ".cache", "video-schema-kit", "lint")}/`);
    expect(existsSync(join(project, "relative"))).toBe(false);
  });

  it(
    "refuses a cache that others may write: a planted validator never runs, lint warns and compiles elsewhere",
    { timeout: 180_000 },
    async () => {
      const xdg = join(dir, "planted");
      // fills the cache, in this process (issue 42.4): the run under test is the child process below
      const filled = await vskInProcess(
        ["lint", "bad.json", "--model", "modelA", "--endpoint", "text-to-video", "--format", "json"],
        project,
        { XDG_CACHE_HOME: xdg },
      );
      expect(filled.code, filled.stderr).toBe(1);
      const hashDir = join(xdg, "video-schema-kit", "lint", readdirSync(join(xdg, "video-schema-kit", "lint"))[0]!);
      const marker = join(dir, "planted-ran");
      const planted = `import { writeFileSync } from "node:fs"; writeFileSync(${JSON.stringify(marker)}, "ran"); export const validate = () => [];\n`;
      const validators = readdirSync(join(hashDir, "example", "model-a")).filter((f) => f.endsWith(".mjs"));
      expect(validators.length).toBeGreaterThan(0);
      for (const f of validators) writeFileSync(join(hashDir, "example", "model-a", f), planted);

      // a planted file that others may write, in directories that are the user's own
      for (const f of validators) chmodSync(join(hashDir, "example", "model-a", f), 0o666);
      const file = lint({ XDG_CACHE_HOME: xdg });
      expect(file.code).toBe(1);
      expect(JSON.parse(file.stdout).summary).toMatchObject({ requests: 1, invalid: 1 });
      expect(file.stderr).toMatch(
        /^vsk: warning: the lint cache .* is not used: .* is writable by others \(mode 666\); compiled into a private directory for this run instead/m,
      );
      expect(existsSync(marker)).toBe(false);

      // a cache directory that others may write
      for (const f of validators) chmodSync(join(hashDir, "example", "model-a", f), 0o600);
      chmodSync(join(xdg, "video-schema-kit", "lint"), 0o777);
      const directory = lint({ XDG_CACHE_HOME: xdg });
      expect(directory.code).toBe(1);
      expect(directory.stderr).toContain(`${join(xdg, "video-schema-kit", "lint")} is writable by others (mode 777)`);
      expect(existsSync(marker)).toBe(false);
    },
  );
});
