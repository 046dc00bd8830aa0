/**
 * Lints payloads: finds the endpoint each one is for (envelope or `--model/--endpoint`), runs
 * that endpoint's generated validator, and hands one `LintResult` per payload to a reporter.
 */
import {
  DEFAULT_MAX_FINDINGS,
  MORE_FINDINGS_RULE,
  describeValue,
  moreFindings,
  redacted,
  redactPointerOnce,
  type Diagnostic,
} from "../diagnostics/index.js";
import {
  readSingleJson,
  type PayloadHandler,
  type PayloadSource,
  type ReadOptions,
  type ReadProblem,
  type ReadWarning,
} from "./decode.js";
import { readNdjson, type LineSink } from "./ndjson.js";
import { isNdjsonPath, openFile, sniffNdjson } from "./inputs.js";
import { decompressed } from "./compressed.js";
import { dirname, relative, resolve } from "node:path";
import type { Validate, ValidatorRegistry } from "./registry.js";
import { resolvePayload, type LintTarget, type ResolvedPayload } from "./resolve.js";
import { locatePointer, locatePointers } from "../json/index.js";
import { redactUrl } from "../runtime/index.js";
import type { PayloadCheck } from "./preflight.js";
import type { TallyData } from "./format/tables.js";

/**
 * A diagnostic of a payload read from a `.json` document (not NDJSON), with where its pointer's
 * value starts in the file's text (1-based), so every format points at the field, not line 1.
 */
export type LintDiagnostic = Diagnostic & { line?: number; column?: number };

/** One payload's verdict: the `results[]` entry of `vsk lint --format json`. */
export interface LintResult {
  source: string;
  line: number;
  model: string | null;
  endpoint: string | null;
  valid: boolean;
  diagnostics: LintDiagnostic[];
  /**
   * Present only when the payload had more findings than `--max-findings-per-request`: its
   * totals, every one counted (`diagnostics` then holds the first N and one `lint/more-findings`).
   */
  findings?: FindingTotals;
}

/** A payload's findings, counted: all of them, and how many are errors and warnings. */
export interface FindingTotals {
  total: number;
  errors: number;
  warnings: number;
}

/** `--max-findings-per-request`'s default: findings kept per payload (issue 38.2). */
export { DEFAULT_MAX_FINDINGS, MORE_FINDINGS_RULE };

/**
 * The largest `--max-findings-per-request`: a result's text stays far below a string's limit
 * (~300 bytes a finding in json), so no report needs one giant string.
 */
export const MAX_FINDINGS_LIMIT = 100_000;

/**
 * The first `max` of a payload's findings and one `more-findings` that counts the rest exactly
 * (an error when any of them is one), with the totals; the diagnostics as they are when within
 * `max`. A validator asked for at most `max` (src/rules/check.ts `diagnose`) has counted its rest
 * in a `more-findings` of its own: its counts are folded in. Called before anything per finding
 * (locating, prefixing) is done, so a line with a million bad items costs one pass over the kept.
 */
export function capFindings(
  diagnostics: Diagnostic[],
  max: number,
): { diagnostics: Diagnostic[]; findings?: FindingTotals } {
  let hidden = 0;
  let hiddenErrors = 0;
  let shown = diagnostics;
  const at = diagnostics.findIndex((d) => d.rule === MORE_FINDINGS_RULE && d.expected?.kind === MORE_FINDINGS_RULE);
  if (at !== -1) {
    const counts = diagnostics[at]!.expected!;
    hidden = Number(counts.more);
    hiddenErrors = Number(counts.errors);
    shown = diagnostics.slice(0, at).concat(diagnostics.slice(at + 1));
  }
  if (at === -1 && diagnostics.length <= max) return { diagnostics };
  let errors = hiddenErrors;
  let moreErrors = hiddenErrors;
  for (let i = 0; i < shown.length; i++)
    if (shown[i]!.severity === "error") {
      errors++;
      if (i >= max) moreErrors++;
    }
  const total = shown.length + hidden;
  const kept = shown.slice(0, max);
  kept.push(moreFindings(max, total - kept.length, moreErrors));
  return { diagnostics: kept, findings: { total, errors, warnings: total - errors } };
}

