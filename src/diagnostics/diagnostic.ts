/**
 * A diagnostic: one finding about one field of a request payload, in the service's own
 * vocabulary for its validation failure (spec 7.1, 7.2), and the error a builder throws. Every
 * pointer and message goes through URL redaction (spec 7.2, input_fetch_failed rule 3).
 */
import { mayHoldSecret, mayHoldUrl, redactPointer, redactUrlsInText } from "../runtime/redact.js";

// #region runtime (copied into the generated support module: no imports in here)
export type Severity = "error" | "warning";

/**
 * The JSON Schema keywords a schema diagnostic names: its `rule` is `schema/<keyword>`, its
 * `expected.kind` the keyword (each has its sentence in wording.ts's SCHEMA_MESSAGES).
 */
export type SchemaKeyword =
  | "required"
  | "type"
  | "enum"
  | "const"
  | "minimum"
  | "maximum"
  | "exclusiveMinimum"
  | "exclusiveMaximum"
  | "multipleOf"
  | "minLength"
  | "maxLength"
  | "pattern"
  | "format"
  | "minItems"
  | "maxItems"
  | "uniqueItems"
  | "minProperties"
  | "maxProperties"
  | "additionalProperties"
  | "unevaluatedProperties"
  | "propertyNames"
  | "dependentRequired"
  | "oneOf"
  | "anyOf"
  | "not"
  | "contains"
  | "if"
  | "false";

/** The ids of vsk's rules (src/rules/kinds.ts: the spec's cross-field rules, the unknown-field warning). */
export type RuleId =
  | "frame-index-unique"
  | "frame-index-within-duration"
  | "file-url-requires-thinking"
  | "web-url-requires-thinking"
  | "duration-auto-or-range"
  | "prompt-length-recommendation"
  | "unknown-field";

/** The kinds of vsk's rules (src/rules/kinds.ts), a rule diagnostic's `expected.kind`. */
export type RuleKindName =
  | "uniqueItemField"
  | "itemFieldWithinDuration"
  | "requiresFlag"
  | "integerInSetOrRange"
  | "promptLengthRecommendation"
  | "unknownFields";

/**
 * A diagnostic's `rule` as this version of vsk names it (editors complete these); the type stays
 * open (`string & {}`) because a newer vsk, or `vsk lint` (`lint/…`), may name others.
 */
export type KnownRule = `schema/${SchemaKeyword}` | RuleId;
/** `expected.kind` as this version of vsk names it: a schema keyword or a rule kind (open, as `KnownRule`). */
export type KnownExpectedKind = SchemaKeyword | RuleKindName;

/** One finding about one field of a request payload. */
export interface Diagnostic {
  severity: Severity;
  /** JSON Pointer to the offending field; a missing required field points at the field itself */
  pointer: string;
  /** `schema/<keyword>` for a schema violation, the rule id for a cross-field rule */
  rule: KnownRule | (string & {});
  /** spec 7.1: the code the service would fail the prediction with */
  code: "invalid_input";
  /**
   * spec 7.2: the reason the service would give; `input_fetch_failed` only from the preflight's
   * `input-fetch-failed` (issue 26: a referenced file the service could not fetch)
   */
  reason: "input_validation_failed" | "input_fetch_failed";
  /** spec 7.2: whether the identical request may succeed later (true only for a retryable fetch failure) */
  retryable: boolean;
  /** names the field and says expected versus received; never a URL's query string */
  message: string;
  /** what the schema keyword or the rule asks for, as data (undefined for a reading problem) */
  expected?: Expected | undefined;
  /** the value at `pointer`, as data; undefined when there is none (a missing field) */
  received?: Received | undefined;
}

/** A JSON value, as a diagnostic's data holds it. */
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/**
 * What a diagnostic asks for: `kind` is the schema keyword (`maximum`, with Ajv's params:
 * `{ kind: "maximum", limit: 20 }`) or the rule's kind (`requiresFlag`, with the rule's
 * parameters: `{ kind: "requiresFlag", flag: "/enable_thinking", value: true }`). Strings are
 * redacted like messages.
 */
export interface Expected {
  readonly kind: KnownExpectedKind | (string & {});
  readonly [param: string]: JsonValue;
}

/**
 * The received value, small and JSON-safe: a number, boolean or null as it is; a string
 * redacted and shortened as a message shows it (over 60 characters: its first 57 and `…`); an
 * array or object by its size; a number JSON cannot hold exactly (an integer beyond 2^53 read
 * by `vsk lint`, NaN, Infinity) by its decimal text.
 */
