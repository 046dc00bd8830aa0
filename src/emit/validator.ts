/**
 * Emits one endpoint's validator: Ajv standalone code (compiled here, never at run time) with
 * the endpoint's rules beside it, as a plain ESM `.js` module that runs under plain `node` and
 * in a browser, plus its `.d.ts`. Ajv's standalone output `require`s a few run-time helpers
 * even in ESM mode (TOOLCHAIN.md); they are replaced by imports from `support.js`.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import type { AnySchema } from "ajv";
import addFormatsModule from "ajv-formats";
import standaloneModule from "ajv/dist/standalone/index.js";
import { ajvFormats, formatUri } from "../../templates/support.js";
import { quickCheckSource, type RuleSpec } from "../rules/index.js";
import { forEachSchema, isSchemaObject, type JsonSchemaObject } from "../schema/index.js";

const addFormats = addFormatsModule.default;
const standaloneCode = standaloneModule.default;

/**
 * A fresh Ajv configured the way every emitted validator is compiled. `ownProperties` makes a
 * property named like an Object.prototype member (`constructor`, `__proto__`) count only when
 * the payload has it as its own; it costs 10-30% on valid payloads, so the emitter turns it off
 * for schemas that name no such property (see `needsOwnProperties`), where for JSON data the
 * answers are the same.
 */
export function createAjv(options: { ownProperties?: boolean } = {}): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    ownProperties: options.ownProperties ?? true,
    strict: false,
    messages: false,
    validateFormats: true,
    code: { source: true, esm: true, lines: false },
  });
  addFormats(ajv);
  // the uri check with a fast path for plain http(s) URLs (support.js; same answers as ajv-formats)
  ajv.addFormat("uri", formatUri);
  return ajv;
}

/**
 * Ajv run-time helpers and where the emitted module gets them instead: all from `support.js`,
 * so the module needs neither Ajv nor ajv-formats at run time (and runs in a browser).
 */
const REQUIRE_REPLACEMENTS: ReadonlyArray<{ pattern: RegExp; replacement: string; support: string }> = [
  {
    pattern: /require\("ajv\/dist\/runtime\/ucs2length"\)\.default/g,
    replacement: "ucs2length",
    support: "ucs2length",
  },
  { pattern: /require\("ajv\/dist\/runtime\/equal"\)\.default/g, replacement: "equal", support: "equal" },
  {
    pattern: /require\("ajv-formats\/dist\/formats"\)\.fullFormats/g,
    replacement: "ajvFormats",
    support: "ajvFormats",
  },
];

/** The ajv-formats entries the emitted code reads (`ajvFormats.date`, `ajvFormats["date-time"]`). */
function formatsUsed(code: string): string[] {
  const used = new Set<string>();
  for (const m of code.matchAll(/\bajvFormats(?:\.([A-Za-z_$][\w$]*)|\[("(?:[^"\\]|\\.)*")\])/g))
    used.add(m[1] ?? (JSON.parse(m[2]!) as string));
  return [...used];
}

/**
 * `minLength`/`maxLength` count code points (ucs2length), which costs a scan of the string.
 * Since code points <= UTF-16 length <= 2 × code points, the UTF-16 length decides most cases:
 * `ucs2length(x) > N` can only hold when `x.length > N`, and `ucs2length(x) < N` only when
 * `x.length < 2N`. The rewrite keeps the exact answer and skips the scan for ordinary strings.
 */
function cheapLengthChecks(code: string): string {
  const names = ["ucs2length", ...[...code.matchAll(/\bconst (func\d+) = ucs2length;/g)].map((m) => m[1]!)];
  const call = new RegExp(`\\b(${names.join("|")})\\((data\\d*)\\) ([<>]) (\\d+)\\b`, "g");
  return code.replace(call, (_m, fn: string, data: string, op: string, n: string) =>
    op === ">"
      ? `(${data}.length > ${n} && ${fn}(${data}) > ${n})`
      : `(${data}.length < ${2 * Number(n)} && ${fn}(${data}) < ${n})`,
  );
}

const PROTOTYPE_MEMBERS = new Set(Object.getOwnPropertyNames(Object.prototype));

/** Whether a schema names a property that every JSON object inherits (`constructor`, `toString`, …). */
export function needsOwnProperties(schema: JsonSchemaObject): boolean {
  let found = false;
  forEachSchema(schema, (node) => {
    const names = [
      ...(isSchemaObject(node.properties) ? Object.keys(node.properties) : []),
      ...(Array.isArray(node.required) ? node.required : []),
      ...(isSchemaObject(node.dependentRequired)
        ? Object.entries(node.dependentRequired).flatMap(([k, v]) => [k, ...(Array.isArray(v) ? v : [])])
        : []),
      ...(isSchemaObject(node.dependentSchemas) ? Object.keys(node.dependentSchemas) : []),
    ];
    if (names.some((n) => typeof n === "string" && PROTOTYPE_MEMBERS.has(n))) found = true;
  });
  return found;
}

export class EmitError extends Error {
  override name = "EmitError";
}

export interface EmittedValidator {
  js: string;
  dts: string;
}

/**
 * Compiles `schema` with Ajv and returns the module text. `supportImport` is the relative
 * specifier of `support.js`; `rules` are embedded as JSON data (never as code).
 */
export function emitValidator(
  ajv: Ajv2020,
  schema: JsonSchemaObject,
  rules: readonly RuleSpec[],
  supportImport: string,
  header: string,
  what: string,
): EmittedValidator {
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
  const fromSupport = new Set(["diagnose"]);
  for (const r of REQUIRE_REPLACEMENTS) {
    if (r.pattern.test(code)) {
      code = code.replace(r.pattern, r.replacement);
      fromSupport.add(r.support);
    }
    r.pattern.lastIndex = 0;
  }
  const missingFormat = formatsUsed(code).find((f) => !Object.prototype.hasOwnProperty.call(ajvFormats, f));
  if (missingFormat !== undefined)
    throw new EmitError(
      `${what}: format "${missingFormat}" needs an ajv-formats function that support.js does not provide yet`,
    );
  code = cheapLengthChecks(code);
  const leftover = /require\("([^"]+)"\)/.exec(code);
  if (leftover)
    throw new EmitError(`${what}: Ajv's output needs run-time module "${leftover[1]}", which vsk cannot inline yet`);
  const js = [
    header,
    `import { ${[...fromSupport].sort().join(", ")} } from ${JSON.stringify(supportImport)};`,
    code,
    `/** The endpoint's cross-field rules (data; their checks live in support.js). */`,
    `export const rules = ${JSON.stringify(rules)};`,
    `/** True when no rule can find anything in a payload the schema accepted (see src/rules/quick.ts). */`,
    `function quick(input) {\n${quickCheckSource(rules)}\n}`,
    `/** Checks a payload: schema and rules, every finding; an empty array when the service would accept it. */`,
    `export function validate(input) {`,
    `  const schemaOk = ${fn}(input);`,
    `  if (schemaOk && quick(input)) return [];`,
    `  return diagnose(schemaOk ? null : ${fn}.errors, rules, input);`,
    `}`,
    `export default validate;`,
    "",
  ].join("\n");
  const dts = [
    header,
    `import type { Diagnostic, RuleSpec } from ${JSON.stringify(supportImport)};`,
    `/** The endpoint's cross-field rules (data; their checks live in support.js). */`,
    `export declare const rules: readonly RuleSpec[];`,
    `/** Checks a payload: schema and rules, every finding; an empty array when the service would accept it. */`,
    `export declare function validate(input: unknown): Diagnostic[];`,
    `export default validate;`,
    "",
  ].join("\n");
  return { js, dts };
}
