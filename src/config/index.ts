/**
 * Which models vsk works on, where their schemas come from, and where its files go.
 * With no `vsk.config.json` the embedded default applies: the three models of the service
 * spec under placeholder ids (spec 4.1: "The model identifiers are placeholders").
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export interface ModelRef {
  /** `<owner>/<name>` */
  id: string;
  /** a short name accepted wherever a model id is, e.g. `modelA` */
  alias?: string;
  /** which spec model's cross-field rules apply (`modelA`, `modelB`, `modelC`); defaults to the alias */
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
  if (!existsSync(file)) {
    if (explicitFile !== undefined) throw new ConfigError(`config file ${file} does not exist`);
    const local = join(cwd, "schemas-cache");
    return {
      models: DEFAULT_MODELS.map((m) => ({ ...m })),
      snapshotDir: existsSync(local) ? local : join(PACKAGE_ROOT, "schemas-cache"),
      outDir: join(cwd, "generated"),
    };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new ConfigError(`${file}: not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  return parseConfig(raw, file);
}

/** Validates a parsed config object; every problem names the file and the JSON Pointer. */
export function parseConfig(raw: unknown, file: string): VskConfig {
  const base = dirname(file);
  const fail = (pointer: string, problem: string): never => {
    throw new ConfigError(`${file} at ${pointer}: ${problem}`);
  };
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) fail("", "expected a JSON object");
  const obj = raw as Record<string, unknown>;
  const known = new Set(["$schema", "schemaUrl", "models", "snapshotDir", "outDir"]);
  for (const key of Object.keys(obj))
    if (!known.has(key)) fail(`/${key}`, `unknown setting; known: ${[...known].join(", ")}`);
  if (obj.schemaUrl !== undefined && typeof obj.schemaUrl !== "string") fail("/schemaUrl", "expected a string");
  let models: ModelRef[] = DEFAULT_MODELS.map((m) => ({ ...m }));
  if (obj.models !== undefined) {
    if (!Array.isArray(obj.models) || obj.models.length === 0)
      fail("/models", "expected a non-empty array of {id, alias?}");
    models = (obj.models as unknown[]).map((m, i) => {
      const entry = typeof m === "string" ? { id: m } : m;
      if (typeof entry !== "object" || entry === null)
        return fail(`/models/${i}`, "expected {id, alias?} or an id string");
      const { id, alias, rules } = entry as Record<string, unknown>;
      if (typeof id !== "string" || !MODEL_ID.test(id))
        return fail(`/models/${i}/id`, `expected "<owner>/<name>", got ${JSON.stringify(id)}`);
      if (alias !== undefined && (typeof alias !== "string" || alias === ""))
        return fail(`/models/${i}/alias`, "expected a non-empty string");
      if (rules !== undefined && !["modelA", "modelB", "modelC"].includes(rules as string))
        return fail(`/models/${i}/rules`, 'expected "modelA", "modelB" or "modelC"');
      return {
        id,
        ...(alias === undefined ? {} : { alias: alias as string }),
        ...(rules === undefined ? {} : { rules: rules as string }),
      };
    });
  }
  const seen = new Map<string, number>();
  models.forEach((m, i) => {
    for (const name of [m.id.toLowerCase(), ...(m.alias ? [m.alias.toLowerCase()] : [])]) {
      const before = seen.get(name);
      if (before !== undefined && before !== i)
        fail(
          `/models/${i}`,
          `"${name}" names models/${before} already; ids and aliases must be unique (case-insensitive)`,
        );
      seen.set(name, i);
    }
  });
  const dir = (key: "snapshotDir" | "outDir", fallback: string): string => {
    const v = obj[key];
    if (v === undefined) return join(base, fallback);
    if (typeof v !== "string" || v === "") return fail(`/${key}`, "expected a directory path");
    return isAbsolute(v) ? v : join(base, v);
  };
  return {
    ...(typeof obj.schemaUrl === "string" ? { schemaUrl: obj.schemaUrl } : {}),
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

/** Finds a model by id or alias (case-sensitive id, case-insensitive alias). */
export function findModel(config: Pick<VskConfig, "models">, idOrAlias: string): ModelRef | undefined {
  return (
    config.models.find((m) => m.id === idOrAlias) ??
    config.models.find((m) => m.alias !== undefined && m.alias.toLowerCase() === idOrAlias.toLowerCase())
  );
}

export function describeModels(config: Pick<VskConfig, "models">): string {
  return config.models.map((m) => (m.alias ? `${m.id} (${m.alias})` : m.id)).join(", ");
}