export type Received =
  | string
  | number
  | boolean
  | null
  | { readonly type: "array"; readonly items: number }
  | { readonly type: "object"; readonly fields: number }
  | { readonly type: "integer" | "number"; readonly text: string };

/** Marks every RequestValidationError, whichever copy of this module made it. */
const VALIDATION_ERROR = Symbol.for("video-schema-kit.RequestValidationError");

/**
 * Thrown by `build…()` and by the queue client's `submit` when the payload would be rejected;
 * carries every diagnostic. `instanceof` holds across the copies of this class (the generated
 * support module, `video-schema-kit/models`, `video-schema-kit/client`): one error, whichever a
 * caller imported.
 */
export class RequestValidationError<TEndpoint extends string = string> extends Error {
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && VALIDATION_ERROR in value;
  }
  readonly code = "invalid_input";
  readonly reason = "input_validation_failed";
  readonly retryable = false;
  constructor(
    readonly endpoint: TEndpoint,
    readonly diagnostics: readonly Diagnostic[],
  ) {
    const errors = diagnostics.filter((d) => d.severity === "error");
    super(
      `${endpoint}: ${errors.length} invalid field${errors.length === 1 ? "" : "s"}: ${errors.map((d) => d.message).join("; ")}`,
    );
    this.name = "RequestValidationError";
    Object.defineProperty(this, VALIDATION_ERROR, { value: true });
  }
}

/** What `safeBuild…()` returns; a generated builder names its queue path and endpoint key as literals. */
export type BuildResult<TBody, TPath extends string = string, TEndpoint extends string = string> =
  | { ok: true; request: { method: "POST"; path: TPath; body: TBody }; warnings: Diagnostic[] }
  | { ok: false; error: RequestValidationError<TEndpoint> };

/** A diagnostic in the service's vocabulary (spec 7.2); pointer and message lose any URL query string. */
export function diagnostic(
  severity: Severity,
  pointer: string,
  rule: string,
  message: string,
  expected?: Expected,
  received?: Received,
): Diagnostic {
  // a field named like a signed URL must not carry its query string into any output either
  return redacted(severity, redactPointerOnce(pointer), rule, redactOnce(message), expected, received);
}

/**
 * A diagnostic whose pointer and message are already redacted (or hold nothing to redact: see
 * `safePiece`); `expected` and `received` are built redacted (`receivedOf`, `expectedOf`).
 */
export function redacted(
  severity: Severity,
  pointer: string,
  rule: string,
  message: string,
  expected?: Expected,
  received?: Received,
): Diagnostic {
  return {
    severity,
    pointer,
    rule,
    code: "invalid_input",
    reason: "input_validation_failed",
    retryable: false,
    message,
    expected,
    received,
  };
}

/**
 * Whether a piece of a message leaves the whole message with nothing to redact, when the pieces
 * are joined only by text that holds no `? # @ / \\` and no `;` before a space (`": "`, `", "`,
 * `"; each …"`): it holds nothing to redact itself, and does not end in `?` or `#`, which the
 * next character would make the start of a query or fragment. A rule that builds its messages
 * from the same pieces over and over checks each piece once instead of each message.
 */
export function safePiece(text: string): boolean {
  const last = text.charCodeAt(text.length - 1);
  return !mayHoldSecret(text) && last !== 63 /* ? */ && last !== 35; /* # */
}

/** Texts and pointers already redacted: the same ones come back payload after payload (bounded). */
const REDACTED = new Map<string, string>();
const REDACTED_POINTERS = new Map<string, string>();

/** `redact(text)`, remembered in `seen` for texts up to 1024 characters (at most 4096 of them). */
function remembered(seen: Map<string, string>, text: string, redact: (text: string) => string): string {
  let out = seen.get(text);
  if (out === undefined) {
    out = redact(text);
    if (text.length <= 1024) remember(seen, text, out);
  }
  return out;
}

function remember(seen: Map<string, string>, text: string, out: string): void {
  if (seen.size >= 4096) seen.clear();
  seen.set(text, out);
}

/**
 * `redactUrlsInText`, remembered, for a message whose data parts were redacted before they were
 * quoted: values by `describeValue` (secrets withheld too), field names by `fieldLabel`. So only
 * a URL part, which the joins of pieces can make (`…?` then `x`), sends it to the redaction; the
 * secrets' costlier test ran on the data parts alone (issue S1).
 */
