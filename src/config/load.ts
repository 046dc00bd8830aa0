/** vsk.config.json: found (upward, or package.json's "vsk" key), read, checked, and the embedded default. */
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { homedir } from "node:os";
import { jsonSyntaxError, locatePointer } from "../json/index.js";
import { quote, shown } from "../words/index.js";
import { checkConfig, configSchema, type ConfigProblem } from "./check.js";
import { distrust, trustHint } from "./trust.js";

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
  /** the language `generate` writes (`ts`: `.mts`; `js`: `.js` with `.d.ts`); absent: not configured (`--lang`, else the layout in outDir, else ts) */
  lang?: "ts" | "js";
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

/** Told when the built-in example models are used (no config found); the CLI says it on stderr. */
let exampleModelsListener: ((message: string) => void) | undefined;
/** The CLI's hook for that notice (library callers of `loadConfig` stay silent). */
export function onExampleModels(listener: ((message: string) => void) | undefined): void {
  exampleModelsListener = listener;
}

export interface LoadConfigOptions {
  /**
   * A command for which the example models would give a wrong answer in a real project (`drift`,
   * `generate --check`): with no config found in a directory that has `generated/` or
   * `schemas-cache/`, it fails naming the missing config instead.
   */
  requireConfigIn?: string;
}

/** Where a search for the config stops: the first directory with a package.json or a .git (inclusive). */
const PROJECT_ROOT_MARKERS = ["package.json", ".git"];

/** A config found by searching upward: `vsk.config.json`, or the `"vsk"` key of a package.json. */
type Found = { kind: "file"; file: string } | { kind: "package"; file: string; text: string; raw: unknown };

/** A found config that is not trusted (src/config/trust.ts): one line, what to do to use it anyway. */
function refuseUntrusted(file: string): void {
  const why = distrust(file);
  if (why !== undefined)
    throw new ConfigError(
      `found ${shown(file)} but did not use it: ${why}; a config vsk finds must be owned by you or root, ` +
        `writable by no one else, in a directory not everyone may write; ${trustHint(shown(file), true)}`,
    );
}

/** The device a directory is on, or undefined when it cannot be examined. */
function deviceOf(dir: string): number | undefined {
  try {
    return statSync(dir).dev;
  } catch {
    return undefined;
  }
}

/**
 * Searches `cwd` and its parents for `vsk.config.json`, or a package.json with a `"vsk"` key (the
 * file wins when a directory has both), up to the package or git root, the user's home directory,
 * or the last directory on `cwd`'s filesystem, whichever comes first (issue 38.1, as git stops at
 * a filesystem boundary); `root` is where it stopped. A config found is refused unless trusted.
 */
function findConfig(cwd: string): { found?: Found; root: string } {
  const home = resolve(homedir());
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const file = join(dir, CONFIG_FILE);
    if (existsSync(file)) {
      refuseUntrusted(file);
      return { found: { kind: "file", file }, root: dir };
    }
    const manifest = join(dir, "package.json");
    const text = readIfFile(manifest);
    if (text !== undefined && /"vsk"\s*:/.test(text)) {
      let raw: unknown;
      try {
        raw = JSON.parse(text.replace(/^\uFEFF/, ""));
      } catch {
        const { line, column, problem } = jsonSyntaxError(text.replace(/^\uFEFF/, ""));
        throw new ConfigError(`${shown(manifest)}:${line}:${column}: not valid JSON: ${problem}`);
      }
      if (raw !== null && typeof raw === "object" && "vsk" in raw) {
        refuseUntrusted(manifest);
        return { found: { kind: "package", file: manifest, text, raw: (raw as { vsk: unknown }).vsk }, root: dir };
      }
    }
    if (PROJECT_ROOT_MARKERS.some((m) => existsSync(join(dir, m))) || dirname(dir) === dir || dir === home)
      return { root: dir };
    const device = deviceOf(dir);
    if (device !== undefined && deviceOf(dirname(dir)) !== device) return { root: dir };
  }
}

