#!/usr/bin/env node
/**
 * The `vsk` program as installed: dist/cli/vsk.js (scripts/bundle.mjs), which bin/vsk.mjs runs. It
 * loads main.ts and the command's modules, but for `vsk lint`, which runs from dist/cli/lint-script.js:
 * main.ts and lint.ts bundled as one script, whose compiled code V8 keeps in vsk's trusted `v8`
 * cache (src/durable/cache.ts `runCachedScript`). Node 20 keeps no ES module's compiled code, and
 * compiling lint's ~0.5 MB of JavaScript at every start was most of its cold start; Node >= 22.1
 * keeps a module's (main.ts enables it) but not the functions it ran, which the script's cache
 * holds too (docs/lint.md, "Cold start"). The same code runs either way: the script is built from
 * the same modules.
 */
import { existsSync, realpathSync } from "node:fs";
import nodeModule from "node:module";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { compileCacheWarning, runCachedScript } from "../durable/index.js";
import { terminalText } from "../escape/index.js";

/** Runs `vsk` with these arguments (without node's and the script's); sets process.exitCode. */
export async function runAsProgram(argv: string[]): Promise<void> {
  const here = fileURLToPath(new URL(".", import.meta.url));
  const script = join(here, "lint-script.js");
  if (argv[0] === "lint" && existsSync(script)) {
    const run = runCachedScript(script, here);
    // on Node >= 22.1 main.ts says it (Node's compile cache, the same folder), unless the user chose another
    const mainSaysIt = "enableCompileCache" in nodeModule && process.env.NODE_COMPILE_CACHE === undefined;
    if (run.cache?.refused !== undefined && !mainSaysIt)
      process.stderr.write(`vsk: warning: ${terminalText(compileCacheWarning(run.cache.dir, run.cache.refused))}\n`);
    await (run.exports.runAsProgram as (argv: string[]) => Promise<void>)(argv);
    run.keep();
    return;
  }
  // no output of any command shows the configured key, whatever it looks like (issue S1); lint's
  // registry tells its own threads (src/lint/registry.ts)
  await withholdConfiguredKey();
  return (await loadMain()).runAsProgram(argv);
}

/** Registers `VSK_API_KEY` with the runtime's redaction; config/ is what main.ts loads first anyway. */
async function withholdConfiguredKey(): Promise<void> {
  (await import("../config/index.js")).withholdConfiguredKey();
}

/** main.ts, as the program loads it for every command but `vsk lint` (test/cli/run.ts runs `vsk` in process with it). */
export function loadMain(): Promise<typeof import("./main.js")> {
  return import("./main.js");
}

/** main.ts's `main` (a command's exit code; what it throws is for `reportFailure`), for drivers that run vsk in their own process. */
export async function main(argv: string[]): Promise<number> {
  await withholdConfiguredKey();
  return (await loadMain()).main(argv);
}

/** Run only as the program itself, never when imported (bin/vsk.mjs calls runAsProgram). */
function invokedDirectly(): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (invokedDirectly()) void runAsProgram(process.argv.slice(2));
