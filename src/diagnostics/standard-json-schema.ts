/**
 * Standard JSON Schema v1 (`@standard-schema/spec` 1.1, https://standardschema.dev), the
 * interface MCP servers, agent frameworks and form libraries read a validator's JSON Schema
 * through (issue 42.2): its types, copied as the spec's authors invite (generated code imports
 * nothing), and the converter every generated endpoint's `~standard.jsonSchema` is. It returns
 * the endpoint's request schema (the one its validator was compiled from, spec 4.1) for target
 * `draft-2020-12` as it is, or converted to `draft-07`, with the cross-field rules JSON Schema
 * cannot state listed under `x-vsk-rules`. Built on each call, from the `…InputSchema` data the
 * endpoint module already holds: nothing is kept, and the caller may change what it gets.
 */
import { escapeToken } from "./pointers.js";

// #region runtime (copied into the generated support module: no imports in here)
/** The Standard JSON Schema v1 interface, a copy of `StandardJSONSchemaV1` from `@standard-schema/spec`. */
export interface StandardJSONSchemaV1<Input = unknown, Output = Input> {
  /** The Standard JSON Schema properties. */
  readonly "~standard": StandardJSONSchemaV1.Props<Input, Output>;
}

// eslint-disable-next-line @typescript-eslint/no-namespace
export declare namespace StandardJSONSchemaV1 {
  /** The Standard JSON Schema properties interface. */
  export interface Props<Input = unknown, Output = Input> {
    /** The version number of the standard. */
    readonly version: 1;
    /** The vendor name of the schema library. */
    readonly vendor: string;
    /** Inferred types associated with the schema. */
    readonly types?: Types<Input, Output> | undefined;
    /** Methods for generating the input/output JSON Schema. */
    readonly jsonSchema: Converter;
  }
  /** The Standard JSON Schema converter interface. */
  export interface Converter {
    /** Converts the input type to JSON Schema. May throw if conversion is not supported. */
    readonly input: (options: Options) => Record<string, unknown>;
    /** Converts the output type to JSON Schema. May throw if conversion is not supported. */
    readonly output: (options: Options) => Record<string, unknown>;
  }
  /** The target version of the generated JSON Schema. */
  export type Target = "draft-2020-12" | "draft-07" | "openapi-3.0" | ({} & string);
  /** The options for the input/output methods. */
  export interface Options {
    /** Specifies the target version of the generated JSON Schema. */
    readonly target: Target;
    /** Explicit support for additional vendor-specific parameters, if needed. */
    readonly libraryOptions?: Record<string, unknown> | undefined;
  }
  /** The Standard types interface. */
  export interface Types<Input = unknown, Output = Input> {
    /** The input type of the schema. */
    readonly input: Input;
    /** The output type of the schema. */
    readonly output: Output;
  }
  /** Infers the input type of a Standard JSON Schema. */
  export type InferInput<Schema extends StandardJSONSchemaV1> = NonNullable<Schema["~standard"]["types"]>["input"];
  /** Infers the output type of a Standard JSON Schema. */
  export type InferOutput<Schema extends StandardJSONSchemaV1> = NonNullable<Schema["~standard"]["types"]>["output"];
}

/** A cross-field rule as the returned schema lists it under `x-vsk-rules` (JSON Schema cannot state it). */
export interface JsonSchemaRule {
  /** the rule id of its diagnostics (`vsk lint`, `validate…`) */
  id: string;
  severity: "error" | "warning";
  /** what the rule demands, in words */
  message: string;
  /** the service spec's section */
  spec: string;
  /** JSON Pointers of the fields it concerns (`*` for every item of an array) */
  fields: string[];
}

const DRAFTS = {
  "draft-2020-12": "https://json-schema.org/draft/2020-12/schema",
  "draft-07": "http://json-schema.org/draft-07/schema#",
};

/**
 * The `~standard.jsonSchema` of an endpoint: `input` and `output` both give its request schema
 * (`validate` returns the payload as given, so the two are one). Nothing runs until one is called.
 */
export function jsonSchemaConverter(
  schema: Readonly<Record<string, unknown>>,
  rules: readonly JsonSchemaRule[],
): StandardJSONSchemaV1.Converter {
  const convert = (options: StandardJSONSchemaV1.Options): Record<string, unknown> =>
    requestJsonSchema(schema, rules, options);
  return { input: convert, output: convert };
}

