/**
 * The one place where the API key leaves every error the client throws (spec 5: the key travels
 * only in `Authorization`). A server may echo what it got in a body, a code, a reason or a
 * message, and those strings end up in an error's own properties (`snippet`, `code`, `rawCode`,
 * `rawReason`), in nested objects (`predictionError.message`) and in its `cause` chain, all of
 * which `JSON.stringify`, `util.inspect` and `console.error` print. So every string reachable
 * from the error is scrubbed, before the caller ever sees it.
 */

/** What stands where a key was. */
export const REDACTED = "<redacted>";

/** A key as a server may echo it: as it is, percent-encoded, JSON-escaped. */
export function secretForms(key: string): string[] {
  const forms = new Set([key, encodeURIComponent(key), JSON.stringify(key).slice(1, -1)]);
  return [...forms].filter((form) => form.length >= 4);
}

/** `text` with every form of every key replaced. */
export function scrubText(text: string, keys: Iterable<string>): string {
  let out = text;
  for (const key of keys)
    for (const form of secretForms(key)) if (out.includes(form)) out = out.split(form).join(REDACTED);
  return out;
}

/**
 * Replaces every form of `keys` in every string reachable from `value`: own properties (the
 * non-enumerable `message`, `stack` and `cause` too), nested objects and arrays, cycles visited
 * once. A property that cannot be rewritten is redefined; one that cannot be redefined either
 * is deleted, so no key survives. Returns `value`.
 */
export function scrubSecrets<T>(value: T, keys: ReadonlySet<string>): T {
  if (keys.size === 0) return value;
  const seen = new WeakSet<object>();
  const visit = (target: unknown, depth: number): void => {
    if (typeof target !== "object" || target === null || seen.has(target) || depth > 16) return;
    seen.add(target);
    let names: string[];
    try {
      names = Object.getOwnPropertyNames(target);
    } catch {
      return;
    }
    for (const name of names) {
      let descriptor: PropertyDescriptor | undefined;
      try {
        descriptor = Object.getOwnPropertyDescriptor(target, name);
      } catch {
        continue;
      }
      if (descriptor === undefined || !("value" in descriptor)) continue;
      const current: unknown = descriptor.value;
      if (typeof current === "string") {
        const clean = scrubText(current, keys);
        if (clean !== current) rewrite(target, name, descriptor, clean);
      } else visit(current, depth + 1);
    }
  };
  visit(value, 0);
  return value;
}

function rewrite(target: object, name: string, descriptor: PropertyDescriptor, clean: string): void {
  try {
    Object.defineProperty(target, name, { ...descriptor, value: clean });
    return;
  } catch {
    // not configurable: try a plain assignment, then deletion
  }
  try {
    (target as Record<string, unknown>)[name] = clean;
    if ((target as Record<string, unknown>)[name] === clean) return;
  } catch {
    // fall through
  }
  try {
    delete (target as Record<string, unknown>)[name];
  } catch {
    // a frozen object holding the key: nothing more can be done here
  }
}
