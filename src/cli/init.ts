/**
 * `vsk init [--model ID[=ALIAS]]… [--schema-url URL] [--lang ts|js] [--config FILE] [--force]`: writes a starter
 * `vsk.config.json` whose `$schema` points at the package's `schemas/config.schema.json`, so
 * editors complete and check it. Never replaces an existing file without `--force`; the file
 * appears whole or not at all (temp file, then link or rename).
 */
import {
  closeSync,
  existsSync,
  fsyncSync,
  linkSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import {
  CONFIG_FILE,
  CONFIG_SCHEMA,
  DEFAULT_MODELS,
  findConfigProblem,
  PACKAGE_ROOT,
  type ConfigProblem,
  type ModelRef,
} from "../config/index.js";
import { jsonSyntaxError } from "../json/index.js";
import { plural, shown } from "../words/index.js";
import { shownArgument } from "./typed.js";
import { commandParser } from "./args.js";
import { CliError, ExitCode } from "./errors.js";

/** Where `npm i -D video-schema-kit` puts the schema, as seen from a config at the project root. */
export const INSTALLED_SCHEMA = "./node_modules/video-schema-kit/schemas/config.schema.json";

interface InitArgs {
  models: string[];
  /** `--add`: models added to an existing config in place (issue 42.3) */
  add: string[];
  schemaUrl?: string;
  /** `--lang`: the starter's `lang` key (what `vsk generate` writes); absent, no key */
  lang?: "ts" | "js";
  config: string;
  force: boolean;
}

async function parseArgs(argv: string[]): Promise<InitArgs | "help"> {
  const parsed = await commandParser(
    argv,
    "init",
    "[--model ID[=ALIAS]]… [--schema-url URL] [--lang ts|js] [--config FILE] [--force]\nor:    vsk init --add ID[=ALIAS]… [--config FILE]",
    [
      "Writes a starter vsk.config.json whose $schema is the config schema installed with the package, so editors " +
        "complete and check it. Without --model, the starter lists the three embedded example models (pull and " +
        "generate work on them offline): replace them (or pass --model and --schema-url) before pulling your own. " +
        "Never replaces an existing file without --force. --add adds a model to the existing file in place, keeping " +
        "the rest of it (the starter's example models, if that is all it lists, are replaced).",
      "Exit codes: 0 written, 2 usage or a file that cannot be written.",
    ],
  )
    .option("model", {
      type: "string",
      array: true,
      describe: "a model your app calls, <owner>/<name>, with an optional alias: acme/video-a=videoA (repeatable)",
    })
    .option("schema-url", {
      type: "string",
      describe: "where the schemas are published: https://…, http://…, file://… or a mirror directory",
    })
    .option("lang", {
      choices: ["ts", "js"] as const,
      describe:
        'the "lang" key: what `vsk generate` writes (ts: .mts modules; js: ESM .js with .d.ts, for a JavaScript project)',
    })
    .option("add", {
      type: "string",
      array: true,
      describe: "add a model to the existing config in place: acme/video-z=videoZ (repeatable; no --force needed)",
    })
    .option("config", { type: "string", default: CONFIG_FILE, describe: "the file to write" })
    .option("force", { type: "boolean", default: false, describe: "replace an existing file" })
    .parseAsync();
  if (parsed.help === true) return "help";
  const models = (parsed.model ?? []).map(String);
  if (parsed.model !== undefined && (models.length === 0 || models.includes("")))
    throw new CliError("init: --model needs <owner>/<name> or <owner>/<name>=ALIAS (see `vsk init --help`)");
  const add = (parsed.add ?? []).map(String);
  if (parsed.add !== undefined && (add.length === 0 || add.includes("")))
    throw new CliError("init: --add needs <owner>/<name> or <owner>/<name>=ALIAS (see `vsk init --help`)");
  if (
    add.length > 0 &&
    (models.length > 0 || parsed.force === true || parsed["schema-url"] !== undefined || parsed.lang !== undefined)
  )
    throw new CliError(
      "init: --add edits the existing file in place; it does not go with --model, --schema-url, --lang or --force (see `vsk init --help`)",
    );
  const one = (flag: string, value: unknown): string | undefined => {
    if (value === undefined) return undefined;
    if (typeof value !== "string" || value === "")
      throw new CliError(`init: --${flag} takes one value (see \`vsk init --help\`)`);
    return value;
  };
  const schemaUrl = one("schema-url", parsed["schema-url"]);
  return {
    models,
    add,
    config: one("config", parsed.config) ?? CONFIG_FILE,
    force: parsed.force === true,
    ...(schemaUrl === undefined ? {} : { schemaUrl }),
    ...(parsed.lang === undefined ? {} : { lang: parsed.lang }),
  };
}

/**
 * `$schema` as the config file sees it: the path to this package's copy of the schema when the
 * package is installed in the project (or is the project), else where `npm i -D` will put it.
 */
export function schemaReference(configDir: string): { ref: string; installed: boolean } {
  const project = PACKAGE_ROOT.includes(`${sep}node_modules${sep}`)
    ? PACKAGE_ROOT.slice(0, PACKAGE_ROOT.lastIndexOf(`${sep}node_modules${sep}`))
    : PACKAGE_ROOT;
  const within = relative(project, configDir);
  if (within.startsWith("..") || resolve(project, within) !== configDir)
    return { ref: INSTALLED_SCHEMA, installed: false };
  const path = relative(configDir, CONFIG_SCHEMA).split(sep).join("/");
  return { ref: path.startsWith(".") ? path : `./${path}`, installed: true };
}

/** `acme/video-a=videoA` -> a model entry (checked by the config schema afterwards). */
function modelEntry(arg: string): ModelRef {
  const eq = arg.indexOf("=");
  return eq < 0 ? { id: arg } : { id: arg.slice(0, eq), alias: arg.slice(eq + 1) };
}

/** How the starter's `$comment` opens when it lists the example models. */
const STARTER_NOTE = "Starter written by vsk init.";

function ownModelsNote(hasSchemaUrl: boolean): string {
  return `Written by vsk init. ${hasSchemaUrl ? "Run" : "Set schemaUrl to where the schemas are published, then run"} vsk pull and vsk generate, and commit this file, schemas-cache/ and generated/. Every key is described in the $schema file.`;
}

/** The starter config, in key order; `$comment`s say what to do next. */
function starter(args: InitArgs, schemaRef: string): Record<string, unknown> {
  const examples = args.models.length === 0;
  const models = examples ? DEFAULT_MODELS.map((m) => ({ ...m })) : args.models.map(modelEntry);
  const next = args.schemaUrl === undefined ? "set schemaUrl to where they are published, then run" : "then run";
  return {
    $schema: schemaRef,
    $comment: examples
      ? `${STARTER_NOTE} Replace the example models with the <owner>/<name> ids your app calls (an alias is optional; \`vsk init --add acme/video-a=videoA\` does it), ${next} vsk pull and vsk generate, and commit this file, schemas-cache/ and generated/. Every key is described in the $schema file.`
      : ownModelsNote(args.schemaUrl !== undefined),
    ...(args.schemaUrl === undefined ? {} : { schemaUrl: args.schemaUrl }),
    models: models.map((m) => (m.alias === undefined ? m.id : { id: m.id, alias: m.alias })),
    snapshotDir: "schemas-cache",
    outDir: "generated",
    ...(args.lang === undefined ? {} : { lang: args.lang }),
  };
}

/** A config problem said as the flag it came from, not as a pointer into a file not yet written. */
function flagProblem(problem: ConfigProblem, args: InitArgs, before = 0): string {
  const [, key, index] = problem.pointer.split("/");
  // --add: the entries from `before` on are the flags', the others the file's own
  const flag = (i: string): string =>
    args.add.length > 0
      ? Number(i) >= before
        ? `--add ${shownArgument(args.add[Number(i) - before] ?? "")}`
        : `/models/${i}`
      : `--model ${shownArgument(args.models[Number(i)] ?? "")}`;
  if (key === "models" && index !== undefined)
    return `${flag(index)}: ${problem.message.replace(/\/models\/(\d+)/g, (_, i: string) => flag(i))}`;
  if (key === "schemaUrl") return `--schema-url: ${problem.message}`;
  return `${problem.pointer}: ${problem.message}`;
}

/**
 * Writes `text` to `file` whole or not at all: a temp file beside it, flushed, then linked into
 * place (which fails if the file appeared meanwhile) or, with `force`, renamed over it.
 */
function writeAtomically(file: string, text: string, force: boolean): void {
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  const fd = openSync(temp, "wx", 0o644);
  try {
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (force) renameSync(temp, file);
    else
      try {
        linkSync(temp, file);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "EEXIST") throw error;
        // a file system without hard links: the check and the rename are then two steps
        if (existsSync(file)) throw Object.assign(new Error("exists"), { code: "EEXIST" });
        renameSync(temp, file);
      }
  } finally {
    rmSync(temp, { force: true });
  }
}

