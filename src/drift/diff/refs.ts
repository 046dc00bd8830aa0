/**
 * Whether two values of a keyword are the same schema, not only the same text: a `$ref` written
 * alike on both sides points at definitions that may differ (issue 29.1: a change there must
 * never be dropped). Every definition reachable through `$ref`s is compared once per walk.
 */
import { isSchemaObject } from "../../schema/index.js";
import { canonical, resolveRefAt } from "../view.js";
import type { Walk } from "./finding.js";

/** Every `$ref` string written anywhere in `value`. */
function refsIn(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) refsIn(v, out);
  else if (isSchemaObject(value))
    for (const [k, v] of Object.entries(value)) {
      if (k === "$ref" && typeof v === "string") out.push(v);
      else refsIn(v, out);
    }
  return out;
}

/**
 * Whether `before` and `after` are written the same, all the way down: the same text, and every
 * definition reachable from them through `$ref`s the same text on both sides. References found
 * the same are remembered in the walk (`sameRefs`), so a shared definition is read once.
 */
export function sameWritten(before: unknown, after: unknown, walk: Walk): boolean {
  if (canonical(before) !== canonical(after)) return false;
  const seen = new Set<string>();
  const queue = refsIn(before);
  for (let ref = queue.pop(); ref !== undefined; ref = queue.pop()) {
    if (seen.has(ref) || walk.sameRefs.has(ref)) continue;
    seen.add(ref);
    const rb = resolveRefAt(walk.before, ref);
    const ra = resolveRefAt(walk.after, ref);
    if (rb === undefined || ra === undefined) {
      if (rb !== ra) return false;
      continue;
    }
    if (canonical(rb.schema) !== canonical(ra.schema)) return false;
    queue.push(...refsIn(rb.schema));
  }
  for (const ref of seen) walk.sameRefs.add(ref);
  return true;
}
