/**
 * The generated validators the linter runs, found through `endpoints.json` of the generated
 * directory and imported only when a payload needs them: JavaScript output as it is, the
 * package's own models from its build (dist/generated), TypeScript output through its
 * JavaScript build in the lint cache (compiled.ts). No schema is compiled at run time.
 */
import { describeEndpoints, type EndpointCatalog } from "./resolve.js";
import { existsSync } from "node:fs";
import { readHead, readRegularFile, SpecialFileError } from "../durable/index.js";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  distrust,
  findModel,
  PACKAGE_ROOT,
  trustHint,
  withholdConfiguredKey,
  type ModelRef,
  type VskConfig,
} from "../config/index.js";
// the reader alone, not the index: the index also loads the schema stage, which lint never needs
import { readSnapshotFile, SnapshotError } from "../snapshot/read.js";
import type { Diagnostic, FindingLimit } from "../diagnostics/index.js";
import { CompiledValidators } from "./compiled.js";

export interface EndpointEntry {
  key: string;
  model: string;
  endpoint: string;
  path: string;
  validator: string;
  /** the request body's editor schema, relative to the generated directory */
  editorSchema?: string;
  /** the ids of the endpoint's cross-field rules */
  rules?: string[];
  snapshotSha256: string;
}

/** A generated validator; `limit` (src/rules/check.ts `diagnose`) is ignored by one generated before it was known. */
export type Validate = (input: unknown, limit?: FindingLimit) => Diagnostic[];

/** endpoints.json and each validator are far smaller; a bigger file is refused unread. */
const MAX_REGISTRY_BYTES = 64 * 1024 * 1024;

export class RegistryError extends Error {
  override name = "RegistryError";
}

export interface ValidatorRegistry extends EndpointCatalog {
  dir: string;
  entries: ReadonlyMap<string, EndpointEntry>;
  models: readonly ModelRef[];
  /** the loaded validator for a key, or a promise of it the first time */
  validator(key: string): Validate | Promise<Validate>;
  /** the same by model id and endpoint name: with the registry's own strings (resolvePayload's), a lookup hashes nothing new */
  validatorOf(model: string, endpoint: string): Validate | Promise<Validate>;
  /** the JavaScript module a key's validator is imported from (compiled into the lint cache first when needed): what `--jobs` workers import */
  moduleFile(key: string): Promise<string>;
  /** a warning when the generated validators are older than the snapshot, else undefined */
  staleness(snapshotDir: string): string | undefined;
  /** what lint compiled into its cache in this run, to say so once, or undefined */
  compiledNote(): string | undefined;
  /** why lint did not use its cache this run (another user's, writable by others: compiled.ts), or undefined */
  cacheWarning(): string | undefined;
}

/** Where the validators of the configured models are: the config's outDir, else the package's own. */
export function generatedDirFor(config: VskConfig): string {
  if (config.file !== undefined || existsSync(join(config.outDir, "endpoints.json"))) return config.outDir;
  return join(PACKAGE_ROOT, "generated");
}

export function openRegistry(config: VskConfig): ValidatorRegistry {
  const dir = generatedDirFor(config);
  const manifestFile = join(dir, "endpoints.json");
  if (!existsSync(manifestFile))
    throw new RegistryError(
      `no generated validators in ${dir} (endpoints.json is missing); run \`vsk generate\` first`,
    );
  let parsed: { endpoints?: EndpointEntry[] };
  try {
    // never a FIFO or a 600 MB file: refused unread (readRegularFile)
    parsed = JSON.parse(readRegularFile(manifestFile, MAX_REGISTRY_BYTES).toString("utf8")) as {
      endpoints?: EndpointEntry[];
    };
  } catch (error) {
    if (error instanceof SpecialFileError) throw new RegistryError(`${error.message}; run \`vsk generate\` again`);
    throw new RegistryError(
      `${manifestFile} is not valid JSON (${error instanceof Error ? error.message : String(error)}); run \`vsk generate\` again`,
    );
  }
  const entries = new Map<string, EndpointEntry>();
  for (const e of parsed.endpoints ?? []) entries.set(e.key, e);
  // lint imports code from here: never another user's, nor one others may write (issue 38.1,
  // src/config/trust.ts); the package's own validators are part of the code running
  const own = dir === join(PACKAGE_ROOT, "generated");
  const untrusted = (path: string): RegistryError | undefined => {
    const why = own ? undefined : distrust(path);
    return why === undefined
      ? undefined
      : new RegistryError(
          `lint does not import the validators in ${path}: ${why}; lint runs only code owned by you or root that no one else may write, ` +
            `in a directory not everyone may write; ${trustHint(path, false)}, or run \`vsk generate\` into a directory of your own`,
        );
  };
  // the directory and every validator file it lists (all moduleFile is asked for), before any other word about them
  const files = [...entries.values()].flatMap((e) => (typeof e.validator === "string" ? [join(dir, e.validator)] : []));
  for (const path of [dir, ...files]) {
    const refused = untrusted(path);
    if (refused !== undefined) throw refused;
  }
  // the package's own models are built with it (dist/generated); TypeScript elsewhere goes through the lint cache
  const ownBuild = dir === join(PACKAGE_ROOT, "generated") ? join(PACKAGE_ROOT, "dist", "generated") : undefined;
  let compiled: CompiledValidators | undefined;
  const moduleFile = async (validator: string): Promise<string> => {
    if (!/\.m?ts$/.test(validator)) return join(dir, validator);
    if (ownBuild !== undefined) return join(ownBuild, validator.replace(/\.m?ts$/, ".mjs"));
    try {
      compiled ??= new CompiledValidators(dir);
      const found = compiled.locate(validator);
      return found.ready ? found.file : await compiled.build(validator);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === undefined) throw error;
      throw new RegistryError(
        code === "ENOENT"
          ? `${dir} is missing generated files (${validator} or the support modules it imports); run \`vsk generate\` again`
          : `cannot write the JavaScript build of the validators of ${dir} for lint (${code}); make ${compiled?.cacheRoot ?? "node_modules/.cache"} writable`,
      );
    }
  };
  const lookup = validatorLookup(dir, entries, config.models, moduleFile);
  return {
    ...lookup,
    cacheWarning: () => compiled?.refused,
    compiledNote() {
      if (compiled === undefined || compiled.compiled === 0) return undefined;
      return `compiled ${compiled.compiled} TypeScript validator${compiled.compiled === 1 ? "" : "s"} of ${dir} for lint into ${compiled.cacheRoot} (once per change; \`vsk generate\` does it too)`;
    },
    staleness(snapshotDir) {
      const stale = new Set<string>();
      const unreadable: string[] = [];
      for (const e of entries.values()) {
        const file = join(snapshotDir, e.model, "latest.json");
        if (!existsSync(file)) continue;
        try {
          // the bytes on disk, as `generate` records them (readSnapshot), so a file that is not UTF-8 is not always stale
          if (readSnapshotFile(file).sha256 !== e.snapshotSha256) stale.add(e.model);
        } catch (error) {
          // a FIFO or a 600 MB file there is refused unread: said, and linting goes on
          if (!(error instanceof SnapshotError)) throw error;
          unreadable.push(error.message);
        }
      }
      const notes = [
        ...(stale.size === 0
          ? []
          : [
              `the generated validators in ${dir} are older than the snapshot of ${[...stale].join(", ")}; run \`vsk generate\``,
            ]),
        ...unreadable.map((m) => `cannot tell whether the generated validators are up to date: ${m}`),
      ];
      return notes.length === 0 ? undefined : notes.join("\nvsk: warning: ");
    },
  };
}

