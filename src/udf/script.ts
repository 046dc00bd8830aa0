/**
 * The generated validators as one classic script for a warehouse's JavaScript UDF (issue 41):
 * no `import`, `export` or `require`, nothing from Node, only ECMAScript built-ins. It defines one
 * global, `vskLint(endpoint, payload)`, which gives what `vsk lint --model M --endpoint E` gives
 * for that request body: every finding, warnings included, with the same rule ids and pointers.
 *
 * Built from the same sources as `vsk generate`'s files (src/emit: the support module of
 * diagnostics/ and rules/ runtime regions, and each endpoint's Ajv standalone code), transpiled
 * to JavaScript with the compiler ts-morph bundles, the modules' import and export syntax taken
 * out, each endpoint's validator in a function scope of its own, then minified (minify.ts).
 */
import { ts } from "ts-morph";
import { howItDiffers, rewriteCodeOnly } from "../emit/index.js";
import { minify } from "./minify.js";

/** One endpoint's validator module as emit gives it (TypeScript importing the support module). */
export interface UdfEndpoint {
  /** `<owner>/<name>/<endpoint>`: what `vskLint`'s first argument names */
  key: string;
  module: string;
}

export interface UdfSources {
  /** the support module (support.mts) and the runtime's URL redaction (redact.mts) */
  support: string;
  redact: string;
  endpoints: readonly UdfEndpoint[];
}

/**
 * Transpiled modules by their source: the support module is the same for every run of a process
 * and takes most of the time (a second target, a test's second build reuse it). Bounded.
 */
const transpiled = new Map<string, string>();

function transpile(source: string, fileName: string): string {
  const known = transpiled.get(source);
  if (known !== undefined) return known;
  if (transpiled.size >= 64) transpiled.clear();
  const code = transpileUncached(source, fileName);
  transpiled.set(source, code);
  return code;
}

function transpileUncached(source: string, fileName: string): string {
  return ts.transpileModule(source, {
    fileName,
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      verbatimModuleSyntax: false,
      removeComments: true,
    },
  }).outputText;
}

/**
 * A module's statements without its module syntax: imports and `export { … }` dropped (the
 * names they bind are declared in the same script), `export default` dropped, and `export`
 * taken off declarations. Anything else a module could say (`export * from`) is refused.
 */
