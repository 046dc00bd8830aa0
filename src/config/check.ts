/**
 * Checks a parsed `vsk.config.json` against the shipped `schemas/config.schema.json`, the same file
 * editors use, and says the first problem for a person: where (JSON Pointer), what was expected
 * (the schema's `title`, with an example) and what was found. A hand-written walk over the few
 * keywords that schema uses, not a schema compiler: `vsk lint` reads the config on its fast start.
 * A keyword it does not know is a bug in vsk (thrown), never a rule silently skipped.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { escapePointerToken } from "../json/index.js";
import { closest, quote } from "../words/index.js";

export type ConfigSchema = { readonly [keyword: string]: unknown };

/** Where the config is wrong, and how. */
export interface ConfigProblem {
  pointer: string;
  message: string;
}

/** The keywords this walk implements; annotations are read for the wording only. */
const KEYWORDS = new Set([
  ...["$schema", "$id", "$defs", "$comment", "title", "description", "examples", "default"],
  ...["$ref", "type", "oneOf", "properties", "additionalProperties", "required", "items"],
  ...["minItems", "minLength", "pattern", "enum"],
]);

let cached: ConfigSchema | undefined;

/** The shipped `schemas/config.schema.json` of the package at `packageRoot`, read once. */
export function configSchema(packageRoot: string): ConfigSchema {
  cached ??= JSON.parse(readFileSync(join(packageRoot, "schemas", "config.schema.json"), "utf8")) as ConfigSchema;
  return cached;
}

/** Every problem of `value` against `schema` (the whole config schema), in document order; none when it conforms. */
export function checkConfig(value: unknown, schema: ConfigSchema): ConfigProblem[] {
  return check(value, schema, "", schema);
}

type JsonType = "string" | "number" | "boolean" | "null" | "array" | "object";

function typeOf(value: unknown): JsonType {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value as JsonType;
}

function fits(value: unknown, type: unknown): boolean {
  const actual = typeOf(value);
  return type === undefined || actual === type || (type === "integer" && Number.isInteger(value));
}

const ARTICLE: Record<string, string> = {
  string: "a string",
  number: "a number",
  integer: "a whole number",
  boolean: "true or false",
  null: "null",
  array: "an array",
  object: "an object",
};

/** A value as a message shows it: short strings and numbers as themselves, containers by kind. */
function describe(value: unknown): string {
  if (typeof value === "string") return value === "" ? "an empty string" : quote(value);
  if (typeof value === "number" || typeof value === "boolean" || value === null) return String(value);
  return Array.isArray(value) ? "an array" : "an object";
}

function resolve(schema: ConfigSchema, root: ConfigSchema): ConfigSchema {
  const ref = schema.$ref;
  if (typeof ref !== "string") return schema;
  const name = /^#\/\$defs\/([^/]+)$/.exec(ref)?.[1];
  const target = name === undefined ? undefined : (root.$defs as Record<string, ConfigSchema> | undefined)?.[name];
  if (target === undefined) throw new Error(`config.schema.json: $ref ${ref} is not a local #/$defs/… reference`);
  return resolve(target, root);
}

/** "a model id, <owner>/<name>, e.g. "acme/video-a"" */
function expected(schema: ConfigSchema): string {
  const title = typeof schema.title === "string" ? schema.title : (ARTICLE[String(schema.type)] ?? "a value");
  const example = Array.isArray(schema.examples) ? schema.examples[0] : undefined;
  return example === undefined || typeof example === "object" ? title : `${title}, e.g. ${JSON.stringify(example)}`;
}

function check(value: unknown, raw: ConfigSchema, pointer: string, root: ConfigSchema): ConfigProblem[] {
  const schema = resolve(raw, root);
  for (const keyword of Object.keys(schema))
    if (!KEYWORDS.has(keyword))
      throw new Error(`config.schema.json uses ${keyword}, which the config check does not implement`);
  const at = (message: string): ConfigProblem[] => [{ pointer, message }];

  if (Array.isArray(schema.oneOf)) {
    // the branches differ by type: the one of the value's type says what is wrong
    const branches = (schema.oneOf as ConfigSchema[]).map((b) => resolve(b, root));
    const candidates = branches.filter((b) => fits(value, b.type));
    if (candidates.length === 0) return at(`expected ${branches.map(expected).join(", or ")}; got ${describe(value)}`);
    const problems = candidates.map((b) => check(value, b, pointer, root));
    if (problems.some((p) => p.length === 0)) return [];
    return problems[0]!;
  }

  if (!fits(value, schema.type))
    return at(`expected ${expected(schema)} (${ARTICLE[String(schema.type)]}); got ${describe(value)}`);

  if (Array.isArray(schema.enum) && !schema.enum.includes(value))
    return at(
      `expected ${typeof schema.title === "string" ? `${schema.title}, ` : ""}one of ${schema.enum.map((v) => JSON.stringify(v)).join(", ")}; got ${describe(value)}`,
    );

  if (typeof value === "string") {
    if (typeof schema.minLength === "number" && [...value].length < schema.minLength)
      return at(`expected ${expected(schema)}; got ${describe(value)}`);
    if (typeof schema.pattern === "string" && !new RegExp(schema.pattern, "u").test(value))
      return at(`${describe(value)} is not ${expected(schema)}`);
  }

  if (Array.isArray(value)) {
    if (typeof schema.minItems === "number" && value.length < schema.minItems)
      return at(
        `expected ${expected(schema)} with at least ${entries(schema.minItems)}; got ${value.length === 0 ? "an empty array" : entries(value.length)}`,
      );
    if (schema.items !== undefined)
      return value.flatMap((item, i) => check(item, schema.items as ConfigSchema, `${pointer}/${i}`, root));
  }

  if (typeOf(value) === "object") {
    const object = value as Record<string, unknown>;
    const properties = (schema.properties ?? {}) as Record<string, ConfigSchema>;
    const keys = Object.keys(properties);
    const problems: ConfigProblem[] = [];
    // a key a misspelt one stands for ("Id" for "id") is not also said to be missing
    const meant = new Set<string>();
    if (schema.additionalProperties === false)
      for (const key of Object.keys(object))
        if (!Object.hasOwn(properties, key)) {
          const hit = closest(key, keys);
          if (hit !== undefined) meant.add(hit);
          problems.push({
            pointer: `${pointer}/${escapePointerToken(key)}`,
            message: `unknown key ${quote(key)}${hit === undefined ? "" : `; did you mean ${quote(hit)}?`} (the keys here: ${keys.join(", ")}); correct or remove it`,
          });
        }
    for (const key of (schema.required ?? []) as string[])
      if (!Object.hasOwn(object, key) && !meant.has(key))
        problems.push({
          pointer: `${pointer}/${escapePointerToken(key)}`,
          message: `missing; expected ${expected(resolve(properties[key] ?? {}, root))}`,
        });
    for (const key of keys)
      if (Object.hasOwn(object, key))
        problems.push(...check(object[key], properties[key]!, `${pointer}/${escapePointerToken(key)}`, root));
    return problems;
  }
  return [];
}

function entries(n: number): string {
  return n === 1 ? "1 entry" : `${n} entries`;
}