/** Where a payload sits in a `.json` document's text: diagnostics are located in it. */
interface Placement {
  /** the payload's own text (an element of an array of envelopes, or the whole document) */
  text: string;
  /** line and column of the text's first character in the file */
  line: number;
  column: number;
}

/** A diagnostic with its pointer's line and column in the file. */
function located(d: Diagnostic, at: Placement): LintDiagnostic {
  let where;
  try {
    where = locatePointer(at.text, d.pointer);
  } catch {
    return d; // nesting deeper than the locator's stack (a 100 000-level array): the payload's line only
  }
  return placed(d, at, where);
}

function placed(d: Diagnostic, at: Placement, { line, column }: { line: number; column: number }): LintDiagnostic {
  return { ...d, line: at.line + line - 1, column: line === 1 ? at.column + column - 1 : column };
}

/** `located` of each diagnostic, in one walk over the payload's text (locatePointers); each on its own if that walk cannot. */
function locatedAll(diagnostics: readonly Diagnostic[], at: Placement): LintDiagnostic[] {
  let where;
  try {
    where = locatePointers(
      at.text,
      diagnostics.map((d) => d.pointer),
    );
  } catch {
    return diagnostics.map((d) => located(d, at));
  }
  return diagnostics.map((d, i) => placed(d, at, where[i]!));
}

/** A path as a message shows it: relative to the current directory when under it, with `/`. */
function relativeShown(path: string): string {
  const rel = relative(process.cwd(), path);
  return (rel === "" || rel.startsWith("..") ? path : rel).split("\\").join("/");
}

/** `{"model", …, "input"}`: an element that makes a top-level array a list of envelopes. */
function isEnvelope(value: unknown): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Object.hasOwn(value, "model") &&
    Object.hasOwn(value, "input")
  );
}

/**
 * The offsets where each element of a top-level JSON array starts and ends, in one pass over a
 * valid JSON text (strings skipped, nesting counted).
 */
function elementSpans(text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  let depth = 0;
  let start = -1;
  let last = -1; // last non-space offset of the current element
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      if (depth === 1 && start === -1) start = i;
      for (i++; i < text.length && text.charCodeAt(i) !== 34; i++) if (text.charCodeAt(i) === 92) i++;
      last = i;
      continue;
    }
    if (c === 32 || c === 9 || c === 10 || c === 13 || c === 0xfeff) continue;
    if (depth === 1 && (c === 44 /* , */ || c === 93) /* ] */ && start !== -1) {
      spans.push([start, last + 1]);
      start = -1;
    }
    if (c === 91 /* [ */ || c === 123 /* { */) {
      if (depth === 1 && start === -1) start = i;
      depth++;
    } else if (c === 93 || c === 125) depth--;
    else if (depth === 1 && start === -1 && c !== 44) start = i;
    last = i;
  }
  return spans;
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
  /**
   * Results a `--jobs` worker linted and rendered (src/lint/jobs.ts), next in order. Present only
   * where every wrapper and the format can take them; absent, workers send results for `result`.
   */
  batch?(batch: RenderedBatch): void | Promise<void>;
}

/** A `--jobs` worker's batch of results, rendered by the format's `render` (src/lint/format/index.ts). */
export interface RenderedBatch {
  /** the counts of the batch's results, every one (`--errors-only` or not) */
  summary: LintSummary;
  /** the rendered results, UTF-8: what the format's `result` would have written for each, joined */
  text: Uint8Array;
  /** `--summary`: the batch's tallies (src/lint/format/summary.ts counts them) */
  tally?: TallyData;
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
  return redacted(severity, redactPointerOnce(pointer), rule, message);
}

/** What `--jobs` needs of a plain file being read (a `fs.ReadStream`; structural, issue 30.10): its size left. */
export interface OpenedFile {
  readonly path: string | { toString(): string };
  readonly bytesRead: number;
}

/**
 * Where `--jobs N` gets a line sink for one NDJSON stream (src/lint/jobs.ts): lines it lints inline
 * go to `payload`, results of workers to `report` or, rendered, to `reportBatch`.
 */
