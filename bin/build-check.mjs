// Is the build (dist/) of a development clone current? Used by bin/vsk.mjs only where src/ exists
// (never in an installed package, which ships no sources), and by `npm run build`, whose last step
// (`node bin/build-check.mjs --stamp`) writes dist/.build-stamp: a hash of every build input.
// The check is cheap: when no input file is newer than the stamp, the build is current; when one
// is (an edit, or `vsk generate` rewriting generated/ with the same bytes), the inputs are hashed
// (about 1 MB) and compared with the stamp, which is touched when they match.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("..", import.meta.url));
const stamp = join(root, "dist/.build-stamp");
/**
 * What the build reads: tsconfig.build.json's includes, then scripts/embed.mjs, vendor.mjs and bundle.mjs,
 * and the package files (the build's own command, the versions of tsc, esbuild and prettier).
 */
const INPUTS = [
  "package.json",
  "package-lock.json",
  "src",
  "generated",
  "templates",
  "scripts/embed.mjs",
  "scripts/vendor.mjs",
  "scripts/bundle.mjs",
  "tsconfig.json",
  "tsconfig.build.json",
];

/** Every input file with its modification time, in a stable order. */
function inputFiles() {
  const files = [];
  const pending = INPUTS.map((p) => join(root, p));
  while (pending.length > 0) {
    const path = pending.pop();
    let stat;
    try {
      stat = statSync(path);
    } catch {
      continue;
    }
    if (stat.isDirectory()) for (const name of readdirSync(path)) pending.push(join(path, name));
    else files.push({ path, mtimeMs: stat.mtimeMs });
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function hashOf(files) {
  const hash = createHash("sha256");
  for (const { path } of files)
    hash
      .update(`${relative(root, path)}\0`)
      .update(readFileSync(path))
      .update("\0");
  return hash.digest("hex");
}

/** Why the build must run before the CLI, or undefined when it is current. */
export function staleReason() {
  let built;
  try {
    statSync(join(root, "dist/cli/vsk.js"));
  } catch {
    return "no build yet (a fresh clone)";
  }
  try {
    built = { mtimeMs: statSync(stamp).mtimeMs, hash: readFileSync(stamp, "utf8").trim() };
  } catch {
    return "the build has no dist/.build-stamp (it predates `npm run build` writing one)";
  }
  const files = inputFiles();
  const newer = files.find((f) => f.mtimeMs > built.mtimeMs);
  if (newer === undefined) return undefined;
  if (hashOf(files) !== built.hash) return `${relative(root, newer.path)} changed since the last build`;
  const now = new Date();
  utimesSync(stamp, now, now); // same bytes: the next check is the cheap one again
  return undefined;
}

if (process.argv[2] === "--stamp") writeFileSync(stamp, hashOf(inputFiles()) + "\n");
// `npm test`'s first step (`--current || npm run build`): exit 0 when the build is current (a tree
// built and not changed since: its ~4 s are not spent again), else 1 with the reason
if (process.argv[2] === "--current") {
  const reason = staleReason();
  process.stdout.write(
    reason === undefined
      ? "build-check: dist/ is current (dist/.build-stamp): not rebuilt\n"
      : `build-check: ${reason}\n`,
  );
  process.exitCode = reason === undefined ? 0 : 1;
}
