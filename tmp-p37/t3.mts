import { parseBounded, warmParser } from "../src/preflight/sandbox.ts";
const t = performance.now();
const task = (s: string) => ({ size: s.length, final: false, runs: [{ start: 0, bytes: Buffer.from(s) }] });
console.log(await parseBounded(task("hello"), 5000), performance.now() - t);
process.env.VSK_TEST_PARSER_FAULTS = "1";
