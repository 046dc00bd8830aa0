/**
 * Lints payloads: finds the endpoint each one is for (envelope or `--model/--endpoint`), runs
 * that endpoint's generated validator, and hands one `LintResult` per payload to a reporter.
 */
import { describeValue, diagnostic, type Diagnostic } from "../diagnostics/index.js";
import {
  isNdjsonPath,
  openFile,
  readNdjson,
  readSingleJson,
  type PayloadSource,
  type ReadOptions,
  type ReadProblem,
  type ReadWarning,
} from "./read.js";
import type { ValidatorRegistry } from "./registry.js";
import { locatePointer } from "../json/index.js";

/** One payload's verdict: the `results[]` entry of `vsk lint --format json`. */
export interface LintResult {
  source: string;
  line: number;
  model: string | null;
  endpoint: string | null;
  valid: boolean;
  diagnostics: Diagnostic[];
}

export interface LintSummary {
  requests: number;
  valid: number;
  invalid: number;
  warnings: number;
}

export interface Reporter {
  result(result: LintResult): void | Promise<void>;
  end(summary: LintSummary): void | Promise<void>;
}

export interface LintTarget {
  /** `<owner>/<name>` (already resolved from an alias) */
  model?: string;
  endpoint?: string;
}

/** The number literal at a JSON Pointer of a JSON text, as written. */
function rawNumberAt(text: string, pointer: string): string | undefined {
  const { line, column } = locatePointer(text, pointer);
  let offset = 0;
  for (let l = 1; l < line; l++) offset = text.indexOf("\n", offset) + 1;
  const literal = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  literal.lastIndex = offset + column - 1;
  return literal.exec(text)?.[0];
}

function lintDiagnostic(
  rule: string,
  message: string,
  pointer = "",
  severity: Diagnostic["severity"] = "error",
): Diagnostic {
  return diagnostic(severity, pointer, rule, message);
}

/** `{"model", "endpoint", "input"}`: an envelope says itself what it is for. */
function asEnvelope(value: unknown): { model: unknown; endpoint: unknown; input: unknown } | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const v = value as Record<string, unknown>;
  if (!Object.prototype.hasOwnProperty.call(v, "input") || !Object.prototype.hasOwnProperty.call(v, "model"))
    return undefined;
  return { model: v.model, endpoint: v.endpoint, input: v.input };
}

/**
 * A bare payload without its top-level `$schema`: the key a request file carries for its editor
 * (`"$schema": "./generated/…schema.json"`) is not part of the request, so it is neither checked
 * nor an unknown field. (An envelope's own `$schema` sits beside `input` and is never read.)
 */
function withoutSchemaKey(input: unknown): unknown {
  if (typeof input !== "object" || input === null || Array.isArray(input) || !Object.hasOwn(input, "$schema"))
    return input;
  const { $schema: _editor, ...request } = input as Record<string, unknown>;
  void _editor;
  return request;
}

export class Linter {
  readonly summary: LintSummary = { requests: 0, valid: 0, invalid: 0, warnings: 0 };
  constructor(
    private readonly registry: ValidatorRegistry,
    private readonly target: LintTarget,
    private readonly reporter: Reporter,
    private readonly readOptions: ReadOptions = {},
  ) {}

  /** alias or id → model id, remembered: a log names the same few models a million times */
  private readonly resolved = new Map<string, string | undefined>();
  private resolveModel(name: string): string | undefined {
    if (this.resolved.has(name)) return this.resolved.get(name);
    const id = this.registry.resolveModel(name);
    if (this.resolved.size < 256) this.resolved.set(name, id);
    return id;
  }

  /** The endpoint of a model that has exactly one, else undefined. */
  private onlyEndpointOf(model: string): string | undefined {
    let only: string | undefined;
    for (const e of this.registry.entries.values()) {
      if (e.model !== model) continue;
      if (only !== undefined) return undefined;
      only = e.endpoint;
    }
    return only;
  }

  private finish(
    at: PayloadSource,
    model: string | null,
    endpoint: string | null,
    diagnostics: Diagnostic[],
  ): void | Promise<void> {
    let errors = 0;
    for (const d of diagnostics) if (d.severity === "error") errors++;
    const valid = errors === 0;
    this.summary.requests++;
    if (valid) this.summary.valid++;
    else this.summary.invalid++;
    this.summary.warnings += diagnostics.length - errors;
    return this.reporter.result({ source: at.source, line: at.line, model, endpoint, valid, diagnostics });
  }

