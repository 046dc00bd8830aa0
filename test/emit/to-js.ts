/**
 * Tests run generated TypeScript modules under plain `node`: types erased with the TypeScript
 * compiler (as the consumer's `tsc` or vsk lint's cache would), imports kept, as `.mjs`.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { supportFiles } from "../../src/emit/index.js";

export function toJs(source: string): string {
  return ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
  }).outputText;
}

/** support.mjs and the redact.mjs it imports, as `vsk generate` writes them, compiled; validators import "./support.mjs". */
export function writeSupportJs(dir: string, head: string): void {
  for (const f of supportFiles(head)) writeFileSync(join(dir, f.path.replace(/\.mts$/, ".mjs")), toJs(f.content));
}
