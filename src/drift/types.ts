/** The data of a drift report: plain JSON, the shape `--format json` prints (schemas/drift-report.schema.json). */

/** How a change cuts for a client: fail-on levels and report order follow `SEVERITY_ORDER`. */
export type ChangeSeverity = "breaking" | "behavior" | "unclassified" | "safe" | "docs";
/** What a change touches: the request body, the response body, or the endpoint itself. */
export type Direction = "request" | "response" | "endpoint";

/** Breaking first; the order of every report. */
export const SEVERITY_ORDER: readonly ChangeSeverity[] = ["breaking", "behavior", "unclassified", "safe", "docs"];
export const DIRECTION_ORDER: readonly Direction[] = ["endpoint", "request", "response"];

/** One classified change of one endpoint of one model. */
export interface Change {
  /** oasdiff-style change id, e.g. `request-property-enum-value-removed` */
  id: string;
  severity: ChangeSeverity;
  /** `<owner>/<name>` */
  model: string;
  endpoint: string;
  direction: Direction;
  /**
   * Where the change is on each side: a JSON Pointer into the endpoint's normalized request
   * (or response) JSON Schema, into the document's `paths` for an endpoint change; null for a
   * side where the thing does not exist at all.
   */
  pointer: { before: string | null; after: string | null };
  /** the payload location the change is about (`*` stands for any array index); "" is the whole body */
  field?: string;
  /** one sentence for people */
  text: string;
  /**
   * The change's stable name (issue 39): 16 hex digits from its id, model, endpoint, direction,
   * field and (where one location holds several) the value it is about; the same under key
   * reordering and unrelated edits. `.vsk-drift-accept.json` may name a change by it.
   */
  fingerprint: string;
  /**
   * request: a minimal payload the snapshot accepts and the source rejects; response: a minimal
   * body the source allows and a client built from the snapshot rejects. Only when one exists.
   */
  example?: unknown;
  /** why this change has no example although its kind carries one, when a reason can be given (a super-linear pattern drift does not run) */
  noExample?: string;
}

/** A change silenced by `.vsk-drift-accept.json`. */
export interface AcceptedChange extends Change {
  accepted: { reason: string; expires?: string };
}

export type ModelStatus = "unchanged" | "changed" | "missing" | "error";

export interface ModelReport {
  model: string;
  status: ModelStatus;
  sha256: { snapshot: string | null; source: string | null };
  /** why a model is `missing` or `error` */
  message?: string;
}

/** `--requests`: payloads valid against the snapshot and rejected by the source, grouped by the change that rejects them. */
export interface RequestImpact {
  /** payloads read */
  checked: number;
  /** valid before, rejected now */
  rejectedNow: number;
  /** already rejected by the snapshot (not drift) */
  invalidBefore: number;
  /** could not be read, or not attributed to a configured endpoint */
  skipped: Array<{ source: string; line: number; message: string }>;
  groups: Array<{
    /** the change that rejects them; null when no classified change explains the rejection */
    change: Pick<Change, "id" | "severity" | "model" | "endpoint" | "direction" | "pointer" | "text"> | null;
    requests: Array<{ source: string; line: number; pointer: string; message: string }>;
  }>;
}

export type ChangeSeverityCounts = Record<ChangeSeverity, number>;

export interface DriftSummary extends ChangeSeverityCounts {
  accepted: number;
  models: Record<ModelStatus, number>;
  failOn: FailOn;
  /** 0 nothing at or above failOn (or accepted with --update); 1 drift at or above it; 3 a model could not be fetched or parsed */
  exitCode: 0 | 1 | 3;
  /** with --update: the models written to the snapshot */
  updated?: string[];
}

export type FailOn = "breaking" | "behavior" | "any" | "never";

export interface DriftReport {
  /** the source compared against, query string removed */
  source: string;
  models: ModelReport[];
  changes: Change[];
  accepted: AcceptedChange[];
  /** expired or malformed accept entries, entries that match nothing */
  warnings: string[];
  requests?: RequestImpact;
  summary: DriftSummary;
}
