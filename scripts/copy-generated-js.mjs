// Ajv's standalone validators are emitted as plain ESM `.js` files with a `.d.ts` beside
// them; tsc does not copy them, so the build does (generated/ -> dist/generated/).
import { cpSync, existsSync } from "node:fs";
if (existsSync("generated")) {
  cpSync("generated", "dist/generated", {
    recursive: true,
    filter: (src) => !src.endsWith(".ts") || src.endsWith(".d.ts"),
  });
}