export interface LineJobs {
  /** `file`: the file read (absent for stdin), whose size tells how much is left; `compression`: how it was compressed */
  sink(
    linter: Pick<Linter, "payload" | "report" | "reportBatch">,
    source: string,
    file?: OpenedFile,
    // compressed.ts' Compression, written out: this file's declarations are public, and that
    // file's name a Node type (issue 30.10)
    compression?: "gzip" | "brotli",
  ): LineSink;
  /**
   * Lints a whole plain NDJSON file by byte ranges each thread reads itself (src/lint/ranges.ts);
   * false, having read nothing of the stream, when the file is not for ranges (then `sink`).
   */
  ranges?(
    linter: Pick<Linter, "payload" | "report" | "reportBatch">,
    source: string,
    file: { readonly fd?: unknown; bytesRead: number },
  ): Promise<boolean>;
}

/** An envelope's `model` and `endpoint` strings, resolved (Linter.knownEnvelope). */
interface KnownEnvelope {
  model: string;
  endpoint: string;
  validate: Validate;
}

/** Distinct envelope (model, endpoint) strings a Linter keeps resolved: a catalog's few, with their aliases, fit many times over. */
const KNOWN_ENVELOPES = 1024;

/** `{"model": "…", "endpoint": "…", "input"}` with all three own keys, the first two strings: the envelopes Linter.knownEnvelope remembers. */
function isStringEnvelope(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  return (
    Object.hasOwn(v, "input") &&
    Object.hasOwn(v, "model") &&
    Object.hasOwn(v, "endpoint") &&
    typeof v.model === "string" &&
    typeof v.endpoint === "string"
  );
}

/** One payload's result, before it is counted and reported: the very object the reporter is handed. */
type Verdict = LintResult;

/**
 * Payloads in flight at once with --preflight (issue 37.7): their referenced files are fetched
 * together, paced by the preflight's per-host limit; memory is bounded by this many payloads
 * and their findings (docs/preflight.md).
 */
export const PREFLIGHT_WINDOW = 256;

export class Linter {
  readonly summary: LintSummary = { requests: 0, valid: 0, invalid: 0, warnings: 0 };
  /** told each input's raw stream as it opens: the progress line's bytes read (src/lint/progress.ts) */
  opened?: (raw: { bytesRead?: number }) => void;
  /** told what reading an input noticed beside its payloads (bytes after a gzip file's last member) */
  warn?: (text: string) => void;
  /** `--max-findings-per-request`: findings kept per payload, the rest counted in one (capFindings) */
  maxFindings = DEFAULT_MAX_FINDINGS;
  /**
   * false when no finding is shown (`--summary-only`, nothing observing the results): the
   * validators count findings without wording them (`FindingLimit.words`; the tables read only
   * their rule, pointer and severity)
   */
  words = true;
  constructor(
    private readonly registry: ValidatorRegistry,
    private readonly target: LintTarget,
    private readonly reporter: Reporter,
    private readonly readOptions: ReadOptions = {},
    /** extra findings per resolved payload: `--preflight` (src/lint/preflight.ts) */
    private readonly check?: PayloadCheck,
    /** `--jobs N`: NDJSON lines linted on worker threads (src/lint/jobs.ts); absent, all on this thread */
    private readonly jobs?: LineJobs,
  ) {}

  private finish(
    at: PayloadSource,
    model: string | null,
    endpoint: string | null,
    diagnostics: Diagnostic[],
    placement?: Placement,
  ): Verdict {
    // the common case, a valid payload: no capping, locating or counting to do
    if (diagnostics.length === 0)
      return { source: at.source, line: at.line, model, endpoint, valid: true, diagnostics };
    const capped = capFindings(diagnostics, this.maxFindings);
    diagnostics = capped.diagnostics;
    // in a document, a request's findings read top to bottom, by line then column (issue 42.3); stable
    if (placement !== undefined && diagnostics.length > 0)
      diagnostics = locatedAll(diagnostics, placement).sort(
        (a: LintDiagnostic, b: LintDiagnostic) =>
          (a.line ?? Infinity) - (b.line ?? Infinity) || (a.column ?? 0) - (b.column ?? 0),
      );
    const { findings } = capped;
    const valid = findings === undefined ? !diagnostics.some((d) => d.severity === "error") : findings.errors === 0;
    return findings === undefined
      ? { source: at.source, line: at.line, model, endpoint, valid, diagnostics }
      : { source: at.source, line: at.line, model, endpoint, valid, diagnostics, findings };
  }

