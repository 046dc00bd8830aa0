// What `vsk generate` writes into the generated directory besides the per-endpoint files, as
// TypeScript source (the package ships dist/, not src/): dist/embed/support.ts is
// templates/support-head.txt followed by the runtime region of every file of src/diagnostics/
// (in the order its index.ts exports them), of every rule kind (in the order of RULE_KINDS, the
// list in src/rules/kinds.ts), then the dispatch written out from that list and the runtime
// region of check.ts; dist/embed/redact.ts is the runtime's URL redaction as
// it is. Their only relative import is "./redact.js" (generate sets the extension).
// dist/embed/_vsk/ is the queue client (src/client) and the runtime it reads answers with
// (src/runtime), file by file as they are, for the generated `client.ts`: only the imports that
// leave those two folders change, to the generated support and redaction modules beside them.
// They are stored as generate writes them (`.mts` importing `.mjs`, in generate's own prettier
// layout), so that generate does not spend a second formatting 90 kB of unchanging source.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import prettier from "prettier";
import ts from "typescript";
import { PRETTIER_OPTIONS } from "../dist/src/emit/index.js";
import { RULE_KINDS } from "../dist/src/rules/index.js";

const read = (file) => readFileSync(file, "utf8");
const START = "// #region runtime";
const END = "// #endregion runtime";

/** The runtime region of a source file, checked to hold no import. */
function region(file) {
  const text = read(file);
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start === -1 || end === -1 || end < start) throw new Error(`${file}: no "${START}" … "${END}" region`);
  const body = text.slice(text.indexOf("\n", start) + 1, end).trimEnd();
  if (/^\s*import\b/m.test(body)) throw new Error(`${file}: the runtime region must not import anything`);
  return `// ${file.replace(/^src\//, "vsk's src/")}\n${body}\n`;
}

// The head: the module's comment and its one import, of the runtime's URL redaction. The
// diagnostics files import those names from ../runtime/redact.js outside their regions.
const head = read("templates/support-head.txt");
const redactImport = '"./redact.js"';
const headImport = head.match(/^import \{([^}]*)\} from "\.\/redact\.js";$/m);
if (!headImport) throw new Error(`templates/support-head.txt no longer imports from ${redactImport}`);
const fromRedact = new Set(headImport[1].split(",").map((name) => name.trim()));

// The validation core: src/diagnostics/*.ts. A name its files share but its index.ts does not
// export stays private to the generated module (its `export` is dropped).
const diagnosticsIndex = read("src/diagnostics/index.ts");
const publicNames = new Set(
  [...diagnosticsIndex.matchAll(/^export \{([^}]*)\} from "[^"]+";$/gm)].flatMap((m) =>
    m[1]
      .split(",")
      .map((name) => name.trim().replace(/^type /, ""))
      .filter(Boolean),
  ),
);
const coreFiles = [
  ...new Set([...diagnosticsIndex.matchAll(/ from "\.\/([a-z-]+)\.js";$/gm)].map((m) => `src/diagnostics/${m[1]}.ts`)),
];
const exported = new Set();
function coreRegion(file) {
  const text = read(file);
  for (const m of text.matchAll(/^import \{([^}]*)\} from "\.\.\/runtime\/redact\.js";$/gm))
    for (const name of m[1].split(",").map((n) => n.trim()))
      if (!fromRedact.has(name))
        throw new Error(`${file} imports ${name} from the runtime, which templates/support-head.txt does not`);
  return region(file).replace(
    /^export ((?:async )?(?:function|const|let|class|interface|type) ([A-Za-z_$][\w$]*))/gm,
    (all, declaration, name) => {
      if (!publicNames.has(name)) return declaration;
      exported.add(name);
      return all;
    },
  );
}
const core = coreFiles.map(coreRegion);
for (const name of publicNames)
  if (!exported.has(name) && !fromRedact.has(name))
    throw new Error(`src/diagnostics/index.ts exports ${name}, which no runtime region of src/diagnostics/ declares`);

