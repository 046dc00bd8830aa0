/**
 * Schema `pattern`s (and `patternProperties` keys) run with the JavaScript engine's
 * backtracking `RegExp`: in the generated validators (the consumer's app, `vsk lint`) and in
 * `vsk drift`, which checks examples and `--requests` payloads with Ajv. A pattern such as
 * `^(a+)+$` takes exponential time on a short hostile string, so `generate` refuses it and drift
 * never compiles a schema that holds one (naming the endpoint and the pattern's JSON Pointer).
 * The test is the star-height one of safe-regex: an unbounded repetition (`*`, `+`, `{n,}`)
 * inside a group that repeats more than once, the shape of catastrophic backtracking, unless
 * each iteration is unambiguous (one unbounded character atom and a literal it cannot match, as
 * in `(?:[a-z]+\.)*`); and back-references. Bounded inner repetitions (`(\d{1,3}\.){3}`) pass.
 * Overlapping alternatives under a repetition (`(a|a)*`) are not detected. A linear engine (re2)
 * inside the generated code would instead make it a run-time dependency of the consumer's app.
 */
import { escapePointerToken, formatPointer } from "../json/index.js";
import type { JsonSchemaObject } from "./types.js";
import { forEachSchema } from "./walk.js";

interface Group {
  /** holds an unbounded repetition (`*`, `+`, `{n,}`), also inside a subgroup */
  repeats: boolean;
  /** the sources of the single-character atoms repeated without bound directly in the group */
  atoms: string[];
  /** literal characters every match of the group contains, at a fixed place */
  mandatory: string[];
  /** no alternation, no variable-length part but the unbounded atoms, no repeated subgroup */
  fixed: boolean;
  /** a lookaround: matches no characters */
  look: boolean;
}

type Atom = { kind: "char"; source: string; literal?: string } | { kind: "group"; group: Group };

const newGroup = (look = false): Group => ({ repeats: false, atoms: [], mandatory: [], fixed: true, look });

/** Whether the single-character atom `source` can match `char` (unknown: yes). */
function matches(source: string, char: string): boolean {
  try {
    return new RegExp(`^(?:${source})$`, "u").test(char);
  } catch {
    return true;
  }
}

/**
 * A group repeated more than once that holds an unbounded repetition backtracks
 * super-linearly unless each iteration is unambiguous: the only variable part is one
 * unbounded single-character atom, and a literal that atom cannot match sits at a fixed place
 * (`(?:[a-z]+\.)*`, `(-\d+)+`).
 */
function unambiguous(group: Group): boolean {
  return (
    group.fixed &&
    group.atoms.length === 1 &&
    group.mandatory.some((char) => group.atoms.every((source) => !matches(source, char)))
  );
}

