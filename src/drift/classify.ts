/**
 * From findings to changes: the table row of each finding gives its id, severity and sentence;
 * rows with an example strategy get a checked example payload.
 */
import { createHash } from "node:crypto";
import type { EndpointModel, ModelSchema } from "../schema/index.js";
import { escapePointerToken } from "../json/index.js";
import { NAME_TOKEN, UNLISTED, type Finding } from "./diff/index.js";
import { ExampleMaker, ValidatorCache } from "./example.js";
import { canonical } from "./view.js";
import { catalogueEntry, changeIdOf, changeKind } from "./table/index.js";
import type { Change } from "./types.js";
import type { ModelRef } from "../config/index.js";
import { rulesFor } from "../rules/index.js";

/** `keyframes[].frame_index` for `["keyframes", "*", "frame_index"]`, `options.{unlisted}` for an unlisted property (`{name}` a property name, `{/^a/}` a property matching a pattern); the root is the whole body. */
export function fieldPathLabel(field: readonly string[], direction: Change["direction"]): string {
  if (field.length === 0) return direction === "response" ? "(response body)" : "(request body)";
  let label = "";
  for (const token of field) {
    if (token === "*") label += "[]";
    // `{unlisted}`, `{name}` (propertyNames), `{/pattern/}` (patternProperties): tokens of the differ
    else if (token === UNLISTED || token === NAME_TOKEN || /^\{\/.*\/\}$/s.test(token))
      label += label === "" ? token : `.${token}`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(token)) label += label === "" ? token : `.${token}`;
    else label += `[${JSON.stringify(token)}]`;
  }
  return label;
}

/** A value as a sentence shows it: strings quoted, lists comma-separated, long JSON cut short. */
export function showValue(value: unknown): string {
  if (value === undefined) return "(none)";
  if (Array.isArray(value) && value.every((v) => v === null || typeof v !== "object"))
    return value.map((v) => JSON.stringify(v)).join(", ");
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/**
 * A change's stable name (issue 39): what changed (its id) and where, as a payload location
 * (model, endpoint, direction, field), plus the value it is about where one location holds
 * several (an enum value, an `anyOf` alternative, in canonical JSON: key order does not count).
 * Never the JSON Pointers: those move when an unrelated edit renumbers an `enum` or an `anyOf`,
 * or renames a definition. 16 hex digits of SHA-256.
 */
export function fingerprintOf(
  change: Pick<Change, "id" | "model" | "endpoint" | "direction" | "field">,
  subject?: unknown,
): string {
  const parts = [change.id, change.model, change.endpoint, change.direction, change.field ?? null];
  if (subject !== undefined) parts.push(canonical(subject));
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex").slice(0, 16);
}

/** The rows whose sentence names a value that tells changes at one location apart (`{value}`). */
const bySubject = (text: string): boolean => text.includes("{value}");

export function classify(finding: Finding, examples?: ExampleMaker): Change {
  const row = changeKind(finding.kind);
  const p = finding.params;
  const keyword = p.keyword ?? "";
  const id = changeIdOf(finding.kind, { keyword, ...(p.change === undefined ? {} : { change: p.change }) });
  // the differ names only catalogued ids (test/drift/catalogue.test.ts); an unknown one is a bug here
  if (catalogueEntry(id) === undefined) throw new Error(`drift: change id ${id} is not in the catalogue`);
  const text = fill(row.text, {
    field: fieldPathLabel(finding.field, finding.direction),
    keyword,
    change: p.change ?? "",
    value: typeof p.value === "string" && finding.direction === "endpoint" ? p.value : showValue(p.value),
    from: showValue(p.from),
    to: showValue(p.to),
  });
  const change: Change = {
    id,
    severity: row.severity,
    model: finding.model,
    endpoint: finding.endpoint,
    direction: finding.direction,
    pointer: { before: finding.before, after: finding.after },
    ...(finding.direction === "endpoint"
      ? {}
      : { field: finding.field.map((t) => "/" + (t === "*" ? "*" : escapePointerToken(t))).join("") }),
    text,
    fingerprint: "",
  };
  change.fingerprint = fingerprintOf(change, bySubject(row.text) ? (p.value ?? null) : undefined);
  if (row.example !== undefined && examples !== undefined) {
    const outcome = examples.exampleFor(finding, row.example);
    if (outcome.example !== undefined) change.example = outcome.example;
    else if (outcome.noExample !== undefined) change.noExample = outcome.noExample;
  }
  return change;
}

/** Classifies every finding of one model, with examples checked against both sides' schemas. */
export function classifyModel(
  findings: readonly Finding[],
  before: ModelSchema,
  after: ModelSchema,
  ref: ModelRef = { id: before.model },
): Change[] {
  const makers = new Map<string, ExampleMaker>();
  const validators = new ValidatorCache();
  const makerFor = (endpoint: string): ExampleMaker | undefined => {
    if (!makers.has(endpoint)) {
      const snapshot = before.endpoints.find((e: EndpointModel) => e.endpoint === endpoint);
      const source = after.endpoints.find((e: EndpointModel) => e.endpoint === endpoint);
      if (snapshot === undefined || source === undefined) return undefined;
      // a request example must pass the snapshot's cross-field rules too (frame_index, …)
      makers.set(endpoint, new ExampleMaker(snapshot, source, rulesFor(snapshot, ref), validators));
    }
    return makers.get(endpoint);
  };
  const seen = new Set<string>();
  const changes: Change[] = [];
  for (const finding of findings) {
    const change = classify(finding, makerFor(finding.endpoint));
    const key = JSON.stringify([change.id, change.endpoint, change.direction, change.pointer, change.field]);
    if (seen.has(key)) continue;
    seen.add(key);
    changes.push(change);
  }
  return changes;
}