export function redactOnce(text: string): string {
  if (!mayHoldUrl(text)) return text; // the fast path of most messages, without a lookup
  return remembered(REDACTED, text, redactUrlsInText);
}

/**
 * `redactPointer`, remembered: each field name is redacted as the value it is, never the
 * pointer's text (a cut inside `~1` left an invalid pointer).
 */
export function redactPointerOnce(pointer: string): string {
  if (pointer.length <= 1024) {
    // the same pointers come back line after line: a lookup costs less than the secrets' test (issue S1)
    const known = REDACTED_POINTERS.get(pointer);
    if (known !== undefined) return known;
  }
  if (!pointer.includes("~") && !mayHoldSecret(pointer)) {
    if (pointer.length <= 1024) remember(REDACTED_POINTERS, pointer, pointer);
    return pointer;
  }
  return remembered(REDACTED_POINTERS, pointer, redactPointer);
}

/** The pointers of the fields that failed their schema: a rule about such a field adds nothing. */
export interface InvalidPointers {
  readonly size: number;
  has(pointer: string): boolean;
}

/**
 * A payload's few failures are scanned (cheaper than building a Set); many go into a Set, built
 * at the fifth question: a rule asks about a field or two of a payload with a million failed
 * items (issue 38.3), and a scan or two of their pointers costs less than hashing them all.
 * `more`: the pointers of the failures past a finding limit (src/rules/check.ts `diagnose`).
 */
export function invalidPointers(diagnostics: readonly Diagnostic[], more: readonly string[] = []): InvalidPointers {
  const size = diagnostics.length + more.length;
  let asked = 0;
  let set: Set<string> | undefined;
  return {
    size,
    has(pointer) {
      if (set === undefined && (size <= 16 || ++asked <= 4)) {
        for (let i = 0; i < diagnostics.length; i++) if (diagnostics[i]!.pointer === pointer) return true;
        for (let i = 0; i < more.length; i++) if (more[i] === pointer) return true;
        return false;
      }
      if (set === undefined) {
        set = new Set(more);
        for (let i = 0; i < diagnostics.length; i++) set.add(diagnostics[i]!.pointer);
      }
      return set.has(pointer);
    },
  };
}

/**
 * How many findings a check keeps (issue 38.2, 38.3): the first `max` (every one when absent),
 * then one `more-findings` diagnostic that counts the rest exactly; `errorsOnly` skips the
 * warning-only checks (a Standard Schema `validate` reports errors alone).
 */
export interface FindingLimit {
  readonly max?: number;
  readonly errorsOnly?: boolean;
  /**
   * `false`: the findings are counted, not worded, for a caller that shows none of them (`vsk lint
   * --summary-only`): each keeps its severity, pointer and rule, with `message` "" and no
   * `expected` or `received` (the same findings, in the same order, as when worded).
   */
  readonly words?: boolean;
}

/**
 * A finding counted, not worded (`FindingLimit.words === false`): its severity, its pointer
 * (redacted as a worded one's is) and its rule.
 */
export function unworded(severity: Severity, pointer: string, rule: string): Diagnostic {
  return redacted(severity, redactPointerOnce(pointer), rule, "");
}

/** Findings kept per payload by default: `vsk lint`'s `--max-findings-per-request` and `~standard.validate`'s issues. */
export const DEFAULT_MAX_FINDINGS = 100;

/** The rule of the one diagnostic that stands for the findings past the limit. */
export const MORE_FINDINGS_RULE = "more-findings";

/**
 * The diagnostic for `more` findings past the first `max`, `errors` of them errors: an error when
 * any is (a payload with errors stays invalid), else a warning. Its `expected` holds the counts
 * as data (`{ kind: "more-findings", max, more, errors, warnings }`).
 */
export function moreFindings(max: number, more: number, errors: number): Diagnostic {
  const warnings = more - errors;
  const kinds = [
    ...(errors > 0 ? [`${errors} error${errors === 1 ? "" : "s"}`] : []),
    ...(warnings > 0 ? [`${warnings} warning${warnings === 1 ? "" : "s"}`] : []),
  ].join(", ");
  return redacted(
    errors > 0 ? "error" : "warning",
    "",
    MORE_FINDINGS_RULE,
    `… and ${more} more finding${more === 1 ? "" : "s"} (${kinds}), not shown: only the first ${max} findings of a request are kept`,
    { kind: MORE_FINDINGS_RULE, max, more, errors, warnings },
  );
}
// #endregion runtime
