/**
 * The helpers Ajv's standalone code calls, in place of its `require`s of ajv/dist/runtime/* and
 * of ajv-formats: string length in code points, deep equality, and the function-valued formats.
 */

// #region runtime (copied into the generated support module: no imports in here)
const SURROGATE = /[\uD800-\uDFFF]/;

/** Length of a string in Unicode code points, as JSON Schema counts it. */
export function ucs2length(str: string): number {
  if (!SURROGATE.test(str)) return str.length;
  let length = 0;
  for (let i = 0; i < str.length; i++) {
    length++;
    const code = str.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < str.length) {
      const next = str.charCodeAt(i + 1);
      if ((next & 0xfc00) === 0xdc00) i++;
    }
  }
  return length;
}

/** Deep equality of JSON values, as `const`, `enum` and `uniqueItems` need it. */
export function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return a !== a && b !== b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => equal(x, bb[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every(
    (k) =>
      Object.prototype.hasOwnProperty.call(b, k) &&
      equal((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
  );
}

/*
 * The ajv-formats checks that are functions rather than regular expressions (Ajv inlines the
 * regular expressions, but its output would `require("ajv-formats/dist/formats").fullFormats`
 * for these). Same shapes and same logic as ajv-formats 3.0.1 `fullFormats` (MIT, Evgeny
 * Poberezkin), so the emitted module depends on nothing but support.js.
 */
function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}
const FORMAT_DATE = /^(\d\d\d\d)-(\d\d)-(\d\d)$/;
const DAYS_IN_MONTH = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
function formatDate(str: string): boolean {
  const m = FORMAT_DATE.exec(str);
  if (!m) return false;
  const year = +m[1]!;
  const month = +m[2]!;
  const day = +m[3]!;
  return month >= 1 && month <= 12 && day >= 1 && day <= (month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month]!);
}
function compareFormatDate(d1: string, d2: string): number | undefined {
  if (!(d1 && d2)) return undefined;
  return d1 > d2 ? 1 : d1 < d2 ? -1 : 0;
}
const FORMAT_TIME = /^(\d\d):(\d\d):(\d\d(?:\.\d+)?)(z|([+-])(\d\d)(?::?(\d\d))?)?$/i;
function formatTime(strictTimeZone: boolean): (str: string) => boolean {
  return (str) => {
    const m = FORMAT_TIME.exec(str);
    if (!m) return false;
    const hr = +m[1]!;
    const min = +m[2]!;
    const sec = +m[3]!;
    const tz = m[4];
    const tzSign = m[5] === "-" ? -1 : 1;
    const tzH = +(m[6] || 0);
    const tzM = +(m[7] || 0);
    if (tzH > 23 || tzM > 59 || (strictTimeZone && !tz)) return false;
    if (hr <= 23 && min <= 59 && sec < 60) return true;
    // leap second
    const utcMin = min - tzM * tzSign;
    const utcHr = hr - tzH * tzSign - (utcMin < 0 ? 1 : 0);
    return (utcHr === 23 || utcHr === -1) && (utcMin === 59 || utcMin === -1) && sec < 61;
  };
}
function compareFormatTime(s1: string, s2: string): number | undefined {
  if (!(s1 && s2)) return undefined;
  const t1 = new Date("2020-01-01T" + s1).valueOf();
  const t2 = new Date("2020-01-01T" + s2).valueOf();
  if (!(t1 && t2)) return undefined;
  return t1 - t2;
}
function compareFormatIsoTime(t1: string, t2: string): number | undefined {
  if (!(t1 && t2)) return undefined;
  const a1 = FORMAT_TIME.exec(t1);
  const a2 = FORMAT_TIME.exec(t2);
  if (!(a1 && a2)) return undefined;
  const x1 = a1[1]! + a1[2]! + a1[3]!;
  const x2 = a2[1]! + a2[2]! + a2[3]!;
  return x1 > x2 ? 1 : x1 < x2 ? -1 : 0;
}
const DATE_TIME_SEPARATOR = /t|\s/i;
function formatDateTime(strictTimeZone: boolean): (str: string) => boolean {
  const time = formatTime(strictTimeZone);
  return (str) => {
    const parts = str.split(DATE_TIME_SEPARATOR);
    return parts.length === 2 && formatDate(parts[0]!) && time(parts[1]!);
  };
}
function compareFormatDateTime(dt1: string, dt2: string): number | undefined {
  if (!(dt1 && dt2)) return undefined;
  const d1 = new Date(dt1).valueOf();
  const d2 = new Date(dt2).valueOf();
  if (!(d1 && d2)) return undefined;
  return d1 - d2;
}
function compareFormatIsoDateTime(dt1: string, dt2: string): number | undefined {
  if (!(dt1 && dt2)) return undefined;
  const [d1, t1] = dt1.split(DATE_TIME_SEPARATOR);
  const [d2, t2] = dt2.split(DATE_TIME_SEPARATOR);
  const res = compareFormatDate(d1!, d2!);
  if (res === undefined) return undefined;
  return res || compareFormatTime(t1!, t2!);
}
const FORMAT_BYTE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/gm;
const Z_ANCHOR = /[^\\]\\Z/;

/** A format check as Ajv's standalone code calls it: a function, or an object with `validate`. */
export type AjvFormat =
  | ((str: string) => boolean)
  | { type?: "number"; validate: (value: never) => boolean; compare?: (a: string, b: string) => number | undefined };

/** ajv-formats' full-mode URI regex (RFC 3986), unchanged. */
const URI =
  /^(?:[a-z][a-z0-9+\-.]*:)(?:\/?\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\.[a-z0-9\-._~!$&'()*+,;=:]+)\]|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?)|(?:[a-z0-9\-._~!$&'()*+,;=]|%[0-9a-f]{2})*)(?::\d*)?(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*|\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)(?:\?(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?$/i;
/** ajv-formats: a URI must also contain "/" or ":". */
const NOT_URI_FRAGMENT = /\/|:/;
/**
 * Plain `http(s)://host[:port]/path?query#fragment`: a strict subset of `URI` that a regular
 * expression without alternation checks several times faster; anything else takes the full check.
 */
const URI_FAST =
  /^https?:\/\/[a-z0-9.-]*(?::\d*)?(?:\/[a-z0-9\-._~!$&'()*+,;=:@/]*(?:%[0-9a-f]{2}[a-z0-9\-._~!$&'()*+,;=:@/]*)*)?(?:\?[a-z0-9\-._~!$&'()*+,;=:@/?]*(?:%[0-9a-f]{2}[a-z0-9\-._~!$&'()*+,;=:@/?]*)*)?(?:#[a-z0-9\-._~!$&'()*+,;=:@/?]*(?:%[0-9a-f]{2}[a-z0-9\-._~!$&'()*+,;=:@/?]*)*)?$/i;

/** The `uri` format: ajv-formats' answer, with a fast path for plain http(s) URLs. */
export function formatUri(str: string): boolean {
  return URI_FAST.test(str) || (NOT_URI_FRAGMENT.test(str) && URI.test(str));
}

/** In place of `require("ajv-formats/dist/formats").fullFormats`, for its function-valued formats. */
export const ajvFormats: Readonly<Record<string, AjvFormat>> = {
  uri: formatUri,
  date: { validate: formatDate, compare: compareFormatDate },
  time: { validate: formatTime(true), compare: compareFormatTime },
  "date-time": { validate: formatDateTime(true), compare: compareFormatDateTime },
  "iso-time": { validate: formatTime(false), compare: compareFormatIsoTime },
  "iso-date-time": { validate: formatDateTime(false), compare: compareFormatIsoDateTime },
  regex(str: string): boolean {
    if (Z_ANCHOR.test(str)) return false;
    try {
      new RegExp(str);
      return true;
    } catch {
      return false;
    }
  },
  byte(str: string): boolean {
    FORMAT_BYTE.lastIndex = 0;
    return FORMAT_BYTE.test(str);
  },
  int32: {
    type: "number",
    validate: (value: number) => Number.isInteger(value) && value <= 2 ** 31 - 1 && value >= -(2 ** 31),
  },
  int64: { type: "number", validate: (value: number) => Number.isInteger(value) },
  float: { type: "number", validate: () => true },
  double: { type: "number", validate: () => true },
};
// #endregion runtime
