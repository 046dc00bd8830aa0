/**
 * Which models vsk works on, where their schemas come from, and where its files go.
 * With no `vsk.config.json` the embedded default applies: the three models of the service
 * spec under placeholder ids (spec 4.1: "The model identifiers are placeholders").
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { jsonSyntaxError, locatePointer } from "../json/index.js";
import { quote, shown } from "../text/index.js";
import { checkConfig, configSchema, type ConfigProblem } from "./check.js";

export type { ConfigProblem } from "./check.js";

export interface ModelRef {
  /** `<owner>/<name>` */
  id: string;
  /** a short name accepted wherever a model id is, e.g. `modelA` */
  alias?: string;
  /** which spec model's cross-field rules apply (`modelA`, `modelB`, `modelC`, any case); defaults to the alias */
  rules?: string;
}

export interface VskConfig {
  /** `{schema_url}` of spec 9.1; `http(s)://`, `file://` or a mirror directory */
  schemaUrl?: string;
  models: ModelRef[];
  /** absolute path of the snapshot directory (`schemas-cache/`) */
  snapshotDir: string;
  /** absolute path of the generated code directory (`generated/`) */
  outDir: string;
  /** the config file read, or undefined for the embedded default */
  file?: string;
}

export const CONFIG_FILE = "vsk.config.json";

/** The package's own root (found upward from this file): where the embedded snapshot and generated code live. */
export const PACKAGE_ROOT = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

function findPackageRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest) && /"name":\s*"video-schema-kit"/.test(readFileSync(manifest, "utf8"))) return dir;
    if (dirname(dir) === dir) return resolve(start, "../../..");
  }
}

