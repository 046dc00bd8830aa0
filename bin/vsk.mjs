#!/usr/bin/env node
// The `vsk` command. The package ships its build (dist/) and no sources: it runs it as it is,
// the bundled CLI (dist/cli/vsk.js, scripts/bundle.mjs: a command loads one file, not ~60).
// In a development clone (src/ and tsconfig.build.json beside this bin/) it first makes sure the
// build is current: none yet (a fresh clone; no install script makes one, a consumer's install
// must run nothing) or a source changed since the last build (bin/build-check.mjs: a stat of each
// input file, a few ms) runs `npm run build` first, says so on stderr, and goes on. Concurrent
// runs build once: the others wait for its lock.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const main = join(root, "dist/cli/vsk.js");
const development = existsSync(join(root, "src")) && existsSync(join(root, "tsconfig.build.json"));
const { staleReason } = development ? await import("./build-check.mjs") : { staleReason: () => undefined };

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

function build(reason) {
  const lock = join(root, "dist/.build-lock");
  mkdirSync(join(root, "dist"), { recursive: true });
  try {
    mkdirSync(lock);
  } catch {
    // another vsk is building: wait for it (a lock older than 10 minutes is a crashed build's)
    process.stderr.write(`vsk: ${reason}: waiting for the build another vsk runs\n`);
    for (;;) {
      let age;
      try {
        age = Date.now() - statSync(lock).mtimeMs;
      } catch {
        return staleReason() === undefined ? undefined : build(reason);
      }
      if (age > 600_000) {
        rmSync(lock, { recursive: true, force: true });
        return build(reason);
      }
      sleep(200);
    }
  }
  try {
    process.stderr.write(`vsk: ${reason}: running \`npm run build\` first\n`);
    const run = spawnSync("npm", ["run", "build", "--silent"], {
      cwd: root,
      stdio: ["ignore", "inherit", "inherit"],
      shell: process.platform === "win32",
    });
    if (run.status !== 0) {
      rmSync(lock, { recursive: true, force: true });
      process.stderr.write("vsk: the build failed; run `npm ci` in the repository, then `npm run build`\n");
      process.exit(2);
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

const reason = staleReason();
if (reason !== undefined) build(reason);
const cli = await import(pathToFileURL(main).href);
await cli.runAsProgram(process.argv.slice(2));