/** The request schema for `options.target`, or an error naming the targets there are (as the standard asks). */
function requestJsonSchema(
  schema: Readonly<Record<string, unknown>>,
  rules: readonly JsonSchemaRule[],
  options: StandardJSONSchemaV1.Options,
): Record<string, unknown> {
  const target: unknown = typeof options === "object" && options !== null ? options.target : undefined;
  if (target !== "draft-2020-12" && target !== "draft-07") {
    const named = typeof target === "string" ? JSON.stringify(target.slice(0, 80)) : `no target (${typeof target})`;
    throw new Error(
      `video-schema-kit: no JSON Schema for ${named}: the supported targets are "draft-2020-12" and "draft-07" (pass { target: "draft-2020-12" })`,
    );
  }
  const body = target === "draft-07" ? toDraft07(schema) : (copyJson(schema) as Record<string, unknown>);
  const out: Record<string, unknown> = { $schema: DRAFTS[target] };
  for (const key of Object.keys(body)) if (key !== "$schema") defineOwn(out, key, body[key]);
  out["x-vsk-rules"] = copyJson(rules);
  return out;
}

function defineOwn(object: Record<string, unknown>, key: string, value: unknown): void {
  // a property named "__proto__" stays an own property (an assignment would set the prototype)
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A deep copy of JSON data, every key kept as an own property. */
function copyJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyJson);
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) defineOwn(out, key, copyJson(value[key]));
  return out;
}

/** Keywords of draft 2020-12 whose meaning draft-07 has no way to state. */
const NOT_IN_DRAFT_07 = [
  "unevaluatedProperties",
  "unevaluatedItems",
  "$dynamicRef",
  "$dynamicAnchor",
  "$recursiveRef",
  "$recursiveAnchor",
  "maxContains",
  "minContains",
];
const ONE_SUBSCHEMA = [
  "additionalProperties",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
  "contentSchema",
];
const SUBSCHEMA_LISTS = ["allOf", "anyOf", "oneOf"];
const SUBSCHEMA_MAPS = ["properties", "patternProperties"];

/**
 * The draft 2020-12 request schema as draft-07 states it: `$defs` → `definitions`,
 * `prefixItems` + `items` → `items` (a list) + `additionalItems`, `dependentSchemas` and
 * `dependentRequired` → `dependencies`, `$anchor` → `$id: "#…"`, a `$ref` with other keywords
 * beside it moved into `allOf` (draft-07 ignores a `$ref`'s siblings), and every local `$ref`
 * pointed at where its target went. A keyword draft-07 cannot state throws, naming it.
 */