// Each kind's region declares its rule's interface (`uniqueItemField` → `UniqueItemFieldRule`)
// and its record's check function; the dispatch check.ts builds from the list is written out.
const kindRegions = RULE_KINDS.map(({ kind, file, check, severity }) => {
  const source = `src/rules/${file}.ts`;
  const text = region(source);
  const type = `${kind[0].toUpperCase()}${kind.slice(1)}Rule`;
  if (!new RegExp(`^export interface ${type}\\b`, "m").test(text))
    throw new Error(`${source}: its runtime region does not declare "export interface ${type}" (rule kind ${kind})`);
  if (!new RegExp(`^export function ${check.name}\\(`, "m").test(text))
    throw new Error(`${source}: its runtime region does not declare the check of rule kind ${kind}, ${check.name}`);
  return { kind, type, check: check.name, text, severity };
});
const dispatch = [
  "/** A cross-field rule as data: its kind names its check; the rest are its parameters. */",
  `export type RuleSpec =\n${kindRegions.map((k) => `  | ${k.type}`).join("\n")};`,
  "",
  'type Check<K extends RuleSpec["kind"]> = (',
  "  rule: Extract<RuleSpec, { kind: K }>,",
  "  input: Record<string, unknown>,",
  "  invalid: InvalidPointers,",
  "  max: number,",
  "  words: boolean,",
  ") => Diagnostic[];",
  "",
  'const CHECKS: { [K in RuleSpec["kind"]]: Check<K> } = {',
  ...kindRegions.map((k) => `  ${k.kind}: ${k.check},`),
  "};",
  "",
  "/** The rule kinds whose every finding is a warning: skipped when only errors are wanted. */",
  `const WARNING_KINDS: ReadonlySet<string> = new Set(${JSON.stringify(kindRegions.filter((k) => k.severity === "warning").map((k) => k.kind))});`,
  "",
  "",
].join("\n");
const checkRegion = region("src/rules/check.ts");
const checkHeader = checkRegion.slice(0, checkRegion.indexOf("\n") + 1);
const support = [
  head.trimEnd(),
  "",
  "// ---------------------------------------------------------------------------------------------",
  "// Diagnostics (spec 7.1, 7.2): the diagnostic, its wording, Ajv's errors, pointers, formats",
  "",
  ...core,
  "// ---------------------------------------------------------------------------------------------",
  "// Cross-field rules the schemas cannot express: each kind's check and message, then the dispatch",
  "",
  ...kindRegions.map((k) => k.text),
  checkHeader + dispatch + checkRegion.slice(checkHeader.length),
].join("\n");

/**
 * The client and runtime sources as the generated `_vsk/client/` and `_vsk/runtime/` (the folder
 * name cannot clash with an owner's, which starts with a letter or digit): relative imports stay
 * within the two folders, but for the support module and the runtime's URL redaction, which are
 * the generated `support` and `redact` two levels up. Anything else imported fails the build.
 */
const LEAVING = {
  "src/client": { "../diagnostics/index.js": "../../support.js" },
  "src/runtime": { "./redact.js": "../../redact.js" },
};
const copies = [];
for (const [folder, rewrites] of Object.entries(LEAVING)) {
  const names = readdirSync(folder).filter(
    (f) => f.endsWith(".ts") && !(folder === "src/runtime" && f === "redact.ts"),
  );
  for (const name of names.sort()) {
    const file = `${folder}/${name}`;
    let text = read(file);
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      const local =
        /^\.\/[a-z-]+\.js$/.test(fileName) || (folder === "src/client" && fileName === "../runtime/index.js");
      if (rewrites[fileName] !== undefined) text = text.split(`"${fileName}"`).join(`"${rewrites[fileName]}"`);
      else if (!local) throw new Error(`${file} imports ${fileName}, which the generated client cannot carry`);
    }
    text = text.replace(/(\bfrom\s+)"(\.{1,2}\/[^"]*)\.js"/g, '$1"$2.mjs"');
    text = await prettier.format(text, { parser: "babel-ts", ...PRETTIER_OPTIONS });
    copies.push([`_vsk/${folder.slice("src/".length)}/${name.replace(/\.ts$/, ".mts")}`, text]);
  }
}

rmSync("dist/embed/_vsk", { recursive: true, force: true });
for (const dir of ["dist/embed/_vsk/client", "dist/embed/_vsk/runtime"]) mkdirSync(dir, { recursive: true });
for (const [name, text] of [["support.ts", support], ["redact.ts", read("src/runtime/redact.ts")], ...copies]) {
  writeFileSync(`dist/embed/${name}.tmp`, text);
  renameSync(`dist/embed/${name}.tmp`, `dist/embed/${name}`);
}
