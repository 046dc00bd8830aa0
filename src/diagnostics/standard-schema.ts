/**
 * Standard Schema v1 (https://standardschema.dev), the interface Zod, Valibot and ArkType
 * implement and Hono, tRPC and form libraries accept: its types, copied as the spec's authors
 * invite (generated code imports nothing), and the `~standard` property of every generated
 * endpoint (issue 27): a synchronous `validate` whose issues are the error diagnostics.
 */
import type { Diagnostic } from "./diagnostic.js";
import { unescapeToken } from "./pointers.js";

// #region runtime (copied into the generated support module: no imports in here)
/** The Standard Schema v1 interface, a copy of `StandardSchemaV1` from `@standard-schema/spec`. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  /** The Standard Schema properties. */
  readonly "~standard": StandardSchemaV1.Props<Input, Output>;
}

// eslint-disable-next-line @typescript-eslint/no-namespace
export declare namespace StandardSchemaV1 {
  /** The Standard Schema properties interface. */
  export interface Props<Input = unknown, Output = Input> {
    /** The version number of the standard. */
    readonly version: 1;
    /** The vendor name of the schema library. */
    readonly vendor: string;
    /** Validates unknown input values. */
    readonly validate: (value: unknown) => Result<Output> | Promise<Result<Output>>;
    /** Inferred types associated with the schema. */
    readonly types?: Types<Input, Output> | undefined;
  }
  /** The result interface of the validate function. */
  export type Result<Output> = SuccessResult<Output> | FailureResult;
  /** The result interface if validation succeeds. */
  export interface SuccessResult<Output> {
    /** The typed output value. */
    readonly value: Output;
    /** The non-existent issues. */
    readonly issues?: undefined;
  }
  /** The result interface if validation fails. */
  export interface FailureResult {
    /** The issues of failed validation. */
    readonly issues: ReadonlyArray<Issue>;
  }
  /** The issue interface of the failure output. */
  export interface Issue {
    /** The error message of the issue. */
    readonly message: string;
    /** The path of the issue, if any. */
    readonly path?: ReadonlyArray<PropertyKey | PathSegment> | undefined;
  }
  /** The path segment interface of the issue. */
  export interface PathSegment {
    /** The key representing a path segment. */
    readonly key: PropertyKey;
  }
  /** The Standard Schema types interface. */
  export interface Types<Input = unknown, Output = Input> {
    /** The input type of the schema. */
    readonly input: Input;
    /** The output type of the schema. */
    readonly output: Output;
  }
  /** Infers the input type of a Standard Schema. */
  export type InferInput<Schema extends StandardSchemaV1> = NonNullable<Schema["~standard"]["types"]>["input"];
  /** Infers the output type of a Standard Schema. */
  export type InferOutput<Schema extends StandardSchemaV1> = NonNullable<Schema["~standard"]["types"]>["output"];
}

/** A JSON Pointer as a Standard Schema path: its tokens, array indices as numbers. */
function issuePath(value: unknown, pointer: string): PropertyKey[] {
  const path: PropertyKey[] = [];
  if (pointer === "") return path;
  let at: unknown = value;
  for (const raw of pointer.slice(1).split("/")) {
    const token = unescapeToken(raw);
    const index = Array.isArray(at) && /^(0|[1-9][0-9]*)$/.test(token);
    path.push(index ? Number(token) : token);
    at =
      typeof at === "object" && at !== null && Object.prototype.hasOwnProperty.call(at, token)
        ? (at as Record<string, unknown>)[token]
        : undefined;
  }
  return path;
}

/**
 * What the `~standard.validate` of an endpoint returns for its diagnostics: `{ value }` (the
 * payload as given, not copied, no defaults filled) when none is an error, else one issue per
 * error diagnostic, schema or cross-field rule alike (warnings are not issues). Each generated
 * endpoint writes its own `validate` around it, so the call to its validator stays monomorphic;
 * it asks for errors only and at most `DEFAULT_MAX_FINDINGS` (100) of them, then one issue
 * `… and M more findings (M errors) …` with the exact count (issue 38.3): linear in the input,
 * whatever it holds.
 */
export function standardResult<T>(value: unknown, diagnostics: readonly Diagnostic[]): StandardSchemaV1.Result<T> {
  if (diagnostics.length === 0) return { value: value as T }; // the valid payload's path, kept short
  let issues: StandardSchemaV1.Issue[] | undefined;
  for (let i = 0; i < diagnostics.length; i++) {
    const d = diagnostics[i]!;
    if (d.severity !== "error") continue;
    (issues ??= []).push({ message: d.message, path: issuePath(value, d.pointer) });
  }
  return issues === undefined ? { value: value as T } : { issues };
}
// #endregion runtime