/**
 * The registry's lookups over a manifest's entries, each validator imported from the module file
 * `moduleFile` names: the main thread's (openRegistry) and a `--jobs` worker's (src/lint/worker.ts,
 * given the files the main thread resolved), so both run the very same validator modules.
 */
export function validatorLookup(
  dir: string,
  entries: ReadonlyMap<string, EndpointEntry>,
  models: readonly ModelRef[],
  moduleFile: (validator: string) => Promise<string>,
): Omit<ValidatorRegistry, "staleness" | "compiledNote" | "cacheWarning"> {
  // the validators' findings never show the configured key, in this thread or a worker (issue S1)
  withholdConfiguredKey();
  /** model → endpoint → the validator, or the promise of it while it loads (keyed by the registry's own strings) */
  const loaded = new Map<string, Map<string, Validate | Promise<Validate>>>();
  const endpointsByModel = new Map<string, string[]>();
  for (const e of entries.values())
    endpointsByModel.set(e.model, [...(endpointsByModel.get(e.model) ?? []), e.endpoint]);
  const modelIds = [...endpointsByModel.keys()];
  const endpointsOf = (model: string): readonly string[] => endpointsByModel.get(model) ?? [];
  const resolved = new Map<string, string | undefined>();
  const validatorOf = (model: string, endpoint: string): Validate | Promise<Validate> => {
    let byEndpoint = loaded.get(model);
    if (byEndpoint === undefined) loaded.set(model, (byEndpoint = new Map()));
    const known = byEndpoint.get(endpoint);
    if (known !== undefined) return known;
    const entry = entries.get(`${model}/${endpoint}`);
    if (!entry) throw new RegistryError(`no generated validator for ${model}/${endpoint}`);
    const loading = moduleFile(entry.validator)
      .then((file) => {
        try {
          readHead(file, 0, MAX_REGISTRY_BYTES); // importing a FIFO would hang
        } catch (error) {
          if (error instanceof SpecialFileError)
            throw new RegistryError(`${error.message}; run \`vsk generate\` again`);
        }
        return import(pathToFileURL(file).href);
      })
      .then((module: { validate: Validate }) => {
        byEndpoint.set(endpoint, module.validate); // from now on the function itself, not a promise
        return module.validate;
      });
    byEndpoint.set(endpoint, loading);
    return loading;
  };
  return {
    dir,
    entries,
    models,
    modelIds,
    resolveModel(idOrAlias) {
      // remembered: a log names the same few models a million times
      if (resolved.has(idOrAlias)) return resolved.get(idOrAlias);
      const configured = findModel({ models }, idOrAlias);
      const id = configured ? configured.id : endpointsByModel.has(idOrAlias) ? idOrAlias : undefined;
      if (resolved.size < 256) resolved.set(idOrAlias, id);
      return id;
    },
    endpointsOf,
    validatorOf,
    validator(key) {
      const entry = entries.get(key);
      if (!entry) throw new RegistryError(`no generated validator for ${key}`);
      return validatorOf(entry.model, entry.endpoint);
    },
    moduleFile(key) {
      const entry = entries.get(key);
      if (!entry) throw new RegistryError(`no generated validator for ${key}`);
      return moduleFile(entry.validator);
    },
    describe: () => describeEndpoints(modelIds, endpointsOf, (id) => models.find((m) => m.id === id)?.alias),
  };
}