  /** Counts a verdict and hands it to the reporter. */
  private readonly deliver = (v: Verdict): void | Promise<void> => {
    this.count(v.diagnostics, v.findings);
    return this.reporter.result(v);
  };

  /** Adds one result to the summary; whether it is valid. */
  private count(diagnostics: readonly Diagnostic[], findings: FindingTotals | undefined): boolean {
    let errors = 0;
    let warnings = 0;
    if (findings === undefined) {
      for (let i = 0; i < diagnostics.length; i++) if (diagnostics[i]!.severity === "error") errors++;
      warnings = diagnostics.length - errors;
    } else ({ errors, warnings } = findings);
    const valid = errors === 0;
    this.summary.requests++;
    if (valid) this.summary.valid++;
    else this.summary.invalid++;
    this.summary.warnings += warnings;
    return valid;
  }

  // --preflight: a window of payloads in flight (issue 37.7), so that the preflight's per-host
  // limit, not the reading, sets the pace; their results still go out in input order
  private inFlight = 0;
  private tail: Promise<void> = Promise.resolve();
  private failure: { error: unknown } | undefined;
  private room: (() => void) | undefined;

  /** Queues one payload's verdict behind the ones before it; waits (the reader with it) while the window is full. */
  private windowed(verdict: Verdict | Promise<Verdict>): void | Promise<void> {
    if (this.failure !== undefined) throw this.failure.error;
    // settled now, so a rejection is handled whenever its turn comes
    const settled = Promise.resolve(verdict).then(
      (v) => ({ v }),
      (error: unknown) => ({ error }),
    );
    const previous = this.tail;
    this.inFlight++;
    this.tail = (async () => {
      await previous;
      const outcome = await settled;
      try {
        if (this.failure === undefined) {
          if ("error" in outcome) throw outcome.error;
          await this.deliver(outcome.v);
        }
      } catch (error) {
        this.failure ??= { error };
      } finally {
        this.inFlight--;
        const room = this.room;
        this.room = undefined;
        room?.();
      }
    })();
    if (this.inFlight < PREFLIGHT_WINDOW) return;
    return new Promise<void>((go) => (this.room = go)).then(() => {
      if (this.failure !== undefined) throw this.failure.error;
    });
  }

  /** Every payload still in the window reported (in input order); its first failure thrown. Call after the last file. */
  async drain(): Promise<void> {
    await this.tail;
    if (this.failure !== undefined) throw this.failure.error;
  }

  /** Counts one payload's verdict and hands it to the reporter: also for the results `--jobs` workers send back, in input order. */
  readonly report = (
    source: string,
    line: number,
    model: string | null,
    endpoint: string | null,
    diagnostics: LintDiagnostic[],
    /** the payload's totals when its findings were capped (capFindings) */
    findings?: FindingTotals,
  ): void | Promise<void> => {
    const valid = this.count(diagnostics, findings);
    return this.reporter.result(
      findings === undefined
        ? { source, line, model, endpoint, valid, diagnostics }
        : { source, line, model, endpoint, valid, diagnostics, findings },
    );
  };

  /** Counts a `--jobs` worker's rendered batch and hands it to the reporter (which has `batch`: src/lint/jobs.ts checks). */
  readonly reportBatch = (batch: RenderedBatch): void | Promise<void> => {
    const { requests, valid, invalid, warnings } = batch.summary;
    this.summary.requests += requests;
    this.summary.valid += valid;
    this.summary.invalid += invalid;
    this.summary.warnings += warnings;
    return this.reporter.batch!(batch);
  };

  /** Lints one payload (or reports why it could not be read); what the reader noticed comes first, as warnings. */
  readonly payload = (
    at: PayloadSource,
    value: unknown,
    problem: ReadProblem | undefined,
    warnings?: readonly ReadWarning[],
    text?: string,
    placement?: Placement,
    target: LintTarget = this.target,
  ): void | Promise<void> => {
    const verdict = this.verdict(at, value, problem, warnings, text, placement, target);
    if (this.check !== undefined) return this.windowed(verdict);
    return verdict instanceof Promise ? verdict.then(this.deliver) : this.deliver(verdict);
  };

