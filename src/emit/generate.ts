/** Generates every file of `generated/` from the loaded snapshot: the per-endpoint files, the support modules, the registry and the client, in generate's prettier layout. */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_ROOT, type ModelRef } from "../config/index.js";
import { crossFieldRuleIds, overrideProblem, rulesFor, type RuleSpec } from "../rules/index.js";
import type { EndpointModel, JsonSchemaObject } from "../schema/index.js";
import { clientFiles } from "./client.js";
import { emitEditorSchema } from "./editor-schema.js";
import { endpointNames, relativeImport, type EndpointNames } from "./names.js";
import { emitEndpointManifest, emitRegistry, type RegistryEntry } from "./registry.js";
import { simplifySchema } from "./simplify.js";
import { createAjv, needsOwnProperties } from "../rules/index.js";
import { EmitConfigError, EmitError, emitValidator } from "./validator.js";
import { findUnsafePattern, MAX_SCHEMA_DEPTH, protoAsPatternProperty, tooDeep } from "./hostile-shapes.js";
import { quote } from "../words/index.js";
import type { GeneratedFile } from "./generated-file.js";
import { format, type FormatCache } from "./format.js";

/**
 * ts-morph and json-schema-to-typescript take about a second to import; they are loaded only
 * when files are generated, so that drift and lint can use `createAjv` from here cheaply.
 */
export async function emitTypes(...args: Parameters<typeof import("./types.js").emitTypes>): Promise<string> {
  return (await import("./types.js")).emitTypes(...args);
}

export interface EmitInput {
  ref: ModelRef;
  /** the snapshot file, for the header (relative paths keep the output machine-independent) */
  sourceLabel: string;
  sha256: string;
  endpoints: readonly EndpointModel[];
}

let headerTemplate: string | undefined;
function header(source: string): string {
  headerTemplate ??= readFileSync(join(PACKAGE_ROOT, "templates", "header.txt"), "utf8").trimEnd();
  return headerTemplate.replace("{{source}}", source);
}

/** The language of the generated code: TypeScript modules, or ESM JavaScript with declarations. */
export type Lang = "ts" | "js";

export interface GenerateOptions {
  /** `ts` (default): `.mts` modules the consumer's own `tsc` or bundler compiles; `js`: `.js` + `.d.ts` */
  lang?: Lang;
  /** formatted modules remembered by content (src/emit/format.ts); without one, prettier formats every module */
  formatCache?: FormatCache;
}

/**
 * File extensions per language. TypeScript output is `.mts`, imported as `.mjs`: an ES module
 * whatever the consumer's package type and module settings (`nodenext` in an ESM or a CommonJS
 * package, `preserve` + `bundler`), which a `.ts` file is not (under `nodenext` in a CommonJS
 * package it is CommonJS, where `verbatimModuleSyntax` forbids `import`). The JavaScript output
 * is compiled from `.ts` sources that import `.js`.
 */
const EXTENSIONS: Record<Lang, { source: string; import: string }> = {
  ts: { source: ".mts", import: ".mjs" },
  js: { source: ".ts", import: ".js" },
};

/** The support module's only relative import in the embedded source (scripts/embed.mjs). */
const REDACT_IMPORT = '"./redact.js"';

/**
 * The support module (src/diagnostics/ and every rule kind's check, assembled by the
 * package build into dist/embed/) and the runtime's URL redaction it imports, as TypeScript
 * modules side by side, so that generated code needs nothing else.
 */
export function supportFiles(head: string, lang: Lang = "ts"): GeneratedFile[] {
  const ext = EXTENSIONS[lang];
  const read = (file: string): string => {
    const path = join(PACKAGE_ROOT, "dist", "embed", file);
    if (!existsSync(path)) throw new Error(`${path} is missing: build the package first (npm run build)`);
    return readFileSync(path, "utf8").trimEnd() + "\n";
  };
  const support = read("support.ts");
  if (!support.includes(REDACT_IMPORT)) throw new Error(`dist/embed/support.ts does not import ${REDACT_IMPORT}`);
  return [
    {
      path: `support${ext.source}`,
      content: `${head}\n${support.split(REDACT_IMPORT).join(JSON.stringify(`./redact${ext.import}`))}`,
    },
    { path: `redact${ext.source}`, content: `${head}\n${read("redact.ts")}` },
  ];
}