function toDraft07(root: Readonly<Record<string, unknown>>): Record<string, unknown> {
  /** old JSON Pointer → new, for the schemas whose place changed */
  const moved = new Map<string, string>();
  const holders: Array<Record<string, unknown>> = [];
  const unsupported = (keyword: string, at: string): Error =>
    new Error(
      `video-schema-kit: draft-07 cannot state ${JSON.stringify(keyword)} (at ${at === "" ? "the root" : at}) of this schema; ask for target "draft-2020-12"`,
    );

  const subschema = (schema: unknown, from: string, to: string): unknown => {
    if (from !== to) moved.set(from, to);
    if (!isObject(schema)) return copyJson(schema); // true / false
    const out: Record<string, unknown> = {};
    const map = (keyword: string, value: unknown, into: string) => {
      if (!isObject(value)) return;
      const target = isObject(out[into]) ? (out[into] as Record<string, unknown>) : {};
      for (const name of Object.keys(value)) {
        if (Object.prototype.hasOwnProperty.call(target, name)) throw unsupported(`${keyword}/${name}`, from); // the same name under $defs and definitions
        const at = `/${escapeToken(name)}`;
        defineOwn(target, name, subschema(value[name], `${from}/${keyword}${at}`, `${to}/${into}${at}`));
      }
      out[into] = target;
    };
    const dependencies = new Map<string, string[]>(); // a Map: a name may be "__proto__"
    for (const key of Object.keys(schema)) {
      const value = schema[key];
      const from_ = `${from}/${escapeToken(key)}`;
      if (key === "$schema") continue;
      if (NOT_IN_DRAFT_07.includes(key)) {
        // minContains 1 (without maxContains) is what `contains` means anyway
        if (key === "minContains" && value === 1 && schema.maxContains === undefined) continue;
        throw unsupported(key, from);
      }
      if (key === "$defs" || key === "definitions") map(key, value, "definitions");
      else if (key === "prefixItems" && Array.isArray(value))
        out.items = value.map((s, i) => subschema(s, `${from_}/${i}`, `${to}/items/${i}`));
      else if (key === "items" && Array.isArray(schema.prefixItems))
        out.additionalItems = subschema(value, from_, `${to}/additionalItems`);
      else if (key === "additionalItems")
        continue; // not a 2020-12 keyword: ignored there, so not stated here
      else if (key === "dependentSchemas" || key === "dependentRequired" || key === "dependencies") {
        if (isObject(value))
          for (const name of Object.keys(value)) dependencies.set(name, [...(dependencies.get(name) ?? []), key]);
      } else if (key === "$anchor" && typeof value === "string") {
        if (schema.$id !== undefined) throw unsupported(key, from);
        out.$id = `#${value}`;
      } else if (key === "items" || ONE_SUBSCHEMA.includes(key)) {
        out[key] = Array.isArray(value)
          ? value.map((s, i) => subschema(s, `${from_}/${i}`, `${to}/${key}/${i}`))
          : subschema(value, from_, `${to}/${key}`);
      } else if (SUBSCHEMA_LISTS.includes(key) && Array.isArray(value))
        out[key] = value.map((s, i) => subschema(s, `${from_}/${i}`, `${to}/${key}/${i}`));
      else if (SUBSCHEMA_MAPS.includes(key) && isObject(value)) map(key, value, key);
      else defineOwn(out, key, copyJson(value));
    }
    // dependentSchemas / dependentRequired / dependencies → dependencies; one name under two: their allOf
    if (dependencies.size > 0) {
      const deps: Record<string, unknown> = {};
      for (const [name, keywords] of dependencies) {
        const token = `/${escapeToken(name)}`;
        const parts = keywords.map((keyword, i) => {
          const value = (schema[keyword] as Record<string, unknown>)[name];
          const place = keywords.length === 1 ? `${to}/dependencies${token}` : `${to}/dependencies${token}/allOf/${i}`;
          if (Array.isArray(value)) return keywords.length === 1 ? copyJson(value) : { required: copyJson(value) };
          return subschema(value, `${from}/${keyword}${token}`, place);
        });
        defineOwn(deps, name, parts.length === 1 ? parts[0] : { allOf: parts });
      }
      out.dependencies = deps;
    }
    if (typeof out.$ref === "string") {
      const keys = Object.keys(out);
      if (keys.length > 1) {
        // draft-07 ignores every keyword beside a $ref: the reference becomes one more allOf branch
        const ref = { $ref: out.$ref };
        delete out.$ref;
        out.allOf = [...(Array.isArray(out.allOf) ? out.allOf : []), ref];
        holders.push(ref);
      } else holders.push(out);
    }
    return out;
  };

  const out = subschema(root, "", "") as Record<string, unknown>;
  for (const holder of holders) holder.$ref = relocate(holder.$ref as string, moved);
  return out;
}

// what a URI fragment cannot hold as it is (RFC 3986 3.5); outside any template literal, where
// lightweight import scanners (TypeScript's preProcessFile) misread a regular expression
const NOT_IN_FRAGMENT = /[^A-Za-z0-9\-._~!$&'()*+,;=:@/?]/g;

/** A local `$ref` pointed at where its target went (the longest moved prefix); any other as it is. */
function relocate(ref: string, moved: ReadonlyMap<string, string>): string {
  if (!ref.startsWith("#/")) return ref;
  let pointer: string;
  try {
    pointer = decodeURIComponent(ref.slice(1));
  } catch {
    return ref;
  }
  for (let end = pointer.length; end > 0; end = pointer.lastIndexOf("/", end - 1)) {
    const to = moved.get(pointer.slice(0, end));
    if (to !== undefined) return "#" + (to + pointer.slice(end)).replace(NOT_IN_FRAGMENT, (c) => encodeURIComponent(c));
  }
  return ref;
}
// #endregion runtime
