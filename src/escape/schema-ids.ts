/**
 * The one host of every JSON Schema the package publishes (`schemas/*.schema.json`): a JSON
 * report's `$schema` is `<host>/<name>.schema.json`, the `$id` of the file that describes it.
 */
export const SCHEMA_HOST = "https://video-schema-kit.dev/schemas";

/** The `$schema` of a JSON report: the `$id` of `schemas/<name>.schema.json`. */
export const reportSchemaId = (name: string): string => `${SCHEMA_HOST}/${name}.schema.json`;
