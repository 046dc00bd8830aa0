/**
 * What the differ produces (a `Finding`: one difference, before classification, named by its
 * kind in `../table/`) and the state a schema walk carries while it finds them.
 */
import type { ChangeKindName } from "../table/index.js";
import type { Direction } from "../types.js";
import { child, type Alternative, type SchemaRoot, type SchemaView } from "../view.js";

/** One difference, before classification. */
export interface Finding {
  kind: ChangeKindName;
  model: string;
  endpoint: string;
  direction: Direction;
  /** payload location, `*` for any array index, `{unlisted}` for any property not listed; [] is the whole body */
  field: string[];
  before: string | null;
  after: string | null;
  params: FindingParams;
}

export interface FindingParams {
  keyword?: string;
  change?: "increased" | "decreased" | "set" | "unset";
  value?: unknown;
  from?: unknown;
  to?: unknown;
  /** for an example: the schema a sample value is drawn from, and on which side it lives */
  sample?: { schema: unknown; side: "before" | "after"; type?: string };
  /**
   * Properties the payload must hold for the change to apply: the `dependentSchemas` keys and
   * the properties of the `if` whose `then` the change lies under, each with the field of its
   * object (a prefix of the change's field).
   */
  triggers?: Trigger[];
}

/**
 * A property present in the object at `field` (a `dependentSchemas` key, or a property an `if`
 * checks: the schema below applies then; issue 29.2), its value sampled from `schema` (the
 * `if`'s) when given, else from the object's own schema of it.
 */
export interface Trigger {
  field: string[];
  name: string;
  schema?: unknown;
}

/**
 * The field token of a property its object does not list (`additionalProperties`), as `*` is
 * any array item: `options.{unlisted}` in a report.
 */
export const UNLISTED = "{unlisted}";
/** The field token of a property's name, as `propertyNames` checks it (issue 29.2). */
export const NAME_TOKEN = "{name}";
/** The field token of any property whose name matches a `patternProperties` pattern (issue 29.2). */
export const patternToken = (pattern: string): string => `{/${pattern}/}`;

/** A body's direction: what the service accepts (request) or what clients receive (response). */
export type BodyDirection = "request" | "response";

type WhatOf<D extends BodyDirection> = ChangeKindName extends infer K
  ? K extends `${D}/${infer W}`
    ? W
    : never
  : never;
/** A change both directions name alike (`request/<what>` and `response/<what>` are both rows). */
export type SharedWhat = WhatOf<"request"> & WhatOf<"response">;
/** A change only requests name (`request/<what>`). */
export type RequestWhat = WhatOf<"request">;

/** The kind of a change both directions name alike, in the walk's direction. */
export function kindOf(direction: BodyDirection, what: SharedWhat): ChangeKindName {
  return `${direction}/${what}`;
}

export type Emit = (
  kind: ChangeKindName,
  field: string[],
  before: string | null,
  after: string | null,
  params?: FindingParams,
) => void;

/** One direction's walk over both sides of an endpoint's body. */
export interface Walk {
  direction: BodyDirection;
  before: SchemaRoot;
  after: SchemaRoot;
  emit: Emit;
  /** compares two views one level down (a property's, the items'), with this walk */
  descend: (before: SchemaView, after: SchemaView, field: string[], walk: Walk) => void;
  /**
   * Pairs of alternatives already compared (or being compared) in this direction, by location
   * and content. A shared definition is compared once, from the first field that reaches it:
   * walking it once per path is exponential when definitions reference each other twice or
   * more (D0 → D1 → … with two properties each), and a recursive schema stops where it recurs.
   */
  compared: Set<string>;
  /** references whose definitions, and all they reach, are written the same on both sides */
  sameRefs: Set<string>;
  /** pairs reported as too deep to compare, reported once */
  tooDeep: Set<string>;
  /** alternatives on the current path */
  depth: number;
  /**
   * The field (as JSON) whose schema is being compared as a subschema that applies beside the
   * object's own (`then`, `else`, a `dependentSchemas` value; issue 39): a property listed there
   * only adds to what the object's schema says of it.
   */
  conjunctAt?: string;
}

/** Compares one group of keywords of a pair of alternatives. */
export type CompareKeywords = (snapshot: Alternative, source: Alternative, field: string[], walk: Walk) => void;

/** Where a keyword is written in an alternative, or the alternative itself when it is absent. */
export const at = (alt: Alternative, keyword: string): string =>
  keyword in alt.schema ? child(alt.at, keyword) : alt.at;