/** Why `pattern` can backtrack super-linearly, or undefined when it cannot (by this test). */
export function superLinearReason(pattern: string): string | undefined {
  const groups: Group[] = [newGroup()];
  let last: Atom | undefined; // the atom a quantifier would apply to
  /** The atom before the current token, with its quantifier (min, max; max Infinity when unbounded). */
  const settle = (atom: Atom | undefined, min: number, max: number): string | undefined => {
    const top = groups[groups.length - 1]!;
    if (atom === undefined) return undefined;
    const variable = min !== max;
    if (atom.kind === "char") {
      if (max === Infinity) {
        top.repeats = true;
        top.atoms.push(atom.source);
      } else if (variable) top.fixed = false;
      else if (atom.literal !== undefined && min >= 1) top.mandatory.push(atom.literal);
      return undefined;
    }
    const group = atom.group;
    if (group.look) return undefined;
    if (max > 1 && group.repeats && !unambiguous(group))
      return "a repeated group holds an unbounded repetition (nested quantifiers)";
    top.repeats ||= group.repeats;
    if (max === Infinity) {
      top.repeats = true;
      top.fixed = false;
    } else if (variable || !group.fixed || max > 1) top.fixed = false;
    else {
      top.atoms.push(...group.atoms);
      if (min >= 1) top.mandatory.push(...group.mandatory);
    }
    return undefined;
  };
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    const quantifier = /^(?:[*+?]|\{(\d+)(,(\d*))?\})/.exec(pattern.slice(i));
    if (quantifier !== null && last !== undefined) {
      const [text, n, comma, m] = quantifier;
      const [min, max] =
        text === "*"
          ? [0, Infinity]
          : text === "+"
            ? [1, Infinity]
            : text === "?"
              ? [0, 1]
              : [Number(n), comma === undefined ? Number(n) : m === "" ? Infinity : Number(m)];
      const problem = settle(last, min, max);
      if (problem !== undefined) return problem;
      i += text.length - 1;
      if (pattern[i + 1] === "?") i++;
      last = undefined;
      continue;
    }
    const problem = settle(last, 1, 1);
    if (problem !== undefined) return problem;
    last = undefined;
    if (c === "\\") {
      const next = pattern[i + 1] ?? "";
      if (/[1-9]/.test(next) || (next === "k" && pattern[i + 2] === "<")) return "it uses a back-reference";
      if (next === "b" || next === "B") {
        i++;
        continue;
      }
      const begin = i;
      if ("pPu".includes(next) && pattern[i + 2] === "{") i = Math.max(i + 1, pattern.indexOf("}", i));
      else if (next === "u") i += 5;
      else if (next === "x") i += 3;
      else if (next === "c") i += 2;
      else i++;
      const literal = /[^A-Za-z0-9]/.test(next) ? next : undefined;
      last = { kind: "char", source: pattern.slice(begin, i + 1), ...(literal !== undefined ? { literal } : {}) };
      continue;
    }
    if (c === "[") {
      // a character class: one atom, whatever is inside
      const begin = i++;
      if (pattern[i] === "^") i++;
      if (pattern[i] === "]") i++;
      while (i < pattern.length && pattern[i] !== "]") i += pattern[i] === "\\" ? 2 : 1;
      last = { kind: "char", source: pattern.slice(begin, i + 1) };
      continue;
    }
    if (c === "(") {
      let look = false;
      if (pattern[i + 1] === "?") {
        // (?:  (?=  (?!  (?<=  (?<!  (?<name>
        const rest = pattern.slice(i + 2);
        look = /^(?:[=!]|<[=!])/.test(rest);
        const named = /^<[^=!][^>]*>/.exec(rest);
        i += 2 + (named !== null ? named[0].length - 1 : look && rest[0] === "<" ? 1 : 0);
      }
      groups.push(newGroup(look));
      continue;
    }
    if (c === ")") {
      if (groups.length > 1) last = { kind: "group", group: groups.pop()! };
      continue;
    }
    if (c === "|") {
      groups[groups.length - 1]!.fixed = false;
      groups[groups.length - 1]!.mandatory = [];
      continue;
    }
    if (c === "^" || c === "$") continue;
    last = {
      kind: "char",
      source: c === "." ? "." : c.replace(/[\\^$.*+?()[\]{}|\/]/g, "\\$&"),
      ...(c === "." ? {} : { literal: c }),
    };
  }
  return settle(last, 1, 1);
}

/** A pattern that `generate` refuses and drift does not run: where it is (JSON Pointer in the endpoint's input schema) and why. */
export interface UnsafePattern {
  pointer: string;
  pattern: string;
  reason: string;
}

/** The first super-linear pattern of a schema (`pattern` values and `patternProperties` keys). */
export function findUnsafePattern(schema: JsonSchemaObject): UnsafePattern | undefined {
  let found: UnsafePattern | undefined;
  forEachSchema(schema, (node, path) => {
    if (found !== undefined) return;
    const at = formatPointer(path);
    if (typeof node.pattern === "string") {
      const reason = superLinearReason(node.pattern);
      if (reason !== undefined) found = { pointer: `${at}/pattern`, pattern: node.pattern, reason };
    }
    const map = node.patternProperties;
    if (found === undefined && map !== null && typeof map === "object" && !Array.isArray(map)) {
      for (const key of Object.keys(map)) {
        const reason = superLinearReason(key);
        if (reason !== undefined) {
          found = { pointer: `${at}/patternProperties/${escapePointerToken(key)}`, pattern: key, reason };
          break;
        }
      }
    }
  });
  return found;
}
