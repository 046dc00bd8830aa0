/**
 * `vsk init [--model ID[=ALIAS]]… [--schema-url URL] [--config FILE] [--force]`: writes a starter
 * `vsk.config.json` whose `$schema` points at the package's `schemas/config.schema.json`, so
 * editors complete and check it. Never replaces an existing file without `--force`; the file
 * appears whole or not at all (temp file, then link or rename).
 */
import { closeSync, existsSync, fsyncSync, linkSync, openSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
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
import { plural, shown } from "../words/index.js";
import { shownArgument } from "./typed.js";
import { commandParser } from "./args.js";
import { CliError, ExitCode } from "./errors.js";

/** Where `npm i -D video-schema-kit` puts the schema, as seen from a config at the project root. */
export const INSTALLED_SCHEMA = "./node_modules/video-schema-kit/schemas/config.schema.json";

interface InitArgs {
  models: string[];
  schemaUrl?: string;
  config: string;
  force: boolean;
}

async function parseArgs(argv: string[]): Promise<InitArgs | "help"> {
  const parsed = await commandParser(
    argv,
    "init",
    "[--model ID[=ALIAS]]… [--schema-url URL] [--config FILE] [--force]",
    [
      "Writes a starter vsk.config.json whose $schema is the config schema installed with the package, so editors " +
        "complete and check it. Without --model, the starter lists the three embedded example models: edit them " +
        "(or pass --model and --schema-url) before `vsk pull`. Never replaces an existing file without --force.",
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
    .option("config", { type: "string", default: CONFIG_FILE, describe: "the file to write" })
    .option("force", { type: "boolean", default: false, describe: "replace an existing file" })
    .parseAsync();
  if (parsed.help === true) return "help";
  const models = (parsed.model ?? []).map(String);
  if (parsed.model !== undefined && (models.length === 0 || models.includes("")))
    throw new CliError("init: --model needs <owner>/<name> or <owner>/<name>=ALIAS (see `vsk init --help`)");
  const one = (flag: string, value: unknown): string | undefined => {
    if (value === undefined) return undefined;
    if (typeof value !== "string" || value === "")
      throw new CliError(`init: --${flag} takes one value (see \`vsk init --help\`)`);
    return value;
  };
  const schemaUrl = one("schema-url", parsed["schema-url"]);
  return {
    models,
    config: one("config", parsed.config) ?? CONFIG_FILE,
    force: parsed.force === true,
    ...(schemaUrl === undefined ? {} : { schemaUrl }),
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

/** The starter config, in key order; `$comment`s say what to do next. */
function starter(args: InitArgs, schemaRef: string): Record<string, unknown> {
  const examples = args.models.length === 0;
  const models = examples ? DEFAULT_MODELS.map((m) => ({ ...m })) : args.models.map(modelEntry);
  const next = args.schemaUrl === undefined ? "set schemaUrl to where they are published, then run" : "then run";
  return {
    $schema: schemaRef,
    $comment: examples
      ? `Starter written by vsk init. Replace the example models with the <owner>/<name> ids your app calls (an alias is optional), ${next} vsk pull and vsk generate, and commit this file, schemas-cache/ and generated/. Every key is described in the $schema file.`
      : `Written by vsk init. ${args.schemaUrl === undefined ? "Set schemaUrl to where the schemas are published, then run" : "Run"} vsk pull and vsk generate, and commit this file, schemas-cache/ and generated/. Every key is described in the $schema file.`,
    ...(args.schemaUrl === undefined ? {} : { schemaUrl: args.schemaUrl }),
    models: models.map((m) => (m.alias === undefined ? m.id : { id: m.id, alias: m.alias })),
    snapshotDir: "schemas-cache",
    outDir: "generated",
  };
}

/** A config problem said as the flag it came from, not as a pointer into a file not yet written. */
function flagProblem(problem: ConfigProblem, args: InitArgs): string {
  const [, key, index] = problem.pointer.split("/");
  const flag = (i: string): string => `--model ${shownArgument(args.models[Number(i)] ?? "")}`;
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

export async function runInit(argv: string[]): Promise<number> {
  const args = await parseArgs(argv);
  if (args === "help") return ExitCode.ok;
  const cwd = process.cwd();
  const file = resolve(cwd, args.config);
  const name = shown(relative(cwd, file) || file);
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
