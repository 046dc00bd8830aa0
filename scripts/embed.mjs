// What `vsk generate` writes into the generated directory besides the per-endpoint files, as
// TypeScript source (the package ships dist/, not src/): dist/embed/support.ts is
// templates/support.ts followed by the runtime region of every rule kind (in the order
// src/rules/check.ts imports them) and of check.ts itself; dist/embed/redact.ts is the runtime's
// URL redaction as it is. Their only relative import is "./redact.js" (generate sets the extension).
// dist/embed/_vsk/ is the queue client (src/client) and the runtime it reads answers with
// (src/runtime), file by file as they are, for the generated `client.ts`: only the imports that
// leave those two folders change, to the generated support and redaction modules beside them.
// They are stored as generate writes them (`.mts` importing `.mjs`, in generate's own prettier
// layout), so that generate does not spend a second formatting 90 kB of unchanging source.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import prettier from "prettier";
import ts from "typescript";
import { PRETTIER_OPTIONS } from "../dist/src/emit/index.js";

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

/**
 * The client and runtime sources as the generated `_vsk/client/` and `_vsk/runtime/` (the folder
 * name cannot clash with an owner's, which starts with a letter or digit): relative imports stay
 * within the two folders, but for the support module and the runtime's URL redaction, which are
 * the generated `support` and `redact` two levels up. Anything else imported fails the build.
 */
const LEAVING = {
  "src/client": { "../../templates/support.js": "../../support.js" },
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