  /** `{ max: maxFindings, words }`, made once per value of the two (not once per payload). */
  private limitObject: { max: number; words: boolean } | undefined;
  private get limit(): { max: number; words: boolean } {
    let limit = this.limitObject;
    if (limit === undefined || limit.max !== this.maxFindings || limit.words !== this.words)
      limit = this.limitObject = { max: this.maxFindings, words: this.words };
    return limit;
  }

  /**
   * One payload's findings. The common path (a payload read, resolved, its validator loaded,
   * nothing to re-check) runs without a closure or promise: methods with the payload's parts as
   * arguments, so a line costs its parse, its validation and one result object.
   */
  private verdict(
    at: PayloadSource,
    value: unknown,
    problem: ReadProblem | undefined,
    warnings: readonly ReadWarning[] | undefined,
    text: string | undefined,
    placement: Placement | undefined,
    target: LintTarget,
  ): Verdict | Promise<Verdict> {
    // the common line: an envelope whose (model, endpoint) strings were resolved before, read
    // without a warning, outside a document, with nothing to re-check: its validator straight away
    if (problem === undefined && warnings === undefined && placement === undefined && this.check === undefined) {
      const known = this.knownEnvelope(value);
      if (known !== undefined) {
        const input = (value as Record<string, unknown>).input;
        const diagnostics = known.validate(input, this.limit);
        if (diagnostics.length === 0)
          return {
            source: at.source,
            line: at.line,
            model: known.model,
            endpoint: known.endpoint,
            valid: true,
            diagnostics,
          };
        const resolved: ResolvedPayload = { model: known.model, endpoint: known.endpoint, input, prefix: "/input" };
        return this.judged(diagnostics, at, resolved, undefined, text, placement);
      }
    }
    const read = warnings?.map((w) => lintDiagnostic(w.rule, w.message, w.pointer, "warning"));
    if (problem !== undefined)
      return this.withRead(at, null, null, read, [lintDiagnostic(problem.rule, problem.message)], placement);
    const resolved = resolvePayload(value, target, this.registry);
    if ("rule" in resolved)
      return this.withRead(
        at,
        resolved.model,
        resolved.endpoint,
        read,
        [lintDiagnostic(resolved.rule, resolved.message, resolved.pointer)],
        placement,
      );
    const validate = this.registry.validatorOf(resolved.model, resolved.endpoint);
    if (typeof validate === "function" && resolved.prefix === "/input")
      this.rememberEnvelope(value, resolved, validate);
    return typeof validate === "function"
      ? this.validated(validate, at, resolved, read, text, placement)
      : validate.then((fn) => this.validated(fn, at, resolved, read, text, placement));
  }

  /**
   * Envelopes resolved before, by their own `model` and `endpoint` strings (a log names the same
   * few pairs a million times): what resolvePayload made of them and the endpoint's validator.
   * Only pairs that resolved to a loaded validator are kept, at most {@link KNOWN_ENVELOPES}.
   */
  private readonly envelopes = new Map<string, Map<string, KnownEnvelope>>();
  private envelopeCount = 0;

  /** The pair of an envelope `{"model": "…", "endpoint": "…", "input"}` (own keys, strings) when resolved before. */
  private knownEnvelope(value: unknown): KnownEnvelope | undefined {
    if (typeof value !== "object" || value === null) return undefined;
    const { model, endpoint } = value as Record<string, unknown>;
    if (typeof model !== "string" || typeof endpoint !== "string") return undefined;
    const known = this.envelopes.get(model)?.get(endpoint);
    if (known === undefined || !isStringEnvelope(value)) return undefined;
    return known;
  }