  /** Lints one payload (or reports why it could not be read); what the reader noticed comes first, as warnings. */
  readonly payload = (
    at: PayloadSource,
    value: unknown,
    problem: ReadProblem | undefined,
    warnings?: readonly ReadWarning[],
    text?: string,
  ): void | Promise<void> => {
    const read = warnings?.map((w) => lintDiagnostic(w.rule, w.message, w.pointer, "warning"));
    const finish = (model: string | null, endpoint: string | null, diagnostics: Diagnostic[]) =>
      this.finish(at, model, endpoint, read === undefined ? diagnostics : [...read, ...diagnostics]);
    if (problem !== undefined) return finish(null, null, [lintDiagnostic(problem.rule, problem.message)]);
    let model = this.target.model;
    let endpoint = this.target.endpoint;
    let input = value;
    let prefix = "";
    const envelope = asEnvelope(value);
    if (envelope !== undefined) {
      prefix = "/input";
      input = envelope.input;
      const named = typeof envelope.model === "string" ? this.resolveModel(envelope.model) : undefined;
      if (named === undefined) {
        return finish(null, null, [
          lintDiagnostic(
            "lint/unknown-endpoint",
            `model: ${describeValue(envelope.model)} is not a configured model; known: ${this.registry.describe()}`,
            "/model",
          ),
        ]);
      }
      model = named;
      if (typeof envelope.endpoint === "string") endpoint = envelope.endpoint;
      else if (envelope.endpoint === undefined && endpoint === undefined && this.onlyEndpointOf(model) !== undefined) {
        endpoint = this.onlyEndpointOf(model); // a model with one endpoint needs no name for it
      } else if (envelope.endpoint !== undefined || endpoint === undefined) {
        return finish(model, null, [
          lintDiagnostic(
            "lint/unknown-endpoint",
            `endpoint: expected the endpoint name as a string, received ${describeValue(envelope.endpoint)}; known: ${this.registry.describe()}`,
            "/endpoint",
          ),
        ]);
      }
    }
    if (model === undefined || endpoint === undefined) {
      return finish(model ?? null, endpoint ?? null, [
        lintDiagnostic(
          "lint/no-endpoint",
          `cannot tell which endpoint this payload is for: wrap it as {"model", "endpoint", "input"} or pass --model and --endpoint`,
        ),
      ]);
    }
    const key = `${model}/${endpoint}`;
    if (!this.registry.entries.has(key)) {
      // the name as given can be anything (a signed URL, 50 MB): the message shows it redacted and cut, the result says null
      return finish(model, null, [
        lintDiagnostic(
          "lint/unknown-endpoint",
          `endpoint: ${describeValue(endpoint)} is not an endpoint of ${model}; known: ${this.registry.describe()}`,
          prefix === "" ? "" : "/endpoint",
        ),
      ]);
    }
    if (prefix === "") input = withoutSchemaKey(input);
    const validate = this.registry.validator(key);
    const run = (fn: (input: unknown) => Diagnostic[]): void | Promise<void> => {
      const diagnostics = fn(input);
      // integers beyond 2^53 are compared as written, not as JSON.parse rounded them (spec 2.2);
      // src/rules (and Ajv with it) is loaded only for a payload that has both findings and such a number
      if (text !== undefined && diagnostics.length > 0 && /\d{16}/.test(text))
        return import("../rules/index.js").then(({ recheckOnText }) =>
          done(recheckOnText(diagnostics, input, (pointer) => rawNumberAt(text, prefix + pointer))),
        );
      return done(diagnostics);
    };
    const done = (diagnostics: Diagnostic[]) => {
      if (prefix !== "" && diagnostics.length > 0)
        diagnostics = diagnostics.map((d) => ({ ...d, pointer: prefix + d.pointer }));
      return finish(model!, endpoint!, diagnostics);
    };
    return typeof validate === "function" ? run(validate) : validate.then(run);
  };

  /** Lints every payload of one file (`-` is stdin). */
  async file(path: string, cwd: string, stdinNdjson: boolean): Promise<void> {
    if (path === "-") {
      if (stdinNdjson) await readNdjson(process.stdin, "<stdin>", this.payload, this.readOptions);
      else await readSingleJson(process.stdin, "<stdin>", this.payload);
      return;
    }
    const stream = openFile(path, cwd);
    if (isNdjsonPath(path)) await readNdjson(stream, path, this.payload, this.readOptions);
    else await readSingleJson(stream, path, this.payload);
  }
}