function readIfFile(file: string): string | undefined {
  try {
    return statSync(file).isFile() ? readFileSync(file, "utf8") : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The project's config: `explicitFile` (`--config`) if given; else the first `vsk.config.json`, or
 * `"vsk"` key of a package.json, in `cwd` or above (up to the package or git root); else the
 * embedded default (the three example models), said through `onExampleModels`.
 */
export function loadConfig(
  cwd: string = process.cwd(),
  explicitFile?: string,
  options: LoadConfigOptions = {},
): VskConfig {
  if (explicitFile === undefined) {
    const { found, root } = findConfig(cwd);
    if (found?.kind === "package") return parseConfig(found.raw, found.file, found.text, "/vsk");
    if (found === undefined) return exampleConfig(cwd, root, options);
    return readConfigFile(found.file, cwd, false);
  }
  return readConfigFile(resolve(cwd, explicitFile), cwd, true);
}

/** No config anywhere: the example models, said once per process (or refused, see `requireConfigIn`). */
function exampleConfig(cwd: string, root: string, options: LoadConfigOptions): VskConfig {
  const searched = root === resolve(cwd) ? shown(root) : `${shown(resolve(cwd))} or above, up to ${shown(root)}`;
  if (options.requireConfigIn !== undefined) {
    const present = ["generated", "schemas-cache"].filter((d) => existsSync(join(cwd, d)));
    if (present.length > 0)
      throw new ConfigError(
        `no ${CONFIG_FILE} (nor a "vsk" key in package.json) in ${searched}, but this directory has ` +
          `${present.map((d) => `${d}/`).join(" and ")}: ${options.requireConfigIn} would use the built-in example models ` +
          `instead of your project's; run it where your ${CONFIG_FILE} is, pass --config FILE, or write one with \`vsk init\``,
      );
  }
  const local = join(cwd, "schemas-cache");
  exampleModelsListener?.(
    `no ${CONFIG_FILE} (nor a "vsk" key in package.json) in ${searched}: using the built-in example models ` +
      `(${describeModels({ models: DEFAULT_MODELS })}); write your own with \`vsk init\``,
  );
  exampleModelsListener = undefined; // once per process (`--watch` loads the config on every run)
  return {
    models: DEFAULT_MODELS.map((m) => ({ ...m })),
    snapshotDir: existsSync(local) ? local : join(PACKAGE_ROOT, "schemas-cache"),
    outDir: join(cwd, "generated"),
  };
}

function readConfigFile(file: string, cwd: string, explicit: boolean): VskConfig {
  const explicitFile = explicit ? file : undefined;
  const name = shown(file);
  let isDirectory: boolean;
  try {
    isDirectory = statSync(file).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") throw new ConfigError(`config file ${name} cannot be read (${code})`);
    throw new ConfigError(`config file ${name} does not exist; check the path, or write one with \`vsk init\``);
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
export function parseConfig(raw: unknown, file: string, text?: string, at = ""): VskConfig {
  const base = dirname(file);
  /** Where a pointer is in the file's text, when known (a courtesy: the pointer alone says where). */
  const position = (pointer: string): { line: number; column: number } | undefined => {
    if (text === undefined) return undefined;
    try {
      return locatePointer(text, pointer);
    } catch {
      return undefined;
    }
  };
  const fail = (inner: string, problem: string): never => {
    const pointer = at + inner; // `/vsk/…` in a package.json
    const where = position(pointer);
    throw new ConfigError(
      `${shown(file)}${where === undefined ? "" : `:${where.line}:${where.column}`} at ${pointer === "" ? "/" : shown(pointer)}: ${problem}`,
    );
  };
  /** What else is wrong, after the first problem: `; also at /a (line 4): …` (at most 5, then how many more). */
  const alsoWrong = (more: ConfigProblem[]): string => {
    if (more.length === 0) return "";
    const each = more.slice(0, 5).map((p) => {
      const line = position(at + p.pointer)?.line;
      return `at ${shown(at + p.pointer)}${line === undefined ? "" : ` (line ${line})`}: ${p.message}`;
    });
    return `; also ${each.join("; ")}${more.length > 5 ? `; and ${more.length - 5} more` : ""}`;
  };
  // every problem at once, the first with its place: a user fixes them in one go, not one per run
  const [problem, ...more] = findConfigProblems(raw);
  if (problem !== undefined) fail(problem.pointer, problem.message + alsoWrong(more));
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
    // the three example models are embedded: a config of them alone (no models key, or a bare
    // `vsk init`'s list, with no schemaUrl) and no snapshot of its own uses that one, so generate
    // works offline (issue 42.3)
    snapshotDir:
      (obj.models === undefined || obj.schemaUrl === undefined) &&
      models.every((m) => DEFAULT_MODELS.some((d) => d.id === m.id)) &&
      resolve(dir("snapshotDir", "schemas-cache")) === resolve(base, "schemas-cache") &&
      !existsSync(join(base, "schemas-cache"))
        ? join(PACKAGE_ROOT, "schemas-cache")
        : dir("snapshotDir", "schemas-cache"),
    outDir: dir("outDir", "generated"),
    ...(obj.lang === undefined ? {} : { lang: obj.lang }),
    file,
  };
}

/** The first of {@link findConfigProblems}; undefined when the config is fine. */
export function findConfigProblem(raw: unknown): ConfigProblem | undefined {
  return findConfigProblems(raw)[0];
}

/**
 * The problems of a parsed config: against the shipped `schemas/config.schema.json`, then, when
 * it conforms, what a schema cannot say (ids and aliases unique, case-insensitive).
 */
export function findConfigProblems(raw: unknown): ConfigProblem[] {
  const problems = checkConfig(raw, configSchema(PACKAGE_ROOT));
  if (problems.length > 0) return problems;
  const obj = raw as RawConfig;
  const models = modelsOf(obj);
  const seen = new Map<string, number>();
  for (const [i, m] of models.entries()) {
    for (const [name, key] of [[m.id, "id"], ...(m.alias ? [[m.alias, "alias"]] : [])] as const) {
      const before = seen.get(name.toLowerCase());
      if (before !== undefined && before !== i)
        problems.push({
          pointer: `/models/${i}${typeof obj.models?.[i] === "string" ? "" : `/${key}`}`,
          message: `${quote(name)} names /models/${before} already; ids and aliases must be unique (case-insensitive): rename or remove one`,
        });
      else seen.set(name.toLowerCase(), i);
    }
  }
  return problems;
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
  lang?: "ts" | "js";
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
