/** Emits `index.ts`: the endpoint registry and `EndpointTypeMap`, and `endpoints.json` for the linter. */
import type { EndpointModel } from "../schema/index.js";
import type { EndpointNames } from "./names.js";

export interface RegistryEntry {
  endpoint: EndpointModel;
  names: EndpointNames;
  /** snapshot file the endpoint came from, relative to the project, for the manifest */
  snapshotSha256: string;
}

export function emitRegistry(entries: readonly RegistryEntry[], header: string): string {
  const lines = [header, `import type { Diagnostic } from "./support.js";`];
  for (const { names } of entries) {
    lines.push(
      `import { ${names.build}, ${names.defaults}, ${names.inputSchema}, ${names.path}, ${names.validate}, type ${names.input}, type ${names.output} } from "./${names.stem}.js";`,
    );
  }
  lines.push(`export * from "./support.js";`);
  for (const { names } of entries) lines.push(`export * from "./${names.stem}.js";`);
  lines.push(
    "",
    "/** Every endpoint of the configured models, keyed by `<owner>/<name>/<endpoint>`. */",
    "export const endpoints = {",
    ...entries.map(
      ({ endpoint: e, names }) =>
        `  ${JSON.stringify(e.key)}: { model: ${JSON.stringify(e.model)}, endpoint: ${JSON.stringify(e.endpoint)}, path: ${names.path}, validate: ${names.validate}, build: ${names.build}, defaults: ${names.defaults}, inputSchema: ${names.inputSchema} },`,
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

/** What `vsk lint` reads to find validators without loading any TypeScript. */
export function emitEndpointManifest(entries: readonly RegistryEntry[]): string {
  const manifest = {
    generatedBy: "vsk generate",
    endpoints: entries.map(({ endpoint: e, names, snapshotSha256 }) => ({
      key: e.key,
      model: e.model,
      endpoint: e.endpoint,
      path: e.queuePath,
      validator: `${names.stem}.validate.js`,
      snapshotSha256,
    })),
  };
  return JSON.stringify(manifest, null, 2) + "\n";
}
