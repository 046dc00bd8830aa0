/**
 * Emits the typed request builders of one endpoint with ts-morph: defaults, `validate…`,
 * `safeBuild…` and `build…` (which returns the queue request of spec 4.1 or throws
 * `RequestValidationError`), and the input schema as data.
 */
import { Project, StructureKind, VariableDeclarationKind, type SourceFile } from "ts-morph";
import type { EndpointModel, JsonSchemaObject } from "../schema/index.js";
import { isSchemaObject, PROTOTYPE_MEMBERS } from "../schema/index.js";
import type { JsonSchemaRule } from "../diagnostics/index.js";
import { escapeToken } from "../diagnostics/index.js";
import { kindOf, type RuleSpec } from "../rules/index.js";
import type { EndpointNames } from "./names.js";
import { standardProps } from "./standard-props.js";

let project: Project | undefined;
function sourceFile(name: string): SourceFile {
  project ??= new Project({ useInMemoryFileSystem: true, compilerOptions: { lib: ["es2022"], skipLibCheck: true } });
  return project.createSourceFile(name, "", { overwrite: true });
}

/** An object literal whose keys are defined as own properties, even `__proto__`. */
export function objectLiteral(value: Record<string, unknown>): string {
  const entries = Object.entries(value).map(([k, v]) => {
    const key = k === "__proto__" ? `[${JSON.stringify(k)}]` : JSON.stringify(k);
    return `${key}: ${literal(v)}`;
  });
  return `{ ${entries.join(", ")} }`;
}

