/** Names of generated files and exports, derived from model and endpoint ids. */
import type { ModelRef } from "../config/index.js";
import type { EndpointModel } from "../schema/index.js";

/** `keyframes-to-video` → `KeyframesToVideo`; `modelA` → `ModelA`; digits first get a `M` prefix. */
export function pascalCase(text: string): string {
  const words = text.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const joined = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join("");
  return /^[0-9]/.test(joined) ? `M${joined}` : joined || "Model";
}

export interface EndpointNames {
  /** e.g. `ModelAKeyframesToVideo` */
  base: string;
  input: string;
  output: string;
  validate: string;
  build: string;
  safeBuild: string;
  defaults: string;
  inputSchema: string;
  /** the endpoint as a Standard Schema v1 validator (issue 27) */
  standardSchema: string;
  /** its Standard JSON Schema converter, the `~standard.jsonSchema` (issue 42.2) */
  jsonSchema: string;
  path: string;
  /** file stem relative to the output directory, e.g. `example/model-a/keyframes-to-video` */
  stem: string;
}

export function endpointNames(endpoint: EndpointModel, ref: ModelRef): EndpointNames {
  const base = pascalCase(ref.alias ?? endpoint.name) + pascalCase(endpoint.endpoint);
  const lower = base[0]!.toLowerCase() + base.slice(1);
  return {
    base,
    input: `${base}Input`,
    output: `${base}Output`,
    validate: `validate${base}`,
    build: `build${base}`,
    safeBuild: `safeBuild${base}`,
    defaults: `${lower}Defaults`,
    inputSchema: `${lower}InputSchema`,
    standardSchema: `${lower}StandardSchema`,
    jsonSchema: `${lower}JsonSchema`,
    path: `${lower}Path`,
    stem: `${endpoint.owner}/${endpoint.name}/${endpoint.endpoint}`,
  };
}

/** A relative import specifier from one generated file to another (both relative to outDir). */
export function relativeImport(fromFile: string, toFile: string): string {
  const from = fromFile.split("/").slice(0, -1);
  const to = toFile.split("/");
  let common = 0;
  while (common < from.length && common < to.length - 1 && from[common] === to[common]) common++;
  const up = from.length - common;
  const rest = to.slice(common).join("/");
  return up === 0 ? `./${rest}` : `${"../".repeat(up)}${rest}`;
}
