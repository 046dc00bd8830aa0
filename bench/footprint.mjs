// Install footprint (issue 30.11): what `npm i -D video-schema-kit` adds to a user's tree, beside
// openapi-typescript's, measured in the same run: packages installed and megabytes on disk. Our
// package is packed from this checkout (`npm pack --ignore-scripts`, after `npm run build`); the
// other comes from the npm registry. Both are installed with --ignore-scripts into empty projects.
// A registry that cannot be reached is said, and that side is skipped (exit 0: a figure, not a gate).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = new URL("..", import.meta.url).pathname;
const OTHER = "openapi-typescript@7";
const work = mkdtempSync(join(tmpdir(), "vsk-footprint-"));

function npm(args, cwd) {
  const run = spawnSync("npm", args, { cwd, encoding: "utf8", timeout: 300_000 });
  if (run.status !== 0)
    throw new Error(`npm ${args.join(" ")}: ${(run.stderr || run.error?.message || "").trim().split("\n").pop()}`);
  return run.stdout;
}

/** Packages (directories directly under a node_modules or its @scope/) and bytes on disk. */
function measure(dir) {
  let packages = 0;
  let bytes = 0;
  const size = (d) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, entry.name);
      if (entry.isDirectory()) size(p);
      else if (entry.isFile()) bytes += statSync(p).size;
    }
  };
  const count = (d) => {
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name.startsWith(".")) continue;
      const p = join(d, entry.name);
      if (entry.name.startsWith("@")) count(p);
      else {
        packages++;
        count(join(p, "node_modules"));
      }
    }
  };
  size(join(dir, "node_modules"));
  count(join(dir, "node_modules"));
  return { packages, mb: bytes / 1e6 };
}

function install(name, spec) {
  const dir = join(work, name);
  spawnSync("mkdir", ["-p", dir]);
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: `footprint-${name}`, private: true }));
  npm(["install", "-D", "--ignore-scripts", "--no-audit", "--no-fund", spec], dir);
  return measure(dir);
}

const rows = [];
try {
  const tgz = npm(["pack", "--ignore-scripts", "--silent", "--pack-destination", work], ROOT).trim().split("\n").pop();
  rows.push(["video-schema-kit (this checkout)", install("vsk", join(work, tgz))]);
} catch (error) {
  console.log(`video-schema-kit: skipped (${error.message})`);
}
try {
  rows.push([OTHER, install("other", OTHER)]);
} catch (error) {
  console.log(`${OTHER}: skipped, the registry could not be reached or refused (${error.message})`);
}
for (const [name, m] of rows)
  console.log(`${name.padEnd(36)} ${String(m.packages).padStart(4)} packages  ${m.mb.toFixed(1).padStart(6)} MB`);
if (rows.length === 2)
  console.log(
    `ratio (ours / ${OTHER}): ${(rows[0][1].packages / rows[1][1].packages).toFixed(2)}x packages, ${(rows[0][1].mb / rows[1][1].mb).toFixed(2)}x MB`,
  );
rmSync(work, { recursive: true, force: true });
