/**
 * How `vsk lint` runs TypeScript validators under plain `node`: generated code is `.mts`,
 * which Node 20 cannot import, so lint runs a JavaScript build of the validator modules (and
 * the support module they import), kept in a cache keyed by their content:
 * `<cache>/video-schema-kit/lint/<support hash>/<stem>.validate.<hash>.mjs`, where `<cache>` is
 * the nearest `node_modules/.cache` above the generated directory, else the user's own cache
 * directory (`$XDG_CACHE_HOME`, else `~/.cache`; never a shared temp directory, issue 23.13).
 * `vsk generate` fills it; when it is missing or stale (a fresh clone, generated code from
 * another machine) lint compiles the modules once, says so, and keeps them. Cold start with a
 * filled cache costs two small file hashes; nothing else is loaded.
 *
 * The cache holds code lint imports, so it is trusted only when it is the user's own: its
 * directories are created 0700, and a directory or file of it that another user owns, that
 * others may write, or that is a symbolic link is refused: lint warns and compiles into a
 * private directory of its own for that run instead (removed when it ends).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cacheDir, contentHash, distrust, distrustChain, writeCacheFile as writeAtomically } from "../durable/index.js";

/** 16 hex digits of the texts' hash: the cache's file and directory names. */
const hash = (...texts: string[]): string => contentHash(texts, 16);

/** The support modules every validator imports, relative to the generated directory. */
const SUPPORT = ["support.mts", "redact.mts"];

/**
 * The lint cache directory for a generated directory (src/durable/cache.ts): the nearest
 * `node_modules/.cache` above it, else `$XDG_CACHE_HOME`, else `~/.cache`.
 */
export function lintCacheDir(generatedDir: string, env: NodeJS.ProcessEnv = process.env): string {
  return cacheDir(generatedDir, "lint", env);
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

/** The JavaScript build of a generated directory's TypeScript validators, for lint. */
export class CompiledValidators {
  private root: string;
  private transpile: Transpile | undefined;
  /** set when this run compiled something (lint says so once) */
  compiled = 0;
  /** why the cache was refused and a private directory used instead, for a warning; undefined when it was not */
  refused: string | undefined;

  constructor(
    private readonly generatedDir: string,
    cacheDir = lintCacheDir(generatedDir),
    transpile?: Transpile,
    /** false: an untrusted cache throws (`vsk generate` fills only the real cache) instead of moving aside */
    private readonly fallback = true,
  ) {
    const support = SUPPORT.map((f) => this.read(f));
    this.root = join(cacheDir, hash(...support));
    this.transpile = transpile;
    const problem = distrustChain(this.root);
    if (problem !== undefined) this.refuse(problem);
  }

  get cacheRoot(): string {
    return this.root;
  }

  /** Leaves an untrusted cache for a fresh private directory (0700, removed at exit), or throws. */
  private refuse(problem: string): void {
    if (!this.fallback)
      throw Object.assign(new Error(`the lint cache is not safe to use: ${problem}`), { code: "unsafe: " + problem });
    const cache = this.root;
    const own = mkdtempSync(join(tmpdir(), "vsk-lint-"));
    process.once("exit", () => rmSync(own, { recursive: true, force: true }));
    this.root = own;
    this.refused = `the lint cache ${cache} is not used: ${problem}; compiled into a private directory for this run instead (remove the cache, or give it back to your user with mode 0700)`;
  }

  private read(file: string): string {
    return readFileSync(join(this.generatedDir, file), "utf8");
  }

  /** Where the JavaScript build of `<stem>.validate.mts` is, and whether it is there (and trusted). */
  locate(validator: string): { file: string; ready: boolean } {
    const stem = validator.replace(/\.mts$/, "");
    const name = `${stem}.${hash(this.read(validator))}.mjs`;
    const supports = SUPPORT.map((f) => f.replace(/\.mts$/, ".mjs"));
    for (const f of [...supports, name]) {
      if (this.refused !== undefined) break;
      const problem = distrust(join(this.root, f));
      if (problem !== undefined) this.refuse(problem);
    }
    const file = join(this.root, name);
    return { file, ready: existsSync(file) && supports.every((f) => existsSync(join(this.root, f))) };
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
  const compiled = new CompiledValidators(generatedDir, lintCacheDir(generatedDir), await loadTranspiler(), false);
  for (const validator of validators) if (!compiled.locate(validator).ready) await compiled.build(validator);
  return compiled.cacheRoot;
}