  /** Keeps an envelope's resolution for the next with the same strings (resolvePayload: an envelope's endpoint string is the target's no matter what). */
  private rememberEnvelope(value: unknown, resolved: ResolvedPayload, validate: Validate): void {
    if (!isStringEnvelope(value)) return;
    const { model, endpoint } = value as { model: string; endpoint: string };
    if (this.envelopeCount >= KNOWN_ENVELOPES) {
      this.envelopes.clear();
      this.envelopeCount = 0;
    }
    let byEndpoint = this.envelopes.get(model);
    if (byEndpoint === undefined) this.envelopes.set(model, (byEndpoint = new Map()));
    if (!byEndpoint.has(endpoint)) this.envelopeCount++;
    byEndpoint.set(endpoint, { model: resolved.model, endpoint: resolved.endpoint, validate });
  }

  /** A resolved payload through its validator: the validator words the first maxFindings and counts the rest (a million bad items: one pass). */
  private validated(
    fn: Validate,
    at: PayloadSource,
    resolved: ResolvedPayload,
    read: Diagnostic[] | undefined,
    text: string | undefined,
    placement: Placement | undefined,
  ): Verdict | Promise<Verdict> {
    return this.judged(fn(resolved.input, this.limit), at, resolved, read, text, placement);
  }

  /** A resolved payload's own findings (its validator's), re-checked on the text and prefixed as needed. */
  private judged(
    diagnostics: Diagnostic[],
    at: PayloadSource,
    resolved: ResolvedPayload,
    read: Diagnostic[] | undefined,
    text: string | undefined,
    placement: Placement | undefined,
  ): Verdict | Promise<Verdict> {
    if (diagnostics.length === 0 && this.check === undefined)
      return this.withRead(at, resolved.model, resolved.endpoint, read, diagnostics, placement);
    // integers beyond 2^53 are compared as written, not as JSON.parse rounded them (spec 2.2);
    // src/rules (and Ajv with it) is loaded only for a payload that has both findings and such a number
    if (text !== undefined && diagnostics.length > 0 && /\d{16}/.test(text))
      return import("../rules/index.js").then(({ recheckOnText }) =>
        this.checked(
          recheckOnText(diagnostics, resolved.input, (pointer) => rawNumberAt(text, resolved.prefix + pointer)),
          at,
          resolved,
          read,
          placement,
        ),
      );
    return this.checked(diagnostics, at, resolved, read, placement);
  }

  /** --preflight (src/lint/preflight.ts): the referenced files' findings follow the payload's own; pointers into an envelope's `input` prefixed. */
  private checked(
    diagnostics: Diagnostic[],
    at: PayloadSource,
    resolved: ResolvedPayload,
    read: Diagnostic[] | undefined,
    placement: Placement | undefined,
  ): Verdict | Promise<Verdict> {
    const { model, endpoint, input, prefix } = resolved;
    const prefixed = (all: Diagnostic[]): Verdict => {
      if (prefix !== "" && all.length > 0) all = all.map((d) => ({ ...d, pointer: prefix + d.pointer }));
      return this.withRead(at, model, endpoint, read, all, placement);
    };
    if (this.check === undefined) return prefixed(diagnostics);
    return this.check(model, endpoint, input).then((more) => prefixed([...diagnostics, ...more]));
  }

  /** What the reader noticed (warnings) first, then the payload's own findings. */
  private withRead(
    at: PayloadSource,
    model: string | null,
    endpoint: string | null,
    read: Diagnostic[] | undefined,
    diagnostics: Diagnostic[],
    placement: Placement | undefined,
  ): Verdict {
    return this.finish(at, model, endpoint, read === undefined ? diagnostics : [...read, ...diagnostics], placement);
  }