/**
 * `--add`: the models appended to the file's `models` (every other key, its order and its
 * `$comment`s kept; written whole, in place of the old file). A file listing only the example
 * models (a bare `vsk init`'s, or no `models` key) has them replaced (issue 42.3).
 */
function addInPlace(args: InitArgs, file: string, name: string): number {
  let text: string;
  try {
    text = readFileSync(file, "utf8").replace(/^\uFEFF/, "");
  } catch (error) {
    throw new CliError(`init: cannot read ${name} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    const { line, column, problem } = jsonSyntaxError(text);
    throw new CliError(`init: ${name}:${line}:${column}: not valid JSON: ${problem}; fix it, then run --add again`);
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    throw new CliError(`init: ${name} is not a JSON object; nothing written`);
  const config = raw as Record<string, unknown>;
  const listed = Array.isArray(config.models) ? (config.models as unknown[]) : undefined;
  const idOf = (entry: unknown): unknown =>
    typeof entry === "object" && entry !== null ? (entry as { id?: unknown }).id : entry;
  const examplesOnly =
    listed === undefined || listed.every((entry) => DEFAULT_MODELS.some((m) => m.id === idOf(entry)));
  const kept = examplesOnly ? [] : listed;
  const added = args.add.map(modelEntry).map((m) => (m.alias === undefined ? m.id : { id: m.id, alias: m.alias }));
  const models = [...kept, ...added];
  // `models` stays where it was in the file (or goes after schemaUrl), every other key as it was
  const next: Record<string, unknown> = {};
  if (!("models" in config)) {
    for (const [key, value] of Object.entries(config)) {
      next[key] = value;
      if (key === "schemaUrl") next.models = models;
    }
    if (!("models" in next)) next.models = models;
  } else for (const [key, value] of Object.entries(config)) next[key] = key === "models" ? models : value;
  // the starter's note says to replace the example models: once they are, it says what is next
  if (examplesOnly && typeof next.$comment === "string" && next.$comment.startsWith(STARTER_NOTE))
    next.$comment = ownModelsNote(typeof next.schemaUrl === "string");
  const problem = findConfigProblem(next);
  if (problem !== undefined)
    throw new CliError(`init: ${flagProblem(problem, args, kept.length)}; ${name} left unchanged`);
  try {
    writeAtomically(file, JSON.stringify(next, null, 2) + "\n", true);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === undefined) throw error;
    throw new CliError(`init: cannot write ${name} (${code}); nothing written`);
  }
  const out = (line: string): void => void process.stdout.write(line + "\n");
  const describe = (m: string | ModelRef): string => shown(typeof m === "string" ? m : `${m.id} (${m.alias ?? ""})`);
  out(`Added to ${name}: ${added.map(describe).join(", ")}; it lists ${plural(models.length, "model")}.`);
  if (examplesOnly && listed !== undefined && listed.length > 0)
    out(`The example models it listed are replaced (\`vsk init --add example/model-a=modelA\` puts one back).`);
  const names = args.add.map(modelEntry).map((m) => m.alias ?? m.id);
  const typed = (n: string): string => (/^[A-Za-z0-9._/-]+$/.test(n) ? n : shownArgument(n));
  out(`Next: vsk pull ${names.map((n) => `--model ${typed(n)}`).join(" ")}, then vsk generate.`);
  return ExitCode.ok;
}

export async function runInit(argv: string[]): Promise<number> {
  const args = await parseArgs(argv);
  if (args === "help") return ExitCode.ok;
  const cwd = process.cwd();
  const file = resolve(cwd, args.config);
  const name = shown(relative(cwd, file) || file);
  if (args.add.length > 0 && existsSync(file) && !statSync(file).isDirectory()) return addInPlace(args, file, name);
  // --add with no file yet: a starter with those models, as --model writes it
  if (args.add.length > 0) args.models = args.add;
  const { ref, installed } = schemaReference(dirname(file));
  const config = starter(args, ref);
  // the starter passes the same schema as every config vsk reads
  const problem = findConfigProblem(config);
  if (problem !== undefined) throw new CliError(`init: ${flagProblem(problem, args)} (see \`vsk init --help\`)`);
  if (existsSync(file) && statSync(file).isDirectory())
    throw new CliError(`init: ${name} is a directory; pass --config FILE to write the config elsewhere`);
  if (existsSync(file) && !args.force)
    throw new CliError(`init: ${name} already exists; nothing written (pass --force to replace it)`);
  try {
    writeAtomically(file, JSON.stringify(config, null, 2) + "\n", args.force);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST")
      throw new CliError(`init: ${name} already exists; nothing written (pass --force to replace it)`);
    if (code === "ENOENT") throw new CliError(`init: cannot write ${name}: its directory does not exist`);
    if (code === undefined) throw error;
    throw new CliError(`init: cannot write ${name} (${code}); nothing written`);
  }
  const models = (config.models as (string | ModelRef)[]).map((m) =>
    typeof m === "string" ? m : `${m.id} (${m.alias ?? ""})`,
  );
  const out = (line: string): void => void process.stdout.write(line + "\n");
  out(`Wrote ${name}: ${plural(models.length, "model")} (${models.map(shown).join(", ")}).`);
  out(
    installed
      ? `$schema: ${ref} (editors complete and check the file with it).`
      : `$schema: ${ref}, where \`npm i -D video-schema-kit\` puts it; this vsk runs from ${shown(PACKAGE_ROOT)}.`,
  );
  if (args.models.length === 0) out("Next: replace the example models with the ids your app calls.");
  if (args.schemaUrl === undefined)
    out('Next: set "schemaUrl" (or VSK_SCHEMA_URL) to where the schemas are published.');
  out("Then: vsk pull, vsk generate, and commit the config, schemas-cache/ and generated/.");
  return ExitCode.ok;
}