/** A JSON value as a TypeScript expression (JSON itself, except objects, see `objectLiteral`). */
export function literal(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(literal).join(", ")}]`;
  if (typeof value === "object" && value !== null) return objectLiteral(value as Record<string, unknown>);
  const json = JSON.stringify(value);
  return json === undefined ? "undefined" : json.replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

/** The defaults of the top-level input fields, as the schema states them (spec 4.2–4.5). */
export function defaultsOf(input: JsonSchemaObject): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const properties = isSchemaObject(input.properties) ? input.properties : {};
  for (const [name, schema] of Object.entries(properties)) {
    if (isSchemaObject(schema) && "default" in schema)
      Object.defineProperty(out, name, { value: schema.default, enumerable: true });
  }
  return out;
}

/** Whether the defaults can be checked against the input type with `satisfies` (TS1360 otherwise). */
function checkable(input: JsonSchemaObject): boolean {
  return !Object.keys(isSchemaObject(input.properties) ? input.properties : {}).some((k) => PROTOTYPE_MEMBERS.has(k));
}

export interface BuilderImports {
  support: string;
  validator: string;
  types: string;
}

/**
 * The cross-field rules as the Standard JSON Schema lists them under `x-vsk-rules` (JSON Schema
 * cannot state them): each rule's id, severity, its kind's description in words, spec section
 * and fields (JSON Pointers; `*` stands for every item of an array). The derived unknown-field
 * warning is no cross-field rule and is not listed (as in the editor schema).
 */
export function jsonSchemaRules(rules: readonly RuleSpec[]): JsonSchemaRule[] {
  const out: JsonSchemaRule[] = [];
  for (const rule of rules) {
    const kind = kindOf(rule);
    const d = kind.describe(rule);
    if (d.spec === undefined) continue;
    const fields = [...d.fields];
    if (d.items !== undefined) fields.push(`${d.items.array}/*/${escapeToken(d.items.field)}`);
    out.push({
      id: rule.id,
      severity: kind.severity,
      message: d.parts.map((p) => (typeof p === "string" ? p : p.code)).join(""),
      spec: d.spec,
      fields,
    });
  }
  return out;
}

export function emitBuilders(
  endpoint: EndpointModel,
  names: EndpointNames,
  imports: BuilderImports,
  header: string,
  rules: readonly RuleSpec[],
): string {
  const file = sourceFile(`${names.stem}.ts`);
  const { input, output } = names;
  file.addImportDeclarations([
    {
      moduleSpecifier: imports.support,
      namedImports: [
        "RequestValidationError",
        "jsonSchemaConverter",
        "standardResult",
        { name: "BuildResult", isTypeOnly: true },
        { name: "Diagnostic", isTypeOnly: true },
        { name: "StandardJSONSchemaV1", isTypeOnly: true },
        { name: "FindingLimit", isTypeOnly: true },
        { name: "StandardSchemaV1", isTypeOnly: true },
      ],
    },
    { moduleSpecifier: imports.validator, namedImports: [{ name: "validate", alias: "validateInput" }] },
    { moduleSpecifier: imports.types, isTypeOnly: true, namedImports: [input] },
  ]);
  file.addExportDeclaration({ moduleSpecifier: imports.types, isTypeOnly: true, namedExports: [input, output] });
  const requestType = `{ method: "POST"; path: typeof ${names.path}; body: ${input} }`;
  file.addVariableStatements([
    {
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      docs: [`Queue path of \`${endpoint.key}\` (spec 4.1): POST {base_url}${endpoint.queuePath}`],
      declarations: [{ name: names.path, initializer: `${JSON.stringify(endpoint.queuePath)} as const` }],
    },
    {
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      docs: ["What the service uses for each field left out of the request (from the published schema)."],
      declarations: [
        {
          name: names.defaults,
          initializer: `${objectLiteral(defaultsOf(endpoint.input))} as const${checkable(endpoint.input) ? ` satisfies Partial<${input}>` : ""}`,
        },
      ],
    },
    {
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      docs: ["The normalized input JSON Schema (draft 2020-12) the validator was compiled from."],
      declarations: [
        { name: names.inputSchema, type: "Readonly<Record<string, unknown>>", initializer: literal(endpoint.input) },
      ],
    },
    {
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      docs: [
        `\`${endpoint.key}\`'s request schema as Standard JSON Schema v1 (\`~standard.jsonSchema\`): \`input({ target })\` and \`output({ target })\` give the schema above for "draft-2020-12" or "draft-07", self-contained, with the cross-field rules under \`x-vsk-rules\`; another target throws.`,
      ],
      declarations: [
        {
          name: names.jsonSchema,
          type: "StandardJSONSchemaV1.Converter",
          // a call marked pure: a bundler drops it when unused; nothing is built until it is called
          initializer: `/*#__PURE__*/ jsonSchemaConverter(${names.inputSchema}, ${literal(jsonSchemaRules(rules))})`,
        },
      ],
    },
    {
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      docs: [
        `\`${endpoint.key}\` as a Standard Schema v1 validator, for Hono, tRPC and any other consumer of the standard: \`validate\` is synchronous and gives \`{ value }\` (the payload as given) or one issue per error diagnostic. Also Standard JSON Schema v1 (\`~standard.jsonSchema\`).`,
      ],
      declarations: [
        {
          name: names.standardSchema,
          type: `StandardSchemaV1<${input}> & StandardJSONSchemaV1<${input}>`,
          // an object literal, no call: a bundler drops it when unused (issue 24.9)
          initializer: `{ "~standard": ${standardProps(input, "validateInput", names.jsonSchema)} }`,
        },
      ],
    },
  ]);
  file.addFunctions([
    {
      kind: StructureKind.Function,
      isExported: true,
      name: names.validate,
      docs: [
        `Every reason the service would reject this \`${endpoint.key}\` payload (code invalid_input, reason input_validation_failed, spec 7.2), then warnings. Empty when it would be accepted. With \`limit\`: the first \`limit.max\` findings and one \`more-findings\` counting the rest (\`errorsOnly\`: no warning-only rule runs).`,
      ],
      parameters: [
        { name: "input", type: "unknown" },
        { name: "limit", type: "FindingLimit", hasQuestionToken: true },
      ],
      returnType: "Diagnostic[]",
      statements: "return validateInput(input, limit);",
    },
    {
      kind: StructureKind.Function,
      isExported: true,
      name: names.safeBuild,
      docs: [`Builds the queue request for \`${endpoint.key}\`, or returns the validation error instead of throwing.`],
      parameters: [{ name: "input", type: input }],
      // the request's path and the error's endpoint as the literals they are (issue 24.6)
      returnType: `BuildResult<${input}, typeof ${names.path}, ${JSON.stringify(endpoint.key)}>`,
      statements: [
        "const diagnostics = validateInput(input);",
        `const warnings = diagnostics.filter((d) => d.severity === "warning");`,
        `if (warnings.length !== diagnostics.length) return { ok: false, error: new RequestValidationError(${JSON.stringify(endpoint.key)}, diagnostics) };`,
        `return { ok: true, request: { method: "POST", path: ${names.path}, body: input }, warnings };`,
      ],
    },
    {
      kind: StructureKind.Function,
      isExported: true,
      name: names.build,
      // one JSDoc block: an editor's hover shows only the last of two blocks
      docs: [
        {
          description: `Builds the queue request for \`${endpoint.key}\` (spec 4.1).`,
          tags: [
            {
              tagName: "throws",
              text: "RequestValidationError with every diagnostic when the service would reject the payload.",
            },
          ],
        },
      ],
      parameters: [{ name: "input", type: input }],
      returnType: requestType,
      statements: [
        `const result = ${names.safeBuild}(input);`,
        "if (!result.ok) throw result.error;",
        `return { method: "POST", path: ${names.path}, body: result.request.body };`,
      ],
    },
  ]);
  return `${header}\n${file.getFullText()}`;
}
