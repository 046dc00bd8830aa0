/**
 * The classification of schema changes, as one table of data: one row per change kind (the
 * endpoint, request and response rows), with its oasdiff-style id, the direction it applies
 * to, its severity, the sentence a person reads and how to build a concrete example payload.
 * `diff/` finds changes and names their kind; everything a report says about a kind comes from
 * here. `CHANGE_CATALOGUE` is the same table one entry per concrete change id, as
 * `docs/drift-changes.md` lists it.
 */
import type { ChangeSeverity, Direction } from "../types.js";
import { ENDPOINT_ROWS } from "./endpoint.js";
import { keywordName } from "./keywords.js";
import { REQUEST_ROWS } from "./request.js";
import { RESPONSE_ROWS } from "./response.js";
import type { ChangeKind, Variant } from "./row.js";

export const CHANGE_KINDS = [...ENDPOINT_ROWS, ...REQUEST_ROWS, ...RESPONSE_ROWS] as const;

export type ChangeKindName = (typeof CHANGE_KINDS)[number]["kind"];

const BY_KIND = new Map<string, ChangeKind>(CHANGE_KINDS.map((row) => [row.kind, row]));

export function changeKind(kind: ChangeKindName): ChangeKind {
  const row = BY_KIND.get(kind);
  if (row === undefined) throw new Error(`drift: no row for change kind ${kind}`);
  return row;
}

function fillId(template: string, variant: Partial<Variant>): string {
  return template
    .replace("{keyword}", variant.keyword === undefined ? "{keyword}" : keywordName(variant.keyword))
    .replace("{change}", variant.change ?? "{change}");
}

/** The id a change of `kind` gets, for the keyword (and change) it is about. */
export function changeIdOf(kind: ChangeKindName, variant: Partial<Variant> = {}): string {
  return fillId(changeKind(kind).id, variant);
}

/** One change id of the catalogue: what `vsk drift` can report, and how it classifies it. */
export interface CatalogueEntry {
  id: string;
  /** the row of `CHANGE_KINDS` it comes from */
  kind: ChangeKindName;
  direction: Direction;
  severity: ChangeSeverity;
  /** one line for people: the row's sentence with its placeholders named */
  description: string;
  /** whether a change of this id carries an example payload where one exists */
  example: boolean;
}

function describe(row: ChangeKind, variant: Partial<Variant>): string {
  return row.text
    .replace(/\{keyword\}/g, variant.keyword ?? "*keyword*")
    .replace(/\{change\}/g, variant.change ?? "*change*")
    .replace(/\{(field|value|from|to)\}/g, "*$1*");
}

/** Every change id the differ can produce, one entry each, in table order. */
export const CHANGE_CATALOGUE: readonly CatalogueEntry[] = CHANGE_KINDS.flatMap((typed) => {
  const row: ChangeKind = typed;
  return (row.variants ?? [{}]).map((variant: Partial<Variant>) => ({
    id: fillId(row.id, variant),
    kind: typed.kind,
    direction: row.direction,
    severity: row.severity,
    description: describe(row, variant),
    example: row.example !== undefined,
  }));
});

const BY_ID = new Map(CHANGE_CATALOGUE.map((e) => [e.id, e]));

/** The catalogue entry of a change id, or undefined for an id the differ cannot produce. */
export function catalogueEntry(id: string): CatalogueEntry | undefined {
  return BY_ID.get(id);
}
