/**
 * Stage 4, emit: from the loaded snapshot, every file of `generated/` (types, builders,
 * precompiled validators, support code, the registry), prettier-formatted and deterministic:
 * the same snapshot gives byte-identical files.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_ROOT, type ModelRef } from "../config/index.js";
import { rulesFor } from "../rules/index.js";
import type { EndpointModel, JsonSchemaObject } from "../schema/index.js";
import { endpointNames, relativeImport } from "./names.js";
import { emitEndpointManifest, emitRegistry, type RegistryEntry } from "./registry.js";
import { simplifySchema } from "./simplify.js";
import { createAjv, needsOwnProperties } from "../rules/index.js";
import { EmitConfigError, EmitError, emitValidator } from "./validator.js";

export { EmitConfigError, EmitError, emitValidator } from "./validator.js";
/** Re-exported for callers of this stage; the configuration lives in src/rules. */
export { createAjv, needsOwnProperties } from "../rules/index.js";
export { simplifySchema } from "./simplify.js";
export { compareWithDisk, writeGenerated, type Staleness } from "./write.js";
/**
 * ts-morph and json-schema-to-typescript take about a second to import; they are loaded only
 * when files are generated, so that drift and lint can use `createAjv` from here cheaply.
 */
export async function emitTypes(...args: Parameters<typeof import("./types.js").emitTypes>): Promise<string> {
  return (await import("./types.js")).emitTypes(...args);
}

export interface GeneratedFile {
  /** path relative to the output directory, `/`-separated */
  path: string;
  content: string;
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

/** Where the support module imports the runtime's URL redaction from, in dist/ and in generated/. */
const REDACT_IN_DIST = "../src/runtime/redact.js";
const REDACT_GENERATED = "./redact.js";

/**
 * The support module (compiled by the package build from templates/support.ts) and the runtime's
 * URL redaction it imports, copied side by side so that generated code needs nothing else.
 */
export function supportFiles(head: string): GeneratedFile[] {
  const read = (file: string): string => {
    const path = join(PACKAGE_ROOT, "dist", file);
    if (!existsSync(path)) throw new Error(`${path} is missing: build the package first (npm run build)`);
    return (
      readFileSync(path, "utf8")
        .replace(/^\/\/# sourceMappingURL=.*$/m, "")
        .trimEnd() + "\n"
    );
  };
  const relink = (text: string): string =>
    text.split(JSON.stringify(REDACT_IN_DIST)).join(JSON.stringify(REDACT_GENERATED));
  return [
    { path: "support.js", content: `${head}\n${relink(read("templates/support.js"))}` },
    { path: "support.d.ts", content: `${head}\n${relink(read("templates/support.d.ts"))}` },
    { path: "redact.js", content: `${head}\n${read("src/runtime/redact.js")}` },
    { path: "redact.d.ts", content: `${head}\n${read("src/runtime/redact.d.ts")}` },
  ];
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

async function format(files: GeneratedFile[]): Promise<GeneratedFile[]> {
  const prettier = await import("prettier");
  return Promise.all(
    files.map(async (f) => {
      if (!/\.(ts|js)$/.test(f.path)) return f;
      const parser = f.path.endsWith(".ts") ? "typescript" : "babel";
      try {
        return { ...f, content: await prettier.format(f.content, { parser, printWidth: 110 }) };
      } catch (error) {
        const message = (error instanceof Error ? error.message : String(error)).split("\n")[0];
        throw new EmitError(
          `${f.path}: the generated code does not parse (a bug in vsk, please report it): ${message}`,
        );
      }
    }),
  );
}

/** Every generated file for the given models, in a stable order. */
export async function generateFiles(models: readonly EmitInput[]): Promise<GeneratedFile[]> {
  const [{ emitBuilders }, { emitTypes }] = await Promise.all([import("./builders.js"), import("./types.js")]);
  const ajvs = new Map<boolean, ReturnType<typeof createAjv>>();
  const ajvFor = (schema: JsonSchemaObject) => {
    const own = needsOwnProperties(schema);
    if (!ajvs.has(own)) ajvs.set(own, createAjv({ ownProperties: own }));
    return ajvs.get(own)!;
  };
  const files: GeneratedFile[] = [];
  const registry: RegistryEntry[] = [];
  const taken = new Map<string, string>();
  const indexHead = header(models.map((m) => m.sourceLabel).join(", "));
  files.push(...supportFiles(indexHead));
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
      const validatorFile = `${stem}.validate.js`;
      const support = relativeImport(validatorFile, "support.js");
      const rules = rulesFor(endpoint, model.ref);
      const schema = simplifySchema(endpoint.input);
      const validator = emitValidator(ajvFor(schema), schema, rules, support, head, `${endpoint.key} input`);
      const inputTypes = await typesOf(emitTypes, endpoint.input, names.input, `${endpoint.key} input`);
      const outputTypes = await typesOf(emitTypes, endpoint.output, names.output, `${endpoint.key} output`);
      files.push(
        { path: validatorFile, content: validator.js },
        { path: `${stem}.validate.d.ts`, content: validator.dts },
        { path: `${stem}.types.ts`, content: `${head}\n${inputTypes}\n${outputTypes}` },
        {
          path: `${stem}.ts`,
          content: emitBuilders(
            endpoint,
            names,
            { support, validator: `./${endpoint.endpoint}.validate.js`, types: `./${endpoint.endpoint}.types.js` },
            head,
          ),
        },
      );
      registry.push({ endpoint, names, snapshotSha256: model.sha256 });
    }
  }
  files.push({ path: "index.ts", content: emitRegistry(registry, indexHead) });
  files.push({ path: "endpoints.json", content: emitEndpointManifest(registry) });
  const formatted = await format(files);
  return formatted.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
