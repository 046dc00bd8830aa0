/**
 * The `--summary` tables' rows (also the `summary` keys of `--format json`) and a tally's rows as
 * data: types only, imported by summary.ts, which counts them, and by lint.ts, whose
 * `RenderedBatch` carries a worker's tally. Their one home, importing nothing, so that lint.ts
 * and summary.ts do not import each other (issue 42.6).
 */
/** Where a rule was first seen, in result order. */
export interface FirstSeen {
  source: string;
  line: number;
  /** in a `.json` document: the field's column */
  column?: number;
  pointer: string;
}

/** A row that stands for every key beyond the first `MAX_KEYS` (summary.ts) of its table: its keys are null. */
interface Other {
  other?: true;
}

export interface EndpointCount extends Other {
  /** null when the payload could not be read or named no endpoint */
  model: string | null;
  endpoint: string | null;
  requests: number;
  invalid: number;
  warnings: number;
}

export interface RuleCount extends Other {
  rule: string | null;
  /** diagnostics of the rule */
  findings: number;
  /** requests with at least one of them */
  requests: number;
  /** `requests` / all requests (0 when there are none) */
  share: number;
  first: FirstSeen | null;
}

export interface FieldCount extends Other {
  /** the diagnostic's JSON Pointer into the request body (an envelope's `/input` left out), every array index folded to `*` (`/keyframes/* /frame_index`) */
  field: string | null;
  findings: number;
  requests: number;
}

/** What `--summary` adds to the totals: also the `summary` keys of `--format json`. */
export interface SummaryTables {
  byEndpoint: EndpointCount[];
  byRule: RuleCount[];
  byField: FieldCount[];
}

/** A counter of a table's key: its findings and the requests that had them. */
export interface Counted {
  findings: number;
  requests: number;
  /** the number of the last request counted in `requests` */
  seen: number;
}

export type EndpointRow = Omit<EndpointCount, "other">;
export type RuleRow = Counted & { first: FirstSeen | null };

/**
 * A tally's rows as plain data (structured-clone safe): what a `--jobs` worker sends with each
 * batch, uncapped, merged in order by `SummaryTally.merge` (summary.ts).
 */
export interface TallyData {
  requests: number;
  endpoints: Map<string, EndpointRow>;
  rules: Map<string, RuleRow>;
  fields: Map<string, Counted>;
}
