/**
 * Issue 38.1: a config vsk *finds* is used only when the current user or root owns it, neither
 * group nor others may write it, and its directory is not writable by everyone; the search stops
 * at the home directory and at a filesystem boundary; lint imports no validator from a directory
 * that fails the same test. `--config FILE` is trusted as named; `VSK_TRUSTED_PATHS` names more.
 * Through the real CLI where a user would meet it (a planted validator never runs), the finer
 * cases through `loadConfig`. The tests run as root, so files of "another user" are chowned to 65534.
 */
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, onExampleModels } from "../../src/config/index.js";
import { usageError, vsk } from "../cli/run.js";

const posix = process.platform !== "win32" && process.getuid?.() === 0;
const CONFIG = JSON.stringify({ models: [{ id: "example/model-a", alias: "modelA" }], outDir: "planted" });

let dir: string;
beforeAll(() => (dir = mkdtempSync(join(tmpdir(), "vsk-trust-"))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A generated directory whose one validator writes `marker` when imported: code that must not run. */
function plant(generated: string, marker: string): void {
  mkdirSync(generated, { recursive: true });
  const entry = {
    key: "example/model-a/text-to-video",
    model: "example/model-a",
    endpoint: "text-to-video",
    path: "/v1/queue/example/model-a/text-to-video",
    validator: "v.mjs",
    snapshotSha256: "0",
  };
  writeFileSync(join(generated, "endpoints.json"), JSON.stringify({ endpoints: [entry] }));
  writeFileSync(
    join(generated, "v.mjs"),
    `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "ran");\nexport const validate = () => [];\n`,
  );
}

function project(name: string): { root: string; marker: string } {
  const root = join(dir, name);
  const marker = join(root, "ran");
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, "vsk.config.json"), CONFIG);
  plant(join(root, "planted"), marker);
  return { root, marker };
}

/** What loadConfig makes of `cwd`: the config file used, or the refusal. */
function found(cwd: string, env: Record<string, string> = {}): string {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  let notice = "";
  onExampleModels((m) => (notice = m));
  try {
    return loadConfig(cwd).file ?? `example models: ${notice}`;
  } catch (error) {
    return `refused: ${(error as Error).message}`;
  } finally {
    onExampleModels(undefined);
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  }
}

describe.runIf(posix)("a config vsk finds", () => {
  it("in a directory everyone may write (sticky, like /tmp): refused in one line, the planted validator never runs", () => {
    const { root, marker } = project("shared");
    chmodSync(root, 0o1777);
    const sub = join(root, "work");
    mkdirSync(sub);
    writeFileSync(join(sub, "bad.json"), JSON.stringify({ prompt: 1 }));
    const line = usageError(vsk(["lint", "bad.json", "--model", "modelA", "--endpoint", "text-to-video"], sub));
    const file = join(root, "vsk.config.json");
    expect(line).toBe(
      `vsk: found ${file} but did not use it: its directory ${root} is writable by everyone (mode 1777); ` +
        `a config vsk finds must be owned by you or root, writable by no one else, in a directory not everyone may write; ` +
        `pass --config ${file} to use it anyway, or list it in VSK_TRUSTED_PATHS (paths separated by ":")`,
    );
    expect(existsSync(marker)).toBe(false);
  });

  it("owned by another user, or writable by group or others: refused; VSK_TRUSTED_PATHS or --config trusts it", () => {
    const { root } = project("other");
    const file = join(root, "vsk.config.json");
    chownSync(file, 65534, 65534);
    expect(found(root)).toMatch(
      new RegExp(
        `^refused: found ${file} but did not use it: it is owned by another user \\(uid 65534; you are uid 0\\); `,
      ),
    );
    expect(found(root, { VSK_TRUSTED_PATHS: `/nowhere:${file}` })).toBe(file);
    expect(found(root, { VSK_TRUSTED_PATHS: root })).toBe(file); // a directory trusts what is under it
    expect(loadConfig(root, file).file).toBe(file); // --config: trusted as named
    chownSync(file, 0, 0);
    chmodSync(file, 0o664);
    expect(found(root)).toMatch(/^refused: .* its group may write it \(mode 664\);/);
    chmodSync(file, 0o646);
    expect(found(root)).toMatch(/^refused: .* others may write it \(mode 646\);/);
    chmodSync(file, 0o644);
    expect(found(root)).toBe(file);
    // the "vsk" key of a package.json is a config too
    rmSync(file);
    const manifest = join(root, "package.json");
    writeFileSync(manifest, JSON.stringify({ name: "p", vsk: { models: ["example/model-a"] } }));
    chmodSync(manifest, 0o666);
    expect(found(root)).toMatch(new RegExp(`^refused: found ${manifest} but did not use it: others may write it`));
  });

  it("the search stops at the home directory", () => {
    const above = join(dir, "above");
    const home = join(above, "home");
    mkdirSync(join(home, "project"), { recursive: true });
    writeFileSync(join(above, "vsk.config.json"), CONFIG);
    expect(found(join(home, "project"))).toBe(join(above, "vsk.config.json")); // with home elsewhere, it is found
    expect(found(join(home, "project"), { HOME: home })).toContain(`or above, up to ${home}: using the built-in`);
  });

  it.runIf(existsSync("/dev/shm"))("…and at a filesystem boundary (/dev/shm is a mount of its own)", () => {
    const shm = mkdtempSync("/dev/shm/vsk-trust-");
    try {
      mkdirSync(join(shm, "project"));
      expect(found(join(shm, "project"), { HOME: "/nonexistent" })).toContain(
        `or above, up to /dev/shm: using the built-in`,
      );
    } finally {
      rmSync(shm, { recursive: true, force: true });
    }
  });
});

describe.runIf(posix)("the validators lint imports", () => {
  it("from a generated directory another user owns: refused even with --config, unless VSK_TRUSTED_PATHS names it", () => {
    const { root, marker } = project("outdir");
    const planted = join(root, "planted");
    chownSync(planted, 65534, 65534);
    writeFileSync(join(root, "bad.json"), JSON.stringify({ prompt: 1 }));
    const args = [
      "lint",
      "bad.json",
      "--config",
      "vsk.config.json",
      "--model",
      "modelA",
      "--endpoint",
      "text-to-video",
    ];
    const line = usageError(vsk(args, root));
    expect(line).toBe(
      `vsk: lint does not import the validators in ${planted}: it is owned by another user (uid 65534; you are uid 0); ` +
        `lint runs only code owned by you or root that no one else may write, in a directory not everyone may write; ` +
        `list it in VSK_TRUSTED_PATHS (paths separated by ":"), or run \`vsk generate\` into a directory of your own`,
    );
    expect(existsSync(marker)).toBe(false);
    // a validator file others may write, in a directory that is fine: refused too
    chownSync(planted, 0, 0);
    chmodSync(join(planted, "v.mjs"), 0o666);
    expect(usageError(vsk(args, root))).toContain(`the validators in ${join(planted, "v.mjs")}: others may write it`);
    expect(existsSync(marker)).toBe(false);
    // named as trusted: used
    expect(vsk(args, root, { VSK_TRUSTED_PATHS: planted }).code).toBe(0);
    expect(existsSync(marker)).toBe(true);
  });
});
