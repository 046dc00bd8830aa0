import { readFileSync } from "node:fs";
import { inspect } from "../src/preflight/media.ts";
for (const f of process.argv.slice(2)) {
  const bytes = readFileSync(f);
  const t = performance.now();
  const info = await inspect({ size: bytes.length, read: async (s, l) => bytes.subarray(s, s + l) });
  console.log(f.split("/").pop(), JSON.stringify(info), Math.round(performance.now() - t), "ms");
}