  /**
   * The target a bare document names itself: a top-level `$schema` that resolves (from the
   * file's directory; for stdin, the current directory) to one endpoint's editor schema in the
   * generated directory. One that does not: why, said with lint/no-endpoint (issue 42.3).
   */
  private schemaTarget(value: unknown, dir: string, stdin: boolean): LintTarget | undefined {
    if (typeof value !== "object" || value === null || Array.isArray(value) || !Object.hasOwn(value, "$schema"))
      return undefined;
    const named = (value as Record<string, unknown>).$schema;
    const editorSchemas = `the editor schemas vsk generated (${relativeShown(this.registry.dir)}/<owner>/<name>/<endpoint>.schema.json)`;
    if (typeof named !== "string") return { schemaNote: `its $schema is ${describeValue(named)}, not a path` };
    if (/^[a-z][a-z0-9+.-]*:/i.test(named))
      return {
        schemaNote: `its $schema ${describeValue(named)} is a URL; vsk reads a $schema that is a relative path to one of ${editorSchemas}`,
      };
    const wanted = resolve(dir, named);
    for (const e of this.registry.entries.values())
      if (e.editorSchema !== undefined && resolve(this.registry.dir, e.editorSchema) === wanted)
        return { model: e.model, endpoint: e.endpoint };
    // what a message shows: no query string or fragment (a `$schema` copied from a signed link keeps its token)
    const path = redactUrl(relativeShown(wanted));
    const from = stdin
      ? "resolved from the current directory: standard input has no directory of its own"
      : "resolved from the file's directory";
    return {
      schemaNote: `its $schema names ${path.length > 200 ? `${path.slice(0, 199)}…` : path} (${from}), which is not one of ${editorSchemas}`,
    };
  }

  /**
   * A `.json` document (a file or stdin without --ndjson): one payload, or an array of envelopes,
   * each element linted at its own line; diagnostics carry their field's line and column.
   */
  private document(dir: string, stdin = false): PayloadHandler {
    return async (at, value, problem, warnings, text) => {
      if (problem !== undefined || text === undefined) return this.payload(at, value, problem, warnings, text);
      if (!Array.isArray(value) || !value.some(isEnvelope)) {
        const target =
          this.target.model === undefined && this.target.endpoint === undefined
            ? (this.schemaTarget(value, dir, stdin) ?? this.target)
            : this.target;
        return this.payload(at, value, undefined, warnings, text, { text, line: at.line, column: 1 }, target);
      }
      const spans = elementSpans(text);
      let line = 1;
      let lineStart = 0;
      let scanned = 0;
      for (let i = 0; i < value.length && i < spans.length; i++) {
        const [start, end] = spans[i]!;
        for (; scanned < start; scanned++)
          if (text.charCodeAt(scanned) === 10) {
            line++;
            lineStart = scanned + 1;
          }
        const own = `/${i}`;
        const mine = warnings
          ?.filter((w) => w.pointer === own || w.pointer.startsWith(own + "/"))
          .map((w) => ({ ...w, pointer: w.pointer.slice(own.length) }));
        const placement = { text: text.slice(start, end), line, column: start - lineStart + 1 };
        const result = this.payload(
          { source: at.source, line },
          value[i],
          undefined,
          mine !== undefined && mine.length > 0 ? mine : undefined,
          placement.text,
          placement,
        );
        if (result) await result;
      }
    };
  }

  /** Lints every payload of one file (`-` is stdin), gzip or brotli decompressed as it streams. */
  async file(path: string, cwd: string, stdinNdjson: boolean): Promise<void> {
    if (path === "-") {
      this.opened?.(process.stdin as { bytesRead?: number });
      const { text: piped } = await decompressed(process.stdin, "<stdin>", this.warn);
      // piped NDJSON needs no --ndjson (issue 25.2); one document, pretty-printed or not, reads as one
      const { ndjson, stream: stdin } = stdinNdjson ? { ndjson: true, stream: piped } : await sniffNdjson(piped);
      if (ndjson) await readNdjson(stdin, "<stdin>", this.payload, this.readOptions, this.jobs?.sink(this, "<stdin>"));
      else await readSingleJson(stdin, "<stdin>", this.document(resolve(cwd), true));
      return;
    }
    const file = openFile(path, cwd);
    this.opened?.(file);
    const { text: stream, compression } = await decompressed(file, path, this.warn);
    if (isNdjsonPath(path)) {
      if (compression === undefined && this.jobs?.ranges !== undefined) {
        let ranged: boolean;
        try {
          ranged = await this.jobs.ranges(this, path, file);
        } catch (error) {
          file.destroy();
          throw error;
        }
        if (ranged) return void file.destroy();
      }
      await readNdjson(stream, path, this.payload, this.readOptions, this.jobs?.sink(this, path, file, compression));
    } else await readSingleJson(stream, path, this.document(dirname(resolve(cwd, path))));
  }
}
