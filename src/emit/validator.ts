/**
 * Emits one endpoint's validator: Ajv standalone code (compiled here, never at run time) with
 * the endpoint's rules beside it, as one TypeScript module whose exports are typed. Ajv's code
 * is plain JavaScript, so the module opens with `// @ts-nocheck` (the consumer's strictest
 * flags apply to every other generated file); it compiles to ESM that runs under plain `node`
 * and in a browser. Ajv's standalone output `require`s its run-time helpers even in ESM mode
 * (TOOLCHAIN.md); the Ajv of src/rules/ajv-config.ts is configured so that its output calls the
 * generated support module's functions by name instead, and this file only imports them. One
 * shape of its output is rewritten, literal-aware: an array item's error path ({@link shareItemPaths}).
 */
import type { Ajv2020 } from "ajv/dist/2020.js";
import type { AnySchema } from "ajv";
import standaloneModule from "ajv/dist/standalone/index.js";
import { ajvFormats } from "../diagnostics/index.js";
import { quickModuleSource, SUPPORT_FUNCTIONS, type RuleSpec } from "../rules/index.js";
import type { JsonSchemaObject } from "../schema/index.js";

const standaloneCode = standaloneModule.default;

/**
 * Where a module's string, template and regular-expression literals (and comments) are: a schema's property
 * names, enum values and descriptions sit in Ajv's output as literals and must come out exactly
 * as they went in, whatever text they contain. (A "/" is a regular expression where an operand
 * may start, after one of `=(,:;!&|?{}[`; Ajv's divisions follow an identifier or a number.)
 */
