/**
 * `.vsk-drift-accept.json`: changes a team has looked at and accepted, each keyed by model,
 * change id and JSON Pointer (either side's), with a reason and an optional expiry date.
 * An accepted change is listed apart and never fails the gate; an expired entry stops
 * silencing and warns, and so does an entry that matches no change any more.
 *
 * ```json
 * { "accept": [ { "model": "example/model-a", "id": "request-property-enum-value-removed",
 *     "pointer": "/properties/aspect_ratio/enum/2", "reason": "we never send 2:1", "expires": "2026-12-31" } ] }
 * ```
 */
import { existsSync, readFileSync } from "node:fs";
import { findModel, describeModels, type ModelRef } from "../config/index.js";
import { isSchemaObject } from "../schema/index.js";
import { quote } from "../words/index.js";
import type { AcceptedChange, Change } from "./types.js";

export const ACCEPT_FILE = ".vsk-drift-accept.json";

export interface AcceptEntry {
  model: string;
  /** the change id and a JSON Pointer of either side; or, instead, the change's `fingerprint` (issue 39) */
  id?: string;
  pointer?: string;
  fingerprint?: string;
  /** only this endpoint; any endpoint when absent */
  endpoint?: string;
  reason: string;
  /** `YYYY-MM-DD`: the entry silences the change through this day */
  expires?: string;
}

/** An accept file that cannot be read: names the file and the JSON Pointer of the problem. */
export class AcceptFileError extends Error {
  override name = "AcceptFileError";
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Reads the accept file; no file means no entries. With the configured `models`, an entry's
 * `model` may be an alias (any case) and is read as its id; a name that is neither is an error.
 */
export function readAcceptFile(file: string, models?: readonly ModelRef[]): AcceptEntry[] {
  if (!existsSync(file)) return [];
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new AcceptFileError(`${file}: not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  return parseAcceptEntries(raw, file, models);
}

export function parseAcceptEntries(raw: unknown, file: string, models?: readonly ModelRef[]): AcceptEntry[] {
  const fail = (pointer: string, problem: string): never => {
    throw new AcceptFileError(`${file} at ${pointer === "" ? "/" : pointer}: ${problem}`);
  };
  if (!isSchemaObject(raw) || !Array.isArray(raw.accept))
    return fail("", 'expected {"accept": [{"model", "id", "pointer", "reason", "expires"?}, …]}');
  return (raw.accept as unknown[]).map((entry, i) => {
    const at = `/accept/${i}`;
    if (!isSchemaObject(entry)) return fail(at, "expected an object");
    for (const key of Object.keys(entry)) {
      if (!["model", "id", "pointer", "fingerprint", "endpoint", "reason", "expires"].includes(key))
        fail(`${at}/${key}`, "unknown key; known: model, id, pointer, fingerprint, endpoint, reason, expires");
    }
    const byFingerprint = entry.fingerprint !== undefined;
    if (byFingerprint && (typeof entry.fingerprint !== "string" || !/^[0-9a-f]{16}$/.test(entry.fingerprint)))
      fail(`${at}/fingerprint`, "expected a change's fingerprint: 16 hex digits, as the JSON report gives it");
    for (const key of ["model", "id", "reason"] as const) {
      if (key === "id" && byFingerprint && entry.id === undefined) continue;
      if (typeof entry[key] !== "string" || entry[key] === "") fail(`${at}/${key}`, "expected a non-empty string");
    }
    if (
      !(byFingerprint && entry.pointer === undefined) &&
      (typeof entry.pointer !== "string" || (entry.pointer !== "" && !entry.pointer.startsWith("/")))
    )
      fail(
        `${at}/pointer`,
        'expected a JSON Pointer ("" or starting with "/"), or a "fingerprint" instead of "id" and "pointer"',
      );
    if (entry.endpoint !== undefined && (typeof entry.endpoint !== "string" || entry.endpoint === ""))
      fail(`${at}/endpoint`, "expected a non-empty string");
    if (
      entry.expires !== undefined &&
      (typeof entry.expires !== "string" || !DATE.test(entry.expires) || Number.isNaN(Date.parse(entry.expires)))
    ) {
      fail(`${at}/expires`, 'expected a date "YYYY-MM-DD"');
    }
    if (models !== undefined) {
      const ref = findModel({ models }, entry.model as string);
      if (ref === undefined)
        fail(
          `${at}/model`,
          `${quote(entry.model as string)} is not a configured model id or alias (known: ${describeModels({ models })}); correct or remove the entry`,
        );
      return { ...(entry as unknown as AcceptEntry), model: ref!.id };
    }
    return entry as unknown as AcceptEntry;
  });
}

function matches(entry: AcceptEntry, change: Change): boolean {
  return (
    entry.model === change.model &&
    (entry.fingerprint === undefined || entry.fingerprint === change.fingerprint) &&
    (entry.id === undefined || entry.id === change.id) &&
    (entry.endpoint === undefined || entry.endpoint === change.endpoint) &&
    (entry.pointer === undefined || entry.pointer === change.pointer.before || entry.pointer === change.pointer.after)
  );
}

/** How a warning names an entry: its id and pointer, or its fingerprint. */
const named = (entry: AcceptEntry): string =>
  [entry.model, entry.id, entry.pointer, entry.fingerprint].filter((x) => x !== undefined).join(" ");

/** Splits changes into those still reported and those accepted; warns about expired and unused entries. */
export function applyAccepted(
  changes: readonly Change[],
  entries: readonly AcceptEntry[],
  today: string,
  file: string,
): { changes: Change[]; accepted: AcceptedChange[]; warnings: string[] } {
  const warnings: string[] = [];
  const live = entries.filter((entry, i) => {
    if (entry.expires !== undefined && entry.expires < today) {
      warnings.push(
        `${file} at /accept/${i}: expired on ${entry.expires} (${named(entry)}); the change is reported again: renew or remove the entry`,
      );
      return false;
    }
    return true;
  });
  const used = new Set<AcceptEntry>();
  const kept: Change[] = [];
  const accepted: AcceptedChange[] = [];
  for (const change of changes) {
    const entry = live.find((e) => matches(e, change));
    if (entry === undefined) {
      kept.push(change);
      continue;
    }
    used.add(entry);
    accepted.push({
      ...change,
      accepted: { reason: entry.reason, ...(entry.expires === undefined ? {} : { expires: entry.expires }) },
    });
  }
  live.forEach((entry) => {
    if (!used.has(entry)) {
      warnings.push(
        `${file} at /accept/${entries.indexOf(entry)}: matches no change (${named(entry)}); remove it if the change is in the snapshot now`,
      );
    }
  });
  return { changes: kept, accepted, warnings };
}
