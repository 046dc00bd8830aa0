/** `vsk generate [--check] [--watch] [--lang ts|js] [--config FILE]`: types, builders and validators from the snapshot. */
import { readFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { CONFIG_FILE, loadConfig, type VskConfig } from "../config/index.js";
import {
  checkOutDir,
  compareWithDisk,
  howItDiffers,
  endpointExports,
  endpointRules,
  FormatCache,
  layoutOnDisk,
  generateFiles,
  writeGenerated,
  type EmitInput,
  type GeneratedFile,
  type Lang,
} from "../emit/index.js";
import { buildLintCache } from "../lint/index.js";
import { snapshotAdvice, snapshotInputs } from "./snapshot-inputs.js";
import { commandParser, helpShown } from "./args.js";
import { CliError, ExitCode, toCliError } from "./errors.js";
import { plural } from "../words/index.js";
import { watchAndRun } from "./watch.js";

interface GenerateArgs {
  check: boolean;
  /** `--lang`; absent: the config's `lang`, else the layout already in outDir, else ts */
  lang?: Lang | undefined;
  config?: string | undefined;
}

export async function runGenerate(argv: string[]): Promise<number> {
  const args = await commandParser(argv, "generate", "[--check] [--watch] [--lang ts|js] [--config FILE]", [
    "Emits TypeScript types, typed request builders, precompiled validators and a queue client for every endpoint " +
      "of the configured models, from the snapshot (schemas-cache/), into generated/ (the config's outDir). " +
      "--check writes nothing and compares instead (for CI); --watch regenerates on every change (for your editor).",
    "Exit codes: 0 written (or up to date), 1 stale (--check), 2 usage or a file that cannot be read or written, " +
      "3 a schema that cannot be turned into code.",
  ])
    .option("check", {
      type: "boolean",
      default: false,
      describe: "write nothing; exit 1 if generated/ is not what the snapshot gives",
    })
    .option("watch", {
      type: "boolean",
      default: false,
      describe: "regenerate whenever the snapshot or the config changes, one line per run; Ctrl-C stops",
    })
    .option("lang", {
      choices: ["ts", "js"] as const,
      describe:
        'ts: TypeScript modules (.mts) your tsc or bundler compiles; js: ESM .js with .d.ts (default: the config\'s "lang", else the layout already in outDir, else ts)',
    })
    .option("config", {
      type: "string",
      describe:
        'config file (default: the first vsk.config.json, or a package.json "vsk" key, here or above up to the package root; else the example models)',
    })
    .parseAsync();
  if (helpShown(argv)) return ExitCode.ok;
  const cwd = process.cwd();
  if (args.watch) {
    if (args.check)
      throw new CliError(
        "--watch and --check do not go together: --check is for CI, --watch for your editor session",
        ExitCode.usage,
      );
    return watchGenerate(args, cwd);
  }
  const { code, lines } = await generateOnce(args, cwd);
  if (lines.length > 0) process.stdout.write(lines.join("\n") + "\n");
  return code;
}

/**
 * `--watch`: a first run, then one per change of the config file or the snapshot (its directory,
 * each owner's and each model's: fs.watch is not recursive on Linux under Node 20), debounced;
 * one line per run, an error as one line too, and watching goes on until SIGINT or SIGTERM.
 */
async function watchGenerate(args: GenerateArgs, cwd: string): Promise<number> {
  let configFile = resolve(cwd, args.config ?? CONFIG_FILE);
  let snapshotDir = join(cwd, "schemas-cache");
  let outDir = join(cwd, "generated");
  const targets = () => {
    try {
      const config = loadConfig(cwd, args.config);
      configFile = config.file ?? configFile;
      snapshotDir = config.snapshotDir;
      outDir = config.outDir;
    } catch {
      // a broken config: the run says why; keep watching the last known directories
    }
    // The project's own schemas-cache/ beside the config is watched by name too: with no config and
    // none of its own, the embedded snapshot is read, and one created (again) must be noticed.
    const own = join(dirname(configFile), "schemas-cache");
    return { files: [configFile, own], trees: [snapshotDir], ignore: [outDir] };
  };
  const show = (path: string) => relative(cwd, path) || ".";
  return watchAndRun({
    targets,
    describe: () => `vsk: watching ${show(configFile)} and ${show(snapshotDir)}/ (Ctrl-C to stop)`,
    run: async () => {
      const started = performance.now();
      try {
        const { code, lines, summary } = await generateOnce(args, cwd);
        const ms = Math.round(performance.now() - started);
        if (code !== ExitCode.ok) return { ok: false, line: lines[0] ?? `exit ${code}` };
        return { ok: true, line: `regenerated ${summary} in ${ms} ms` };
      } catch (thrown) {
        const error = toCliError(thrown);
        if (error instanceof CliError) return { ok: false, line: error.message.split("\n").join("; ") };
        throw error;
      }
    },
  });
}

/**
 * Reading or writing the output directory is I/O (exit 2), though emit says it with the same
 * `EmitError` class as a schema it cannot turn into code (exit 3).
 */
function outDirFailure(error: unknown): unknown {
  const failure = toCliError(error);
  return failure instanceof CliError ? new CliError(failure.message, ExitCode.usage) : failure;
}

/** One generation (or check): the exit code and what to print; a `CliError` for what stops it. */
async function generateOnce(
  args: GenerateArgs,
  cwd: string,
): Promise<{ code: number; lines: string[]; summary: string }> {
  const started = performance.now();
  let inputs: EmitInput[];
  let outDir: string;
  let snapshotDir: string;
  let config: VskConfig;
  try {
    config = loadConfig(cwd, args.config, args.check ? { requireConfigIn: "generate --check" } : {});
    outDir = config.outDir;
    snapshotDir = config.snapshotDir;
    inputs = snapshotInputs(config.snapshotDir, config.models);
  } catch (error) {
    throw toCliError(error, snapshotAdvice);
  }
  const shown = relative(cwd, outDir) || ".";
  const { lang, kept, swapped, from } = chooseLang(args, config, cwd);
  if (swapped !== undefined && args.check) {
    process.stderr.write(
      `vsk: ${shown}/ holds the ${swapped} layout (${LAYOUT[swapped]}), but ${from} asks for ${lang} (${LAYOUT[lang]}), so every file differs: ` +
        `to keep ${swapped}, ${keepAdvice(swapped, config, cwd)}; to switch to ${lang}, run \`vsk generate --lang ${lang}\`, update what imports ${shown}/ (${LAYOUT_INDEX[lang]}) and commit the result.\n`,
    );
    return { code: ExitCode.findings, lines: [], summary: "" };
  }
  const rerun = args.lang === undefined ? "vsk generate" : `vsk generate --lang ${args.lang}`;
  if (!args.check) {
    // a refused outDir is said before the work, not after seconds of generating (issue 42.4)
    try {
      checkOutDir(outDir);
    } catch (error) {
      throw outDirFailure(error);
    }
  }
  let files: GeneratedFile[];
  let rules: ReturnType<typeof endpointRules>;
  // the layout of modules generated before (src/emit/format.ts): prettier only for what is new
  const formatCache = new FormatCache(outDir);
  try {
    rules = endpointRules(inputs);
    files = await generateFiles(inputs, { lang, formatCache });
  } catch (error) {
    throw toCliError(error);
  }
  const inside = relative(cwd, formatCache.root);
  const cacheShown = inside === "" || inside.startsWith("..") ? formatCache.root : inside;
  const cacheNote = formatCache.refused ?? (formatCache.problem && `it cannot be written (${formatCache.problem})`);
  if (cacheNote !== undefined)
    process.stderr.write(
      `vsk: the format cache ${cacheShown} is not used: ${cacheNote}; prettier formatted every module (remove the cache, or give it back to your user with mode 0700)\n`,
    );
  const snapshotShown = relative(cwd, snapshotDir) || ".";
  if (args.check) {
    let stale;
    try {
      stale = compareWithDisk(outDir, files);
    } catch (error) {
      throw outDirFailure(error);
    }
    const ours = new Map(files.map((f) => [f.path, f.content]));
    // issue 24.3: their formatter ran over the output (their options, any of them): say so;
    // issue 42.3: a hand edit (a comment appended) is not a formatter's, and is said as one
    const how = new Map(
      stale.changed.map((f) => [f, howItDiffers(f, readFileSync(join(outDir, f), "utf8"), ours.get(f)!)] as const),
    );
    const note = (f: string): string => {
      const kind = how.get(f);
      return kind === "comments" ? " (comments edited by hand)" : kind === "layout" ? " (reformatted)" : "";
    };
    const names = [
      ...stale.changed.map((f) => f + note(f)),
      ...stale.missing.map((f) => `${f} (missing)`),
      ...stale.extra.map((f) => `${f} (not generated)`),
    ];
    if (names.length > 0) {
      const layoutOnly =
        stale.missing.length === 0 && stale.extra.length === 0 && [...how.values()].every((k) => k === "layout");
      const byHand = [...how.values()].some((k) => k === "comments");
      const ignore = `add "${shown}/" and "${snapshotShown}/" to .prettierignore (and your linters' ignores), then `;
      process.stderr.write(
        layoutOnly
          ? `vsk: ${shown}/ was reformatted by a formatter (${plural(names.length, "file")} ${names.length === 1 ? "says" : "say"} what vsk generates, in another layout: ${stale.changed.join(", ")}): ${ignore}run \`${rerun}\` and commit the result.\n`
          : `vsk: ${shown}/ is stale: ${plural(names.length, "file")} ${names.length === 1 ? "differs" : "differ"} from what the snapshot gives (${names.join(", ")}); ${byHand ? "generated files are rewritten by every `vsk generate`, so an edit belongs in the snapshot or the config, not in them; " : ""}${[...how.values()].includes("layout") ? ignore : ""}run \`${rerun}\` and commit the result.\n`,
      );
      return { code: ExitCode.findings, lines: [], summary: "" };
    }
    const upToDate = `${shown}/ is up to date (${plural(files.length, "file")}, ${plural(
      inputs.reduce((n, m) => n + m.endpoints.length, 0),
      "endpoint",
    )}${kept ? `, the ${lang} layout found there` : ""}).`;
    return { code: ExitCode.ok, lines: [upToDate], summary: upToDate };
  }
  try {
    writeGenerated(outDir, files);
  } catch (error) {
    throw outDirFailure(error);
  }
  const endpoints = inputs.reduce((n, m) => n + m.endpoints.length, 0);
  const ms = Math.round(performance.now() - started);
  const lines = [
    `Generated ${plural(files.length, "file")} for ${plural(endpoints, "endpoint")} of ${plural(inputs.length, "model")} into ${shown}/ in ${ms} ms.`,
    lang === "js"
      ? `Queue client: ${shown}/client.js (createClient, typed per endpoint), with vsk's client and runtime copied into ${shown}/_vsk/.`
      : `Queue client: ${shown}/client.mts, imported as client.mjs (createClient, typed per endpoint), with vsk's client and runtime copied into ${shown}/_vsk/.`,
    // issue 42.3: the names to import, which follow the config's aliases (docs: README "App code")
    `Exports per endpoint, from ${shown}/index.${lang === "js" ? "js" : "mjs"} (build/safeBuild/validate + the alias, else the model's name, + the endpoint, in PascalCase):`,
    ...endpointExports(inputs).map(
      ({ key, names: n }) =>
        `  ${key}: ${n.build}, ${n.safeBuild}, ${n.validate}, ${n.standardSchema}, ${n.jsonSchema}, ${n.inputSchema}, ${n.defaults}, ${n.path}; types ${n.input}, ${n.output}`,
    ),
    ...(kept
      ? [
          `Kept the ${lang} layout found in ${shown}/ (${LAYOUT[lang]}): no language is configured; to say so, ${keepAdvice(lang, config, cwd)}.`,
        ]
      : swapped !== undefined
        ? [
            `Replaced the ${swapped} layout of ${shown}/ (${LAYOUT[swapped]}) with ${lang} (${LAYOUT[lang]}), as ${from} asks: update what imports ${shown}/ (${LAYOUT_INDEX[lang]}).`,
          ]
        : []),
    "Cross-field rules per endpoint (decided from each endpoint's schema; also in endpoints.json):",
    ...rules.map((r) => `  ${r.key}: ${r.rules.length === 0 ? "no cross-field rules" : r.rules.join(", ")}`),
  ];
  if (cacheNote === undefined)
    lines.push(
      `Layout: ${plural(formatCache.hits, "module")} from the format cache (${cacheShown}), ${formatCache.written} formatted by prettier.`,
    );
  try {
    const cache = await buildLintCache(outDir);
    if (cache !== undefined)
      lines.push(`JavaScript build of the validators for \`vsk lint\`: ${relative(cwd, cache) || cache}`);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === undefined) throw error;
    lines.push(`vsk lint will compile the validators on its first run: the lint cache cannot be written (${code})`);
  }
  return {
    code: ExitCode.ok,
    lines,
    summary: `${shown}/ (${plural(files.length, "file")}, ${plural(endpoints, "endpoint")})`,
  };
}