export function literalRanges(code: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  let i = 0;
  while (i < code.length) {
    const c = code[i]!;
    const begin = i;
    if (c === '"' || c === "'" || c === "`") {
      i++;
      while (i < code.length && code[i] !== c) i += code[i] === "\\" ? 2 : 1;
      ranges.push([begin, ++i]);
      continue;
    }
    if (c === "/" && (code[i + 1] === "*" || code[i + 1] === "/")) {
      // a comment (Ajv writes `/*# sourceURL=… */` for a schema with an $id)
      const end = code[i + 1] === "*" ? code.indexOf("*/", i + 2) : code.indexOf("\n", i + 2);
      i = end === -1 ? code.length : code[i + 1] === "*" ? end + 2 : end;
      ranges.push([begin, i]);
      continue;
    }
    if (c === "/" && /(^|[=(,:;!&|?{}[])\s*$/.test(code.slice(Math.max(0, i - 8), i))) {
      i++;
      let inClass = false;
      while (i < code.length && (inClass || code[i] !== "/")) {
        if (code[i] === "\\") i++;
        else if (code[i] === "[") inClass = true;
        else if (code[i] === "]") inClass = false;
        i++;
      }
      i++;
      while (i < code.length && /[a-z]/.test(code[i]!)) i++;
      ranges.push([begin, i]);
      continue;
    }
    i++;
  }
  return ranges;
}

/** Applies `rewrite` to the code between a module's literals, never to a literal. */
export function rewriteCodeOnly(code: string, rewrite: (segment: string) => string): string {
  let out = "";
  let at = 0;
  for (const [begin, end] of literalRanges(code)) {
    out += rewrite(code.slice(at, begin)) + code.slice(begin, end);
    at = end;
  }
  return out + rewrite(code.slice(at));
}

/** The per-site caches of the item paths {@link shareItemPaths} rewrote (a name Ajv never uses). */
const ITEM_PATHS = "vskItemPaths";

/**
 * Ajv builds an array item's error path afresh for every error (`instancePath+"/keyframes/" + i0`,
 * then `+"/frame_index"`), and reading the diagnostics compares that new string with the last
 * one at its place, which costs more than the rest of the error (issue 40). Exactly that shape,
 * outside literals, where an expression begins (after `:`, `(` or `,`) and ends (before `,`, `}`,
 * `)` or a further `+`), becomes `itemPath(vskItemPaths[k], instancePath, head, iN, tail)`: the
 * same string (src/diagnostics/pointers.ts), one object per item at the top level. Anything
 * else stays as Ajv wrote it, and no literal is touched.
 */
export function shareItemPaths(code: string): { code: string; sites: number } {
  const ranges = literalRanges(code);
  const gap = (r: number): string => code.slice(ranges[r - 1]?.[1] ?? 0, ranges[r]?.[0] ?? code.length);
  const quoted = (r: number): boolean => ranges[r] !== undefined && code[ranges[r]![0]] === '"';
  let out = "";
  let at = 0;
  let sites = 0;
  /** After an operand: the expression ends (`,` `}` `)`) or goes on with a single `+`. */
  const ends = (text: string): boolean => /^\s*([,})]|\+(?!\+))/.test(text);
  for (let r = 0; r < ranges.length; r++) {
    const start = /[:(,]\s*(instancePath\s*\+\s*)$/.exec(gap(r));
    if (start === null || !quoted(r)) continue;
    const index = /^\s*\+\s*(i\d+)\b/.exec(gap(r + 1));
    if (index === null) continue;
    const rest = gap(r + 1).slice(index[0].length);
    let tail = '""';
    let end = ranges[r]![1] + index[0].length; // the end of the expression rewritten
    if (/^\s*\+\s*$/.test(rest) && quoted(r + 1)) {
      // `+"/frame_index"` follows the index: the tail, when the expression ends or goes on after it
      if (!ends(gap(r + 2))) continue;
      tail = code.slice(ranges[r + 1]![0], ranges[r + 1]![1]);
      end = ranges[r + 1]![1];
    } else if (!ends(rest)) continue;
    out += code.slice(at, ranges[r]![0] - start[1]!.length);
    out += `itemPath(${ITEM_PATHS}[${sites++}], instancePath, ${code.slice(ranges[r]![0], ranges[r]![1])}, ${index[1]}, ${tail})`;
    at = end;
    while (r + 1 < ranges.length && ranges[r + 1]![0] < end) r++;
  }
  return { code: out + code.slice(at), sites };
}

/** The code of a module without its literals (for looking things up in it). */
function codeOnly(code: string): string {
  const parts: string[] = [];
  rewriteCodeOnly(code, (segment) => {
    parts.push(segment);
    return segment;
  });
  return parts.join(" ");
}

/** The ajv-formats entries the emitted code reads (`ajvFormats.date`, `ajvFormats["date-time"]`). */
function formatsUsed(code: string): string[] {
  const used = new Set<string>();
  for (const m of code.matchAll(/\bajvFormats(?:\.([A-Za-z_$][\w$]*)|\[("(?:[^"\\]|\\.)*")\])/g))
    used.add(m[1] ?? (JSON.parse(m[2]!) as string));
  return [...used];
}

export class EmitError extends Error {
  override name = "EmitError";
}

/** The configuration, not a schema, keeps generation from working (e.g. two models, one name). */
export class EmitConfigError extends EmitError {
  override name = "EmitConfigError";
}

/**
 * Compiles `schema` with Ajv and returns the TypeScript module text. `supportImport` is the
 * relative specifier of the support module; `rules` are embedded as JSON data (never as code).
 */
export function emitValidator(
  ajv: Ajv2020,
  schema: JsonSchemaObject,
  rules: readonly RuleSpec[],
  supportImport: string,
  header: string,
  what: string,
): string {
  let compiled;
  try {
    compiled = ajv.compile(schema as AnySchema);
  } catch (error) {
    throw new EmitError(
      `${what}: Ajv cannot compile the schema: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  let code = standaloneCode(ajv, compiled);
  const exported = /export const validate = (\w+);export default \1;/.exec(code);
  if (!exported) throw new EmitError(`${what}: unexpected shape of Ajv's standalone output`);
  const fn = exported[1]!;
  code = code.replace(exported[0], "").replace(/^"use strict";/, "");
  if (new RegExp(`\\b(${ITEM_PATHS}|itemPath)\\b`).test(codeOnly(code)))
    throw new EmitError(`${what}: Ajv's output uses the name ${ITEM_PATHS} or itemPath, which vsk's item paths need`);
  const shared = shareItemPaths(code);
  code =
    shared.sites === 0
      ? shared.code
      : `const ${ITEM_PATHS} = [${Array(shared.sites).fill("[]").join(", ")}];\n${shared.code}`;
  // Ajv's code calls the support module's functions by name (src/rules/ajv-config.ts): import those it uses
  const outsideLiterals = codeOnly(code);
  const fromSupport = new Set([
    "diagnose",
    ...SUPPORT_FUNCTIONS.filter((name) => new RegExp(`\\b${name}\\b`).test(outsideLiterals)),
    ...(shared.sites > 0 ? ["itemPath"] : []),
  ]);
  const missingFormat = formatsUsed(outsideLiterals).find((f) => !Object.prototype.hasOwnProperty.call(ajvFormats, f));
  if (missingFormat !== undefined)
    throw new EmitError(
      `${what}: format "${missingFormat}" needs an ajv-formats function that the support module does not provide yet`,
    );
  // a run-time module Ajv's code would still load (a newer Ajv, a keyword we do not provide)
  if (/\brequire\s*\(/.test(outsideLiterals)) {
    const module = /\brequire\s*\(\s*["'`]([^"'`]*)/.exec(code)?.[1] ?? "?";
    throw new EmitError(`${what}: Ajv's output needs run-time module "${module}", which vsk cannot inline yet`);
  }
  return [
    header,
    "// @ts-nocheck -- Ajv's standalone code below is plain JavaScript; the exports at the end are typed.",
    `import { ${[...fromSupport].sort().join(", ")} } from ${JSON.stringify(supportImport)};`,
    `import type { Diagnostic, FindingLimit, RuleSpec } from ${JSON.stringify(supportImport)};`,
    // no top-level side effects (Ajv's code assigns `${fn}.evaluated`, builds RegExps): it runs
    // inside one call marked pure, so a bundler drops this validator when nothing uses it
    `const ${fn} = /*#__PURE__*/ (() => {\n${code}\nreturn ${fn};\n})();`,
    `/** The endpoint's cross-field rules (data; their checks live in the support module). */`,
    `export const rules: readonly RuleSpec[] = ${JSON.stringify(rules)};`,
    `// the rules' quick forms (vsk's src/rules/quick.ts): \`quick\` is true when no rule can find anything`,
    quickModuleSource(rules),
    `/**`,
    ` * Checks a payload: schema and rules, every finding (with \`limit\`: the first \`limit.max\` and one`,
    ` * \`more-findings\` counting the rest; \`errorsOnly\` skips the warning-only rules); an empty array`,
    ` * when the service would accept it.`,
    ` */`,
    `export function validate(input: unknown, limit?: FindingLimit): Diagnostic[] {`,
    `  const schemaOk = ${fn}(input);`,
    `  if (schemaOk && quick(input, limit?.errorsOnly === true)) return [];`,
    `  return diagnose(schemaOk ? null : ${fn}.errors, rules, input, limit, quickRules);`,
    `}`,
    `export default validate;`,
    "",
  ].join("\n");
}