function unmodule(code: string, fileName: string): { code: string; imports: string[] } {
  const file = ts.createSourceFile(fileName, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  let out = "";
  const imports: string[] = [];
  for (const statement of file.statements) {
    if (ts.isImportDeclaration(statement)) {
      const bindings = statement.importClause?.namedBindings;
      if (bindings !== undefined && ts.isNamedImports(bindings))
        imports.push(...bindings.elements.map((e) => e.name.text));
      continue;
    }
    if (ts.isExportAssignment(statement)) continue;
    if (ts.isExportDeclaration(statement)) {
      if (statement.moduleSpecifier !== undefined)
        throw new Error(`${fileName}: a re-export from another module cannot go into a UDF script`);
      continue;
    }
    const text = statement.getText(file);
    const modifiers = ts.canHaveModifiers(statement) ? (ts.getModifiers(statement) ?? []) : [];
    const exported = modifiers.find((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (modifiers.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword))
      throw new Error(`${fileName}: a default-exported declaration cannot go into a UDF script`);
    out += (exported === undefined ? text : text.slice(exported.end - statement.getStart(file)).trimStart()) + "\n";
  }
  return { code: out, imports };
}

/**
 * What `vskLint` does around an endpoint's validator: the payload as a JSON value or, a string,
 * as its JSON text; findings as `{ severity, rule, pointer, message }`; an unknown endpoint or a
 * string that is not JSON is one finding with lint's own rule id, never an exception. The body is
 * judged as a log line's `input` is (src/lint/resolve.ts): a top-level `$schema` is a field sent
 * to the service, not an editor's key set aside as in a bare request file.
 */
const ENTRY = `
const KNOWN = Object.keys(VALIDATORS);
const finding = (severity, rule, pointer, message) => ({ severity, rule, pointer, message });
return function vskLint(endpoint, payload) {
  const validate = typeof endpoint === "string" && Object.prototype.hasOwnProperty.call(VALIDATORS, endpoint) ? VALIDATORS[endpoint] : undefined;
  if (validate === undefined)
    return [finding("error", "lint/unknown-endpoint", "", "endpoint: " + describeValue(endpoint) + " is not an endpoint of this UDF (owner/name/endpoint); known: " + KNOWN.join(", "))];
  let body = payload === undefined ? null : payload;
  if (typeof body === "string") {
    try {
      body = JSON.parse(body);
    } catch {
      return [finding("error", "lint/invalid-json", "", "the payload is a string that is not JSON text: pass the request body as JSON, or as its JSON text")];
    }
  }
  return validate(body).map((d) => finding(d.severity, d.rule, d.pointer, d.message));
};
`;

/** ECMAScript's global functions and objects the script may name (ECMA-262 19.3, 19.4), in a fixed order. */
const BUILT_INS = [
  "Array",
  "BigInt",
  "Boolean",
  "Date",
  "Error",
  "Infinity",
  "JSON",
  "Map",
  "Math",
  "NaN",
  "Number",
  "Object",
  "RangeError",
  "Reflect",
  "RegExp",
  "Set",
  "String",
  "Symbol",
  "SyntaxError",
  "TypeError",
  "WeakMap",
  "WeakSet",
  "decodeURIComponent",
  "encodeURIComponent",
  "isFinite",
  "isNaN",
  "parseFloat",
  "parseInt",
];

/** The code between the literals and comments of a script (where a name can be). */
function codeOnlyText(code: string): string {
  const parts: string[] = [];
  rewriteCodeOnly(code, (segment) => (parts.push(segment), segment));
  return parts.join(" ");
}

/** The library: one expression whose value is the `vskLint` function (and nothing else leaks). */
export function udfLibrary(sources: UdfSources): string {
  const support = unmodule(transpile(sources.support, "support.mts"), "support.mts");
  // each module keeps its own scope (both have a `WORD`): the support module gets the names it imports
  const parts = [
    "(function () {",
    '"use strict";',
    `const { ${support.imports.join(", ")} } = (function () {`,
    unmodule(transpile(sources.redact, "redact.mts"), "redact.mts").code,
    `return { ${support.imports.join(", ")} };`,
    "})();",
    support.code,
    "const VALIDATORS = Object.create(null);",
  ];
  for (const endpoint of [...sources.endpoints].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))) {
    const name = endpoint.key.replace(/[^A-Za-z0-9]+/g, "_");
    parts.push(
      `VALIDATORS[${JSON.stringify(endpoint.key)}] = (function () {`,
      unmodule(transpile(endpoint.module, `${name}.validate.mts`), `${name}.validate.mts`).code,
      "return validate;",
      "})();",
    );
  }
  parts.push(ENTRY, "})()");
  // The built-ins the script names, bound once in its own scope: a name the script does not
  // declare is looked up on the global object at every use, which node:vm's contexts (and any
  // embedder's global object with interceptors) make several times slower.
  const used = codeOnlyText(parts.join("\n"));
  const builtIns = BUILT_INS.filter((name) => new RegExp(`(^|[^.\\w$])${name}\\b`).test(used));
  parts.splice(2, 0, `const { ${builtIns.join(", ")} } = globalThis;`, "const undefined = void 0;");
  const plain = parts.join("\n");
  const small = minify(plain);
  // the minifier drops layout and comments only: the same syntax tree, or a bug in vsk (never a changed validator)
  if (howItDiffers("vsk_lint.js", plain, small) === "content")
    throw new Error("the minified UDF script is not the same program as its source (a bug in vsk, please report it)");
  return small;
}
