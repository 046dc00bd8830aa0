// Writes docs/drift-changes.md from the drift change catalogue (src/drift/table/).
// Run after `npm run build`: node scripts/drift-changes.mjs
import { writeFileSync } from "node:fs";
import { changeCataloguePage } from "../dist/src/drift/index.js";

const file = new URL("../docs/drift-changes.md", import.meta.url);
writeFileSync(file, changeCataloguePage());
process.stdout.write(`wrote ${file.pathname}\n`);
