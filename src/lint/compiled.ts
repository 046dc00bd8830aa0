/**
 * How `vsk lint` runs TypeScript validators under plain `node`: generated code is `.mts`,
 * which Node 20 cannot import, so lint runs a JavaScript build of the validator modules (and
 * the support module they import), kept in a cache keyed by their content:
 * `node_modules/.cache/video-schema-kit/lint/<support hash>/<stem>.validate.<hash>.mjs` (the
 * nearest `node_modules` above the generated directory, else the system temp directory).
 * `vsk generate` fills it; when it is missing or stale (a fresh clone, generated code from
 * another machine) lint compiles the modules once, says so, and keeps them. Cold start with a
 * filled cache costs two small file hashes; nothing else is loaded.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** The support modules every validator imports, relative to the generated directory. */
const SUPPORT = ["support.mts", "redact.mts"];

const hash = (...texts: string[]): string => {
  const h = createHash("sha256");
  for (const t of texts) h.update(t).update("\0");
  return h.digest("hex").slice(0, 16);
};

/** The lint cache directory for a generated directory. */
export function lintCacheDir(generatedDir: string): string {
  for (let dir = generatedDir; ; dir = dirname(dir)) {
    const modules = join(dir, "node_modules");
    if (existsSync(modules) && statSync(modules).isDirectory())
      return join(modules, ".cache", "video-schema-kit", "lint");
    if (dirname(dir) === dir) break;
  }
  return join(tmpdir(), `video-schema-kit-${process.getuid?.() ?? "user"}`, "lint");
}

/** A TypeScript module to JavaScript (types erased, imports kept); from the compiler ts-morph bundles. */
export type Transpile = (source: string, fileName: string) => string;

export async function loadTranspiler(): Promise<Transpile> {
  const { ts } = await import("ts-morph");
  return (source, fileName) =>
    ts.transpileModule(source, {
      fileName,
      compilerOptions: {
        module: ts.ModuleKind.ESNext,
        target: ts.ScriptTarget.ES2022,
        verbatimModuleSyntax: true,
        removeComments: false,
      },
    }).outputText;
}

/** Writes a file whole or not at all (a temp file renamed into place). */
function writeAtomically(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.vsk-tmp-${process.pid}`;
  try {
    writeFileSync(temp, text);
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** The JavaScript build of a generated directory's TypeScript validators, for lint. */
export class CompiledValidators {
  private readonly root: string;
  private transpile: Transpile | undefined;
  /** set when this run compiled something (lint says so once) */
  compiled = 0;

  constructor(
    private readonly generatedDir: string,
    cacheDir = lintCacheDir(generatedDir),
    transpile?: Transpile,
  ) {
    const support = SUPPORT.map((f) => this.read(f));
    this.root = join(cacheDir, hash(...support));
    this.transpile = transpile;
  }

  get cacheRoot(): string {
    return this.root;
  }

  private read(file: string): string {
    return readFileSync(join(this.generatedDir, file), "utf8");
  }

  /** Where the JavaScript build of `<stem>.validate.mts` is, and whether it is there. */
  locate(validator: string): { file: string; ready: boolean } {
    const stem = validator.replace(/\.mts$/, "");
    const file = join(this.root, `${stem}.${hash(this.read(validator))}.mjs`);
    return { file, ready: existsSync(file) && existsSync(join(this.root, "support.mjs")) };
  }

  /** Compiles a validator (and the support modules, when missing) into the cache; returns its file. */
  async build(validator: string): Promise<string> {
    this.transpile ??= await loadTranspiler();
    const { file } = this.locate(validator);
    for (const support of SUPPORT) {
      const target = join(this.root, support.replace(/\.mts$/, ".mjs"));
      if (!existsSync(target)) writeAtomically(target, this.transpile(this.read(support), support));
    }
    writeAtomically(file, this.transpile(this.read(validator), validator));
    this.compiled++;
    return file;
  }
}

/**
 * Fills the lint cache for every TypeScript validator a generated directory lists (what
 * `vsk generate` does after writing); returns the cache directory, or undefined when the
 * directory holds JavaScript validators, which lint imports as they are.
 */
export async function buildLintCache(generatedDir: string): Promise<string | undefined> {
  const manifest = JSON.parse(readFileSync(join(generatedDir, "endpoints.json"), "utf8")) as {
    endpoints?: Array<{ validator: string }>;
  };
  const validators = (manifest.endpoints ?? []).map((e) => e.validator).filter((v) => v.endsWith(".mts"));
  if (validators.length === 0) return undefined;
  const compiled = new CompiledValidators(generatedDir, lintCacheDir(generatedDir), await loadTranspiler());
  for (const validator of validators) if (!compiled.locate(validator).ready) await compiled.build(validator);
  return compiled.cacheRoot;
}
