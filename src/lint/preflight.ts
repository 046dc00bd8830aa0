/**
 * `vsk lint --preflight` (issue 26): the files each payload references, checked by the preflight
 * stage (src/preflight, docs/preflight.md) after the payload's own validation. One run for the
 * whole lint: each distinct URL fetched once, one limit per host, one deadline. Loaded only with
 * --preflight, so plain lint neither imports it nor makes any network request.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Diagnostic } from "../diagnostics/index.js";
import type { PreflightOptions, PreflightRun } from "../preflight/index.js";
import type { JsonSchemaObject } from "../schema/index.js";
import type { ValidatorRegistry } from "./registry.js";

/** Extra diagnostics of a resolved payload (pointers relative to its request body). */
export type PayloadCheck = (model: string, endpoint: string, input: unknown) => Promise<Diagnostic[]>;

export interface LintPreflight {
  check: PayloadCheck;
  /** `{ urls, requests, bytes }` so far, for the progress line */
  stats: PreflightRun["stats"];
  close(): Promise<void>;
}

/** The editor schema's size cap: far above any generated one. */
const MAX_SCHEMA_BYTES = 16 * 1024 * 1024;

export async function lintPreflight(registry: ValidatorRegistry, options: PreflightOptions): Promise<LintPreflight> {
  const { createPreflight } = await import("../preflight/index.js");
  const run = createPreflight(options);
  // the endpoint's request-body schema tells which fields reference files; without one readable,
  // the spec's field names alone (docs/preflight.md "Which fields")
  const schemas = new Map<string, JsonSchemaObject | undefined>();
  const schemaOf = (key: string): JsonSchemaObject | undefined => {
    if (schemas.has(key)) return schemas.get(key);
    let schema: JsonSchemaObject | undefined;
    const file = registry.entries.get(key)?.editorSchema;
    if (file !== undefined)
      try {
        const text = readFileSync(resolve(registry.dir, file), "utf8");
        if (text.length <= MAX_SCHEMA_BYTES) schema = JSON.parse(text) as JsonSchemaObject;
      } catch {
        schema = undefined;
      }
    schemas.set(key, schema);
    return schema;
  };
  return {
    async check(model, endpoint, input) {
      if (typeof input !== "object" || input === null || Array.isArray(input)) return []; // the schema said so
      const key = `${model}/${endpoint}`;
      return run.check(key, input, { inputSchema: schemaOf(key) });
    },
    stats: () => run.stats(),
    close: () => run.close(),
  };
}