/** What each language's layout is, as messages name it. */
const LAYOUT: Record<Lang, string> = { ts: ".mts modules", js: ".js with .d.ts" };
const LAYOUT_INDEX: Record<Lang, string> = { ts: "index.mjs", js: "index.js" };

/** `"lang": "js"` in vsk.config.json, or in package.json's "vsk" key. */
function configKey(lang: Lang, config: VskConfig, cwd: string): string {
  if (config.file === undefined)
    return `"lang": "${lang}" in a ${CONFIG_FILE} (\`vsk init --lang ${lang}\` writes one)`;
  const name = relative(cwd, config.file) || config.file;
  return basename(config.file) === "package.json"
    ? `"lang": "${lang}" in the "vsk" key of ${name}`
    : `"lang": "${lang}" in ${name}`;
}

function keepAdvice(lang: Lang, config: VskConfig, cwd: string): string {
  return `set ${configKey(lang, config, cwd)} (or pass --lang ${lang})`;
}

/**
 * The language this run writes: `--lang`, else the config's `lang`, else the layout already in
 * outDir (a `--lang js` project run as plain `vsk generate` stays js: swapping its `.js` for
 * `.mts` would break every `import "./gen/index.js"` of the project), else ts. `kept`: it
 * followed the layout found; `swapped`: the layout found, when an explicit choice differs.
 */
function chooseLang(
  args: GenerateArgs,
  config: VskConfig,
  cwd: string,
): { lang: Lang; kept: boolean; swapped?: Lang; from: string } {
  const found = layoutOnDisk(config.outDir);
  const explicit = args.lang ?? config.lang;
  if (explicit === undefined) return { lang: found ?? "ts", kept: found === "js", from: "" };
  const from = args.lang !== undefined ? `--lang ${args.lang}` : configKey(explicit, config, cwd);
  return {
    lang: explicit,
    kept: false,
    from,
    ...(found !== undefined && found !== explicit ? { swapped: found } : {}),
  };
}
