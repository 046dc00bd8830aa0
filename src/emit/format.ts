/**
 * generate's layout: every module goes through prettier with vsk's own options (never the
 * user's: the output is the same bytes on every machine), and the result is remembered by
 * content. A formatted module is a pure function of prettier's version, the parser, the options
 * and the text, so `<cache>/video-schema-kit/format/<key>` (src/durable/cache.ts: the nearest
 * `node_modules/.cache`, else the user's cache directory) gives it back without prettier: a
 * generate whose modules are all known does not load prettier at all (watch mode, `--check` in CI
 * with a cached `node_modules`, the same snapshot generated twice). The cache is trusted only
 * when it is the user's own (its text becomes their source); an entry that does not hold the
 * hash of its text is a miss; the entries are bounded (oldest pruned past `MAX_ENTRIES`).
 */
import { createHash } from "node:crypto";
import { lstatSync, readdirSync, readFileSync, rmSync, utimesSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { cacheDir, contentHash, distrust, distrustChain, writeCacheFile } from "../durable/index.js";
import { EmitError } from "./validator.js";
import type { GeneratedFile } from "./generated-file.js";

export const PRETTIER_OPTIONS = {
  printWidth: 110,
  tabWidth: 2,
  useTabs: false,
  semi: true,
  singleQuote: false,
  jsxSingleQuote: false,
  quoteProps: "as-needed",
  trailingComma: "all",
  bracketSpacing: true,
  bracketSameLine: false,
  arrowParens: "always",
  endOfLine: "lf",
  proseWrap: "preserve",
  embeddedLanguageFormatting: "auto",
  objectWrap: "preserve",
} as const;

/** Entries kept; past this, the least recently used are removed down to `KEEP_ENTRIES`. */
const MAX_ENTRIES = 2000;
const KEEP_ENTRIES = 1500;
/** An entry larger than this is not read (a cache file is never trusted to be small). */
const MAX_ENTRY_BYTES = 64 * 1024 * 1024;

/** What an entry's first line holds: the SHA-256 of its text. */
const digest = (text: string): string => createHash("sha256").update(text).digest("hex");

/** The prettier that formats (resolved as `import("prettier")` resolves it), by version; undefined when unreadable. */
function prettierVersion(): string | undefined {
  try {
    const file = createRequire(import.meta.url).resolve("prettier/package.json");
    const version = (JSON.parse(readFileSync(file, "utf8")) as { version?: unknown }).version;
    return typeof version === "string" ? version : undefined;
  } catch {
    return undefined;
  }
}

/** generate's format cache for one output directory. */
export class FormatCache {
  readonly root: string;
  /** why the cache is not used this run (untrusted, or prettier's version unknown), for a note */
  readonly refused: string | undefined;
  /** why an entry could not be written (the first such error), for a note */
  problem: string | undefined;
  hits = 0;
  written = 0;
  private readonly salt: string;

  constructor(outDir: string, env: Readonly<Record<string, string | undefined>> = process.env) {
    this.root = cacheDir(outDir, "format", env);
    const version = prettierVersion();
    this.salt = contentHash([version ?? "", JSON.stringify(PRETTIER_OPTIONS)]);
    this.refused =
      version === undefined ? "prettier's version cannot be read" : (distrustChain(this.root) ?? undefined);
  }

  key(parser: string, text: string): string {
    return contentHash([this.salt, parser, text]);
  }

  get(key: string): string | undefined {
    if (this.refused !== undefined) return undefined;
    const file = join(this.root, key);
    try {
      const info = lstatSync(file);
      if (!info.isFile() || info.size > MAX_ENTRY_BYTES || distrust(file) !== undefined) return undefined;
      const entry = readFileSync(file, "utf8");
      const newline = entry.indexOf("\n");
      const text = entry.slice(newline + 1);
      // a file cut short or changed on disk is a miss (and is written again)
      if (newline !== 64 || entry.slice(0, 64) !== digest(text)) return undefined;
      const now = new Date();
      utimesSync(file, now, now); // recently used: kept by the pruning
      this.hits++;
      return text;
    } catch {
      return undefined; // not there (the common miss), or unreadable: formatted afresh
    }
  }

  set(key: string, text: string): void {
    if (this.refused !== undefined || this.problem !== undefined) return;
    try {
      writeCacheFile(join(this.root, key), `${digest(text)}\n${text}`);
      this.written++;
    } catch (error) {
      this.problem = (error as NodeJS.ErrnoException).code ?? String(error);
    }
  }

  /** Removes the least recently used entries past `MAX_ENTRIES` (only after a run that wrote some). */
  prune(): void {
    if (this.written === 0) return;
    try {
      const names = readdirSync(this.root).filter((n) => /^[0-9a-f]{64}$/.test(n));
      if (names.length <= MAX_ENTRIES) return;
      const aged = names.map((n) => ({ n, t: lstatSync(join(this.root, n)).mtimeMs })).sort((a, b) => a.t - b.t);
      for (const { n } of aged.slice(0, names.length - KEEP_ENTRIES)) rmSync(join(this.root, n), { force: true });
    } catch {
      // pruning is housekeeping: the next run that writes tries again
    }
  }
}

/**
 * The prettier parser of a generated file, or undefined for files prettier leaves alone. Babel's
 * TypeScript parser formats the large validator modules about twice as fast as `typescript`.
 */
function parserFor(path: string): "babel-ts" | "babel" | undefined {
  if (/\.m?ts$/.test(path)) return "babel-ts";
  return path.endsWith(".js") ? "babel" : undefined;
}

/** Every file in generate's layout; prettier is loaded only for a file the cache does not hold. */
export async function format(files: GeneratedFile[], cache?: FormatCache): Promise<GeneratedFile[]> {
  let prettier: typeof import("prettier") | undefined;
  const formatted = await Promise.all(
    files.map(async (f) => {
      const parser = parserFor(f.path);
      if (parser === undefined || f.formatted === true) return f;
      const key = cache?.key(parser, f.content);
      const known = key === undefined ? undefined : cache!.get(key);
      if (known !== undefined) return { ...f, content: known };
      prettier ??= await import("prettier");
      try {
        const content = await prettier.format(f.content, { parser, ...PRETTIER_OPTIONS });
        if (key !== undefined) cache!.set(key, content);
        return { ...f, content };
      } catch (error) {
        // prettier recurses once per nesting level: a schema nested some 100 levels deep overflows
        // its stack, and the file is kept as generated (valid, deterministic, not pretty)
        if (error instanceof RangeError) return f;
        const message = (error instanceof Error ? error.message : String(error)).split("\n")[0];
        throw new EmitError(
          `${f.path}: the generated code does not parse (a bug in vsk, please report it): ${message}`,
        );
      }
    }),
  );
  cache?.prune();
  return formatted;
}