export const DEFAULT_MODELS: readonly ModelRef[] = [
  { id: "example/model-a", alias: "modelA" },
  { id: "example/model-b", alias: "modelB" },
  { id: "example/model-c", alias: "modelC" },
];

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** `<owner>/<name>`: the form of a model id everywhere (spec 4.1, 9.1). */
export const MODEL_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*\/[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Reads `vsk.config.json` from `cwd` if there is one; otherwise the embedded default. */
export function loadConfig(cwd: string = process.cwd(), explicitFile?: string): VskConfig {
  const file = explicitFile !== undefined ? resolve(cwd, explicitFile) : join(cwd, CONFIG_FILE);
  const name = shown(file);
  let isDirectory: boolean;
  try {
    isDirectory = statSync(file).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") throw new ConfigError(`config file ${name} cannot be read (${code})`);
    if (explicitFile !== undefined)
      throw new ConfigError(`config file ${name} does not exist; check the path, or write one with \`vsk init\``);
    const local = join(cwd, "schemas-cache");
    return {
      models: DEFAULT_MODELS.map((m) => ({ ...m })),
      snapshotDir: existsSync(local) ? local : join(PACKAGE_ROOT, "schemas-cache"),
      outDir: join(cwd, "generated"),
    };
  }
  if (isDirectory) {
    const inside = join(file, CONFIG_FILE);
    const todo = existsSync(inside)
      ? `did you mean --config ${shown(relative(cwd, inside) || inside)}?`
      : explicitFile !== undefined
        ? "give the path of a config file (`vsk init` writes one)"
        : `vsk reads its config from a file of that name: rename the directory, or pass --config FILE`;
    throw new ConfigError(`config file ${name} is a directory; ${todo}`);
  }
  let text: string;
  try {
    // a UTF-8 byte order mark (some Windows editors write one) is not part of the JSON
    text = readFileSync(file, "utf8").replace(/^\uFEFF/, "");
  } catch (error) {
    throw new ConfigError(
      `config file ${name} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
  if (text.trim() === "")
    throw new ConfigError(`${name} is empty; expected a JSON object (\`vsk init --force\` writes a starter)`);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    const { line, column, problem } = jsonSyntaxError(text);
    throw new ConfigError(`${name}:${line}:${column}: not valid JSON: ${problem}`);
  }
  return parseConfig(raw, file, text);
}

/** The JSON Schema of `vsk.config.json` that the package ships (editors use it through `$schema`). */
export const CONFIG_SCHEMA = join(PACKAGE_ROOT, "schemas", "config.schema.json");

/**
 * Validates a parsed config object against the shipped `schemas/config.schema.json`, then what a
 * schema cannot say (ids and aliases unique, case-insensitive). Every problem names the file, the
 * line and column when `text` is given, and the JSON Pointer, and says what was expected.
 */
export function parseConfig(raw: unknown, file: string, text?: string): VskConfig {
  const base = dirname(file);
  const fail = (pointer: string, problem: string): never => {
    let where = shown(file);
    if (text !== undefined) {
      try {
        const { line, column } = locatePointer(text, pointer);
        where += `:${line}:${column}`;
      } catch {
        // a position is a courtesy: the pointer alone still says where
      }
    }
    throw new ConfigError(`${where} at ${pointer === "" ? "/" : shown(pointer)}: ${problem}`);
  };
  const problem = findConfigProblem(raw);
  if (problem !== undefined) fail(problem.pointer, problem.message);
  const obj = raw as RawConfig;
  const models = modelsOf(obj);
  const dir = (key: "snapshotDir" | "outDir", fallback: string): string => {
    const v = obj[key];
    if (v === undefined) return join(base, fallback);
    return isAbsolute(v) ? v : join(base, v);
  };
  return {
    ...(obj.schemaUrl === undefined ? {} : { schemaUrl: obj.schemaUrl }),
    models,
    // the three example models are embedded: with no snapshot of its own, such a config uses that one
    snapshotDir:
      obj.models === undefined && obj.snapshotDir === undefined && !existsSync(join(base, "schemas-cache"))
        ? join(PACKAGE_ROOT, "schemas-cache")
        : dir("snapshotDir", "schemas-cache"),
    outDir: dir("outDir", "generated"),
    file,
  };
}

/**
 * The first problem of a parsed config: against the shipped `schemas/config.schema.json`, then
 * what a schema cannot say (ids and aliases unique, case-insensitive); undefined when it is fine.
 */
export function findConfigProblem(raw: unknown): ConfigProblem | undefined {
  const problem = checkConfig(raw, configSchema(PACKAGE_ROOT));
  if (problem !== undefined) return problem;
  const obj = raw as RawConfig;
  const models = modelsOf(obj);
  const seen = new Map<string, number>();
  for (const [i, m] of models.entries()) {
    for (const [name, key] of [[m.id, "id"], ...(m.alias ? [[m.alias, "alias"]] : [])] as const) {
      const before = seen.get(name.toLowerCase());
      if (before !== undefined && before !== i)
        return {
          pointer: `/models/${i}${typeof obj.models?.[i] === "string" ? "" : `/${key}`}`,
          message: `${quote(name)} names /models/${before} already; ids and aliases must be unique (case-insensitive): rename or remove one`,
        };
      seen.set(name.toLowerCase(), i);
    }
  }
  return undefined;
}

function modelsOf(obj: RawConfig): ModelRef[] {
  return obj.models === undefined
    ? DEFAULT_MODELS.map((m) => ({ ...m }))
    : obj.models.map((entry) => {
        if (typeof entry === "string") return { id: entry };
        const { id, alias, rules } = entry;
        return { id, ...(alias === undefined ? {} : { alias }), ...(rules === undefined ? {} : { rules }) };
      });
}

/** A config that passed `schemas/config.schema.json`. */
interface RawConfig {
  schemaUrl?: string;
  models?: (string | { id: string; alias?: string; rules?: string })[];
  snapshotDir?: string;
  outDir?: string;
}

/**
 * Where `pull` and `drift --update` write the snapshot: the configured directory, except that the
 * package's embedded snapshot (read when a project has none of its own) is never written to; the
 * project's own `schemas-cache/` beside the config file (or in `cwd`) is written instead.
 */
export function snapshotWriteDir(config: Pick<VskConfig, "snapshotDir" | "file">, cwd: string): string {
  const embedded = resolve(PACKAGE_ROOT, "schemas-cache");
  const base = config.file === undefined ? cwd : dirname(config.file);
  const own = join(base, "schemas-cache");
  return resolve(config.snapshotDir) === embedded && resolve(own) !== embedded ? own : config.snapshotDir;
}

/** Finds a model by id or alias (case-sensitive id, case-insensitive alias). */
export function findModel(config: { readonly models: readonly ModelRef[] }, idOrAlias: string): ModelRef | undefined {
  return (
    config.models.find((m) => m.id === idOrAlias) ??
    config.models.find((m) => m.alias !== undefined && m.alias.toLowerCase() === idOrAlias.toLowerCase())
  );
}

export function describeModels(config: { readonly models: readonly ModelRef[] }): string {
  return config.models.map((m) => (m.alias ? `${m.id} (${m.alias})` : m.id)).join(", ");
}
