#!/usr/bin/env node
// The `vsk` command. The package ships its build (dist/); in a fresh clone of the repository
// there is none yet, and no install script makes one (a consumer's install must run nothing):
// then the first `vsk` builds it, says so, and goes on.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const main = new URL("../dist/src/cli/main.js", import.meta.url);
if (!existsSync(main) && existsSync(new URL("../tsconfig.build.json", import.meta.url))) {
  process.stderr.write("vsk: no build yet (a fresh clone): running `npm run build` first\n");
  const build = spawnSync("npm", ["run", "build", "--silent"], {
    cwd: root,
    stdio: ["ignore", "inherit", "inherit"],
    shell: process.platform === "win32",
  });
  if (build.status !== 0) {
    process.stderr.write("vsk: the build failed; run `npm ci` in the repository, then `npm run build`\n");
    process.exit(2);
  }
}
const cli = await import(pathToFileURL(fileURLToPath(main)).href);
cli.main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.exitCode = cli.reportFailure(error);
  },
);
