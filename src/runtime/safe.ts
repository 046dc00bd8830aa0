/**
 * Defensive access to values of unknown origin. The readers promise never to throw (their
 * contract, src/runtime/index.ts), so every property read, type test and string conversion of
 * input goes through here: getters that throw, revoked proxies, cyclic objects and symbols all
 * end as `undefined` or a short description, never as an exception.
 */
import { redactUrlsInText } from "./redact.js";

/** A plain object-like value (not null, not an array) whose properties may be read. */
export type Bag = Record<string, unknown>;

/** True for a non-null, non-array object. Never throws (a revoked proxy makes `Array.isArray` throw). */
export function isBag(value: unknown): value is Bag {
  try {
    return typeof value === "object" && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

/** The result of reading one property: its value, whether the key exists, whether reading threw. */
export interface Field {
  present: boolean;
  value: unknown;
  threw: boolean;
}

/** Reads own property `key` of `bag`; a getter or proxy trap that throws reads as absent with `threw`. */
export function field(bag: unknown, key: string): Field {
  if (!isBag(bag)) return { present: false, value: undefined, threw: false };
  try {
    if (!Object.prototype.hasOwnProperty.call(bag, key)) return { present: false, value: undefined, threw: false };
    return { present: true, value: bag[key], threw: false };
  } catch {
    return { present: false, value: undefined, threw: true };
  }
}

/** True when `bag` is an object with no own enumerable keys (`{}`, spec 9.2.1). */
export function isEmptyBag(value: unknown): boolean {
  if (!isBag(value)) return false;
  try {
    return Object.keys(value).length === 0;
  } catch {
    return false;
  }
}

/** A short, safe description of any value for a note: `a number (42)`, `a string "…"`, `an array`. */
export function describe(value: unknown): string {
  try {
    if (value === null) return "null";
    if (Array.isArray(value)) return "an array";
    switch (typeof value) {
      case "string":
        // a note never echoes a signed URL (spec 7.2 rule 3): redacted first, then shortened
        return `a string ${JSON.stringify(clip(redactUrlsInText(value.slice(0, 4096)), 60))}`;
      case "number":
      case "boolean":
      case "bigint":
        return `a ${typeof value} (${String(value)})`;
      case "undefined":
        return "undefined";
      case "object":
        return "an object";
      default:
        return `a ${typeof value}`;
    }
  } catch {
    return "an unreadable value";
  }
}

/** Cuts `text` to at most `max` characters, marking the cut with an ellipsis. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The message of anything thrown, without ever throwing itself. */
export function thrownMessage(thrown: unknown): string {
  try {
    if (thrown instanceof Error && typeof thrown.message === "string")
      return redactUrlsInText(thrown.message.slice(0, 4096));
    return describe(thrown);
  } catch {
    return "an unreadable exception";
  }
}
