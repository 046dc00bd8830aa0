/** Emits `index.ts`: the endpoint registry and `EndpointTypeMap`, and `endpoints.json` for the linter. */
import type { EndpointModel } from "../schema/index.js";
import { standardProps } from "./standard-props.js";
import type { EndpointNames } from "./names.js";

export interface RegistryEntry {
  endpoint: EndpointModel;
  names: EndpointNames;
  /** snapshot file the endpoint came from, relative to the project, for the manifest */
  snapshotSha256: string;
  /** the ids of the endpoint's cross-field rules */
  rules: readonly string[];
}

/** `importExt` is the extension of relative imports (`.mjs` for `.mts` modules, `.js` for `.ts`). */
export function emitRegistry(entries: readonly RegistryEntry[], header: string, importExt: string): string {
  const lines = [
    header,
    `import { standardResult, type Diagnostic, type StandardSchemaV1 } from "./support${importExt}";`,
  ];
  for (const { names } of entries) {
    lines.push(
      `import { ${names.build}, ${names.defaults}, ${names.inputSchema}, ${names.jsonSchema}, ${names.path}, ${names.validate}, type ${names.input}, type ${names.output} } from "./${names.stem}${importExt}";`,
    );
  }
  lines.push(`export * from "./support${importExt}";`);
  for (const { names } of entries) lines.push(`export * from "./${names.stem}${importExt}";`);
  lines.push(
    "",
    "/**",
    " * Every endpoint of the configured models, keyed by `<owner>/<name>/<endpoint>`. Each entry is",
    " * also a Standard Schema v1 validator (its `~standard` property), for Hono, tRPC and the like,",
    " * and Standard JSON Schema v1 (`~standard.jsonSchema`), for MCP servers and form libraries.",
    " */",
    "export const endpoints = {",
    ...entries.map(
      ({ endpoint: e, names }) =>
        `  ${JSON.stringify(e.key)}: { model: ${JSON.stringify(e.model)}, endpoint: ${JSON.stringify(e.endpoint)}, path: ${names.path}, validate: ${names.validate}, build: ${names.build}, defaults: ${names.defaults}, inputSchema: ${names.inputSchema}, "~standard": ${standardProps(names.input, names.validate, names.jsonSchema)} },`,
    ),
    "} as const;",
    "",
    "/** Input and output types per endpoint key. */",
    "export interface EndpointTypeMap {",
    ...entries.map(
      ({ endpoint: e, names }) => `  ${JSON.stringify(e.key)}: { input: ${names.input}; output: ${names.output} };`,
    ),
    "}",
    "",
    "export type EndpointKey = keyof EndpointTypeMap;",
    "",
    "/** Validates a payload for any endpoint by its key. */",
    "export function validateRequest<K extends EndpointKey>(key: K, input: unknown): Diagnostic[] {",
    "  const entry = (endpoints as Record<string, { validate(input: unknown): Diagnostic[] } | undefined>)[key];",
    "  if (entry === undefined || !Object.prototype.hasOwnProperty.call(endpoints, key)) {",
    '    throw new Error(`unknown endpoint "${String(key)}"; known: ${Object.keys(endpoints).join(", ")}`);',
    "  }",
    "  return entry.validate(input);",
    "}",
    "",
  );
  return lines.join("\n");
}

/**
 * What `vsk lint` reads to find the validators without loading any TypeScript, and the rules
 * each endpoint gets. `validatorExt` is the validator modules' extension (`.mts` or `.js`).
 */
export function emitEndpointManifest(entries: readonly RegistryEntry[], validatorExt: string): string {
  const manifest = {
    generatedBy: "vsk generate",
    endpoints: entries.map(({ endpoint: e, names, snapshotSha256, rules }) => ({
      key: e.key,
      model: e.model,
      endpoint: e.endpoint,
      path: e.queuePath,
      validator: `${names.stem}.validate${validatorExt}`,
      editorSchema: `${names.stem}.schema.json`,
      rules,
      snapshotSha256,
    })),
  };
  return JSON.stringify(manifest, null, 2) + "\n";
}