/** Per endpoint: its key and the ids of the cross-field rules it gets (what `generate` prints). */
export interface EndpointRules {
  key: string;
  rules: string[];
}

/**
 * Every endpoint's rules, decided from its shape (or its model's `rules` override, which must
 * fit: an `EmitConfigError` otherwise, naming the model, the rule and the missing field).
 */
export function endpointRules(models: readonly EmitInput[]): Array<EndpointRules & { specs: RuleSpec[] }> {
  const out: Array<EndpointRules & { specs: RuleSpec[] }> = [];
  for (const model of models) {
    const problem = overrideProblem(model.endpoints, model.ref);
    if (problem !== undefined) throw new EmitConfigError(problem);
    for (const endpoint of model.endpoints) {
      const specs = rulesFor(endpoint, model.ref);
      out.push({ key: endpoint.key, rules: crossFieldRuleIds(specs), specs });
    }
  }
  return out;
}

/**
 * Per endpoint: its key, the module stem (relative to outDir) and the names it exports (what
 * `generate` prints, issue 42.3): `build` + PascalCase(alias, else the model's name) +
 * PascalCase(endpoint), see `endpointNames`.
 */
export function endpointExports(models: readonly EmitInput[]): Array<{ key: string; names: EndpointNames }> {
  return models.flatMap((model) =>
    model.endpoints.map((endpoint) => ({ key: endpoint.key, names: endpointNames(endpoint, model.ref) })),
  );
}

/** json-schema-to-typescript's failures become an `EmitError` that names the endpoint. */
async function typesOf(
  emit: typeof import("./types.js").emitTypes,
  schema: JsonSchemaObject,
  name: string,
  what: string,
): Promise<string> {
  try {
    return await emit(schema, name, name);
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).split("\n")[0];
    throw new EmitError(`${what}: the type generator (json-schema-to-typescript) cannot read the schema: ${message}`);
  }
}

/**
 * Our own fixed prettier options, every one stated: `prettier.format` reads no config file and
 * no `.editorconfig` (only `resolveConfig` does), so the consumer's settings never reach the
 * output, and a prettier default changing in a later version does not either.
 */
/** One Ajv per option set (a `__proto__` field needs own-property checks), shared by a run's endpoints. */
export function ajvCache(): (schema: JsonSchemaObject) => ReturnType<typeof createAjv> {
  const ajvs = new Map<boolean, ReturnType<typeof createAjv>>();
  return (schema) => {
    const own = needsOwnProperties(schema);
    if (!ajvs.has(own)) ajvs.set(own, createAjv({ ownProperties: own }));
    return ajvs.get(own)!;
  };
}

/**
 * One endpoint's validator module (TypeScript, not yet formatted), or an `EmitConfigError` for a
 * schema vsk refuses to compile: what `generate` writes as `<endpoint>.validate.mts` and
 * `vsk udf` (src/udf) turns into warehouse JavaScript.
 */
export function endpointValidator(
  endpoint: EndpointModel,
  specs: readonly RuleSpec[],
  ajvFor: (schema: JsonSchemaObject) => ReturnType<typeof createAjv>,
  support: string,
  head: string,
): string {
  const unsafe = findUnsafePattern(endpoint.input);
  if (unsafe !== undefined)
    throw new EmitConfigError(
      `${endpoint.key} input: the pattern ${quote(unsafe.pattern)} at ${unsafe.pointer} can take exponential time on a hostile string (${unsafe.reason}), so vsk generates no validator with it; ask the schema's publisher for a pattern without nested repetition`,
    );
  const deep = tooDeep(endpoint.input);
  if (deep !== undefined)
    throw new EmitConfigError(
      `${endpoint.key} input: the schema is nested more than ${MAX_SCHEMA_DEPTH} levels deep (at ${deep}), deeper than the generated validator can be compiled; vsk generates nothing for it`,
    );
  const schema = simplifySchema(endpoint.input);
  // the Ajv options follow the schema as published (a `__proto__` field needs own-property checks)
  return emitValidator(ajvFor(schema), protoAsPatternProperty(schema), specs, support, head, `${endpoint.key} input`);
}

