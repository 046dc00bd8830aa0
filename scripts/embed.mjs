// What `vsk generate` writes into the generated directory besides the per-endpoint files, as
// TypeScript source (the package ships dist/, not src/): dist/embed/support.ts is
// templates/support.ts followed by the runtime region of every rule kind (in the order
// src/rules/check.ts imports them) and of check.ts itself; dist/embed/redact.ts is the runtime's
// URL redaction as it is. Their only relative import is "./redact.js" (generate sets the extension).
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";

const read = (file) => readFileSync(file, "utf8");
const START = "// #region runtime";
const END = "// #endregion runtime";

/** The runtime region of a rule file, checked to hold no import. */
function region(file) {
  const text = read(file);
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start === -1 || end === -1 || end < start) throw new Error(`${file}: no "${START}" … "${END}" region`);
  const body = text.slice(text.indexOf("\n", start) + 1, end).trimEnd();
  if (/^\s*import\b/m.test(body)) throw new Error(`${file}: the runtime region must not import anything`);
  return `// ${file.replace(/^src\//, "vsk's src/")}\n${body}\n`;
}

const core = read("templates/support.ts");
const redactImport = '"../src/runtime/redact.js"';
if (!core.includes(redactImport)) throw new Error(`templates/support.ts no longer imports ${redactImport}`);
const check = read("src/rules/check.ts");
const kinds = [...check.matchAll(/^import [^;]* from "\.\/([a-z-]+)\.js";$/gm)].map((m) => `src/rules/${m[1]}.ts`);
const support = [
  core.replace(redactImport, '"./redact.js"').trimEnd(),
  "",
  "// ---------------------------------------------------------------------------------------------",
  "// Cross-field rules the schemas cannot express: each kind's check and message, then the dispatch",
  "",
  ...kinds.map(region),
  region("src/rules/check.ts"),
].join("\n");

mkdirSync("dist/embed", { recursive: true });
for (const [name, text] of [
  ["support.ts", support],
  ["redact.ts", read("src/runtime/redact.ts")],
]) {
  writeFileSync(`dist/embed/${name}.tmp`, text);
  renameSync(`dist/embed/${name}.tmp`, `dist/embed/${name}`);
}
