/**
 * Lints payloads: finds the endpoint each one is for (envelope or `--model/--endpoint`), runs
 * that endpoint's generated validator, and hands one `LintResult` per payload to a reporter.
 */
import { redacted, redactUrlsInText, type Diagnostic } from "../diagnostics/index.js";
import { readSingleJson, type PayloadSource, type ReadOptions, type ReadProblem, type ReadWarning } from "./decode.js";
import { readNdjson } from "./ndjson.js";
import { isNdjsonPath, openFile } from "./inputs.js";
import type { ValidatorRegistry } from "./registry.js";
import { resolvePayload, type LintTarget } from "./resolve.js";
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

/** The number literal at a JSON Pointer of a JSON text, as written. */
function rawNumberAt(text: string, pointer: string): string | undefined {
  const { line, column } = locatePointer(text, pointer);
  let offset = 0;
  for (let l = 1; l < line; l++) offset = text.indexOf("\n", offset) + 1;
  const literal = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  literal.lastIndex = offset + column - 1;
  return literal.exec(text)?.[0];
}

/**
 * A diagnostic of lint's own. Its message is built from values already redacted before they were
 * quoted (`describeValue`, the reader's `quotedKey`) and is never redacted again as text; the
 * pointer is the payload's own keys, redacted as a value (issue 23.2).
 */
function lintDiagnostic(
  rule: string,
  message: string,
  pointer = "",
  severity: Diagnostic["severity"] = "error",
): Diagnostic {
  return redacted(severity, redactUrlsInText(pointer), rule, message);
}

export class Linter {
  readonly summary: LintSummary = { requests: 0, valid: 0, invalid: 0, warnings: 0 };
  constructor(
    private readonly registry: ValidatorRegistry,
    private readonly target: LintTarget,
    private readonly reporter: Reporter,
    private readonly readOptions: ReadOptions = {},
  ) {}

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
    const resolved = resolvePayload(value, this.target, this.registry);
    if ("rule" in resolved)
      return finish(resolved.model, resolved.endpoint, [
        lintDiagnostic(resolved.rule, resolved.message, resolved.pointer),
      ]);
    const { model, endpoint, input, prefix } = resolved;
    const validate = this.registry.validatorOf(model, endpoint);
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
      return finish(model, endpoint, diagnostics);
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