/** Every generated file for the given models, in a stable order. */
export async function generateFiles(
  models: readonly EmitInput[],
  options: GenerateOptions = {},
): Promise<GeneratedFile[]> {
  const lang = options.lang ?? "ts";
  const ext = EXTENSIONS[lang];
  const [{ emitBuilders }, { emitTypes }] = await Promise.all([import("./builders.js"), import("./types.js")]);
  const ajvFor = ajvCache();
  const rulesByKey = new Map(endpointRules(models).map((e) => [e.key, e]));
  const files: GeneratedFile[] = [];
  const registry: RegistryEntry[] = [];
  const editorSchemas: GeneratedFile[] = [];
  const taken = new Map<string, string>();
  const paths = new Map<string, { key: string; path: string }>();
  const indexHead = header(models.map((m) => m.sourceLabel).join(", "));
  files.push(...supportFiles(indexHead, lang));
  for (const model of models) {
    const head = header(model.sourceLabel);
    for (const endpoint of model.endpoints) {
      const names = endpointNames(endpoint, model.ref);
      const clash = taken.get(names.base);
      if (clash !== undefined) {
        throw new EmitConfigError(
          `${endpoint.key} and ${clash} would both generate ${names.build}(); give one of the models an alias in vsk.config.json (models[].alias)`,
        );
      }
      taken.set(names.base, endpoint.key);
      const stem = names.stem;
      const validatorFile = `${stem}.validate${ext.source}`;
      const support = relativeImport(validatorFile, `support${ext.import}`);
      const rules = rulesByKey.get(endpoint.key)!;
      const validator = endpointValidator(endpoint, rules.specs, ajvFor, support, head);
      const inputTypes = await typesOf(emitTypes, endpoint.input, names.input, `${endpoint.key} input`);
      const outputTypes = await typesOf(emitTypes, endpoint.output, names.output, `${endpoint.key} output`);
      files.push(
        { path: validatorFile, content: validator },
        { path: `${stem}.types${ext.source}`, content: `${head}\n${inputTypes}\n${outputTypes}` },
        {
          path: `${stem}${ext.source}`,
          content: emitBuilders(
            endpoint,
            names,
            {
              support,
              validator: `./${endpoint.endpoint}.validate${ext.import}`,
              types: `./${endpoint.endpoint}.types${ext.import}`,
            },
            head,
            rules.specs,
          ),
        },
      );
      // JSON, whatever the language: added after the compile step
      editorSchemas.push({ path: `${stem}.schema.json`, content: emitEditorSchema(endpoint, rules.specs) });
      registry.push({ endpoint, names, snapshotSha256: model.sha256, rules: rules.rules });
      // `x` and `x.types` (or `X` and `x` on a case-insensitive disk) would write the same file
      for (const file of files.slice(-3)) {
        const folded = file.path.toLowerCase();
        const other = paths.get(folded);
        if (other !== undefined)
          throw new EmitConfigError(
            `${endpoint.key} and ${other.key} would both write ${file.path}${other.path === file.path ? "" : ` (${other.path} on a case-insensitive disk)`}; vsk cannot generate both endpoints into one directory`,
          );
        paths.set(folded, { key: endpoint.key, path: file.path });
      }
    }
  }
  files.push({ path: `index${ext.source}`, content: emitRegistry(registry, indexHead, ext.import) });
  // the client names each endpoint's module, so it follows the registry (the list is sorted below)
  files.push(...clientFiles(indexHead, ext, registry));
  // ts-morph is loaded anyway for the builders; the compile step only for `--lang js`
  const sources = lang === "js" ? await (await import("./compile.js")).compileToJavaScript(files) : files;
  sources.push(...editorSchemas);
  sources.push({ path: "endpoints.json", content: emitEndpointManifest(registry, lang === "js" ? ".js" : ext.source) });
  const formatted = await format(sources, options.formatCache);
  return formatted.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
