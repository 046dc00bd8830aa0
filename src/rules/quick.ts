/**
 * The fast face of each rule kind: JavaScript source of a check that returns `false` as soon as
 * the rule might find something, and never allocates. The emitted validator runs it only after
 * the schema passed; when it says `false`, the full check in support.js (`CHECKS`, which owns
 * the messages) decides and explains. So a quick check may be conservative, never lenient:
 * test/rules/quick.test.ts holds it to that against the full check on random payloads.
 *
 * Parameters come from the rule table (data); every key is embedded with JSON.stringify.
 */
import type { RuleSpec } from "../../templates/support.js";
import { PROTOTYPE_MEMBERS } from "../schema/index.js";

/** `/a` → `["a"]`; undefined for pointers the quick path does not handle (deeper, escaped, inherited names). */
function topLevel(pointer: string): string | undefined {
  const token = pointer.slice(1);
  return pointer.startsWith("/") && !token.includes("/") && !token.includes("~") && !PROTOTYPE_MEMBERS.has(token)
    ? token
    : undefined;
}

const key = (name: string): string => `[${JSON.stringify(name)}]`;

/** More items than this and the uniqueness check leaves it to the full check (which uses a Map). */
const PAIRWISE_LIMIT = 32;

type QuickEmitter<K extends RuleSpec["kind"]> = (rule: Extract<RuleSpec, { kind: K }>) => string | undefined;

const QUICK: { [K in RuleSpec["kind"]]: QuickEmitter<K> } = {
  uniqueItemField(rule) {
    const array = topLevel(rule.array);
    const field = topLevel("/" + rule.field);
    if (array === undefined || field === undefined) return undefined;
    return `{ const a = input${key(array)};
      if (Array.isArray(a) && a.length > 1) {
        if (a.length > ${PAIRWISE_LIMIT}) return false;
        for (let i = 1; i < a.length; i++) { const x = a[i]; if (x === null || typeof x !== "object") continue; const v = x${key(field)};
          for (let j = 0; j < i; j++) { const y = a[j]; if (y !== null && typeof y === "object" && y${key(field)} === v && typeof v === "number") return false; } } } }`;
  },
  itemFieldWithinDuration(rule) {
    const array = topLevel(rule.array);
    const field = topLevel("/" + rule.field);
    const duration = topLevel(rule.duration);
    if (array === undefined || field === undefined || duration === undefined) return undefined;
    return `{ const a = input${key(array)};
      if (Array.isArray(a)) { const d = input${key(duration)}; const s = d === undefined ? ${JSON.stringify(rule.defaultDuration)} : d;
        if (typeof s !== "number") return false; const last = s * ${JSON.stringify(rule.framesPerSecond)};
        for (let i = 0; i < a.length; i++) { const x = a[i]; if (x !== null && typeof x === "object" && typeof x${key(field)} === "number" && x${key(field)} > last) return false; } } }`;
  },
  requiresFlag(rule) {
    const field = topLevel(rule.field);
    const flag = topLevel(rule.flag);
    if (field === undefined || flag === undefined) return undefined;
    return `{ const v = input${key(field)}; if (v !== undefined && v !== null && input${key(flag)} !== true) return false; }`;
  },
  integerInSetOrRange(rule) {
    const field = topLevel(rule.field);
    if (field === undefined) return undefined;
    const allowed = [
      ...rule.values.map((v) => `v === ${JSON.stringify(v)}`),
      `(v >= ${JSON.stringify(rule.min)} && v <= ${JSON.stringify(rule.max)})`,
    ].join(" || ");
    return `{ const v = input${key(field)}; if (typeof v === "number" && !(${allowed})) return false; }`;
  },
  promptLengthRecommendation(rule) {
    const field = topLevel(rule.field);
    if (field === undefined) return undefined;
    // at most one Chinese character, and less than one word, per UTF-16 code unit
    const limit = Math.min(rule.maxCjkCharacters, rule.maxWords);
    return `{ const t = input${key(field)}; if (typeof t === "string" && t.length > ${JSON.stringify(limit)}) return false; }`;
  },
  unknownFields(rule) {
    if (rule.known.length === 0) return "for (const k in input) return false;";
    return `for (const k in input) { switch (k) { ${rule.known.map((k) => `case ${JSON.stringify(k)}:`).join(" ")} break; default: return false; } }`;
  },
};

/**
 * The body of `function quick(input)` for an endpoint's rules: `return true` when no rule can
 * find anything. A rule the quick path cannot handle makes it `return false` (full check).
 */
export function quickCheckSource(rules: readonly RuleSpec[]): string {
  const parts = ['if (input === null || typeof input !== "object" || Array.isArray(input)) return false;'];
  for (const rule of rules) {
    const code = (QUICK[rule.kind] as QuickEmitter<RuleSpec["kind"]>)(rule as never);
    parts.push(code === undefined ? "return false;" : code);
  }
  parts.push("return true;");
  return parts.join("\n");
}
