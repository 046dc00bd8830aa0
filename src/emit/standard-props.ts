/**
 * The generated `~standard` object's code, which the endpoint modules (builders.ts) and the
 * registry (registry.ts) both write: a file of its own, so that the registry does not load
 * ts-morph with the builders (`vsk generate --help` and `--check` load the registry).
 */
import { DEFAULT_MAX_FINDINGS } from "../diagnostics/index.js";

/**
 * The `~standard` property of an endpoint (Standard Schema v1, issue 27), as code: its own
 * synchronous `validate` around the endpoint's validator, `types` declaring its Input, and
 * `jsonSchema`, the endpoint module's Standard JSON Schema converter (issue 42.2).
 */
export function standardProps(input: string, validator: string, jsonSchema: string): string {
  return `{ version: 1, vendor: "video-schema-kit", validate: (value: unknown) => standardResult<${input}>(value, ${validator}(value, { max: ${DEFAULT_MAX_FINDINGS}, errorsOnly: true })), types: undefined as StandardSchemaV1.Types<${input}> | undefined, jsonSchema: ${jsonSchema} }`;
}
