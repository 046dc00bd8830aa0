/**
 * bin/vsk.mjs, the installed `vsk` command, as users run it: a reader that goes away early
 * (`vsk … | head -1`) ends it quietly, and in a development clone it rebuilds when a source is
 * newer than the build (and says so) — but never in an installed package, which has no src/.
 */
import { spawn, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, ROOT, tempDir } from "./run.js";

/** Lint output far larger than a pipe's buffer: 4,000 invalid payloads, one finding each at least. */
function bigLintInput(dir: string): string {
  const line = readFileSync(join(ROOT, "test/fixtures/lint/mixed.ndjson"), "utf8").split("\n")[1]!;
  const file = join(dir, "many.ndjson");
  writeFileSync(file, `${line}\n`.repeat(4000));
  return file;
}

describe("a reader that closes the pipe early (`vsk … | head -1`)", () => {
  it("ends bin/vsk.mjs quietly, and still fails when what it had shown was invalid (pipefail)", async () => {
    expect(CLI).toBe(join(ROOT, "bin/vsk.mjs")); // the CLI tests run the command users run
    const dir = tempDir();
    const file = bigLintInput(dir);
    // pretty, json and sarif write as they go: the pipe closes long before the run ends
    for (const format of ["pretty", "json", "sarif"]) {
      const child = spawn(process.execPath, [CLI, "lint", file, "--format", format], {
        cwd: dir,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stderr = "";
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
      // like `head -1`: read the first chunk, then close the read end of the pipe
      child.stdout.once("data", () => child.stdout.destroy());
      const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
      expect({ format, stderr }).toEqual({ format, stderr: "" }); // no EPIPE stack trace, no word at all
      // every payload is invalid: `set -o pipefail; vsk lint … | head` must fail (it exited 0)
      expect({ format, code }).toEqual({ format, code: 1 });
    }
  });
});

/** A development clone in miniature: bin/ as it is, src/ and a "build" that writes a tiny CLI. */
function miniClone(options: { src: boolean }): string {
  const dir = tempDir("vsk-bin-");
  cpSync(join(ROOT, "bin"), join(dir, "bin"), { recursive: true });
  const cli = "export async function runAsProgram(argv) { process.stdout.write('ran ' + argv.join(' ') + '\\n'); }";
  const build = [
    "const fs = require('node:fs');",
    "fs.mkdirSync('dist/cli', { recursive: true });",
    `fs.writeFileSync('dist/cli/vsk.js', ${JSON.stringify(cli)});`,
    "fs.appendFileSync('builds.log', 'built\\n');",
  ].join(" ");
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({
      name: "mini",
      type: "module",
      scripts: { build: `node -e ${JSON.stringify(build)} && node bin/build-check.mjs --stamp` },
    }),
  );
  if (options.src) {
    writeFileSync(join(dir, "tsconfig.build.json"), "{}");
    mkdirSync(join(dir, "src"));
    writeFileSync(join(dir, "src/a.ts"), "export const a = 1;\n");
  } else {
    mkdirSync(join(dir, "dist/cli"), { recursive: true });
    writeFileSync(join(dir, "dist/cli/vsk.js"), cli);
  }
  return dir;
}

function runBin(dir: string, args: string[]) {
  const run = spawnSync(process.execPath, [join(dir, "bin/vsk.mjs"), ...args], { cwd: dir, encoding: "utf8" });
  const builds = (() => {
    try {
      return readFileSync(join(dir, "builds.log"), "utf8").split("\n").filter(Boolean).length;
    } catch {
      return 0;
    }
  })();
  return { code: run.status, stdout: run.stdout, stderr: run.stderr, builds };
}

describe("bin/vsk.mjs keeps a development clone's build current", () => {
  it("builds a fresh clone, rebuilds after a source edit (saying so on stderr), and not when current", () => {
    const dir = miniClone({ src: true });
    const first = runBin(dir, ["x"]);
    expect(first).toMatchObject({ code: 0, stdout: "ran x\n", builds: 1 });
    expect(first.stderr).toContain("no build yet");

    expect(runBin(dir, ["y"])).toEqual({ code: 0, stdout: "ran y\n", stderr: "", builds: 1 });

    // an edit: a source newer than the build, with other bytes
    writeFileSync(join(dir, "src/a.ts"), "export const a = 2;\n");
    const future = new Date(Date.now() + 5_000);
    utimesSync(join(dir, "src/a.ts"), future, future);
    const edited = runBin(dir, ["z"]);
    expect(edited).toMatchObject({ code: 0, stdout: "ran z\n", builds: 2 });
    expect(edited.stderr).toMatch(/^vsk: src\/a\.ts changed since the last build: running `npm run build` first$/m);

    // newer but the same bytes (e.g. `vsk generate` rewriting a file as it was): no rebuild
    const later = new Date(Date.now() + 10_000);
    utimesSync(join(dir, "src/a.ts"), later, later);
    expect(runBin(dir, ["w"])).toEqual({ code: 0, stdout: "ran w\n", stderr: "", builds: 2 });
  });

  it("never builds in an installed package (no src/), whatever the times", () => {
    const dir = miniClone({ src: false });
    expect(runBin(dir, ["x"])).toEqual({ code: 0, stdout: "ran x\n", stderr: "", builds: 0 });
  });
});
