/**
 * Issue 30.12: the generated client loads an endpoint's validator only when that endpoint is
 * used. Plain node runs the package build of the generated client (dist/generated/client.mjs)
 * with a module hook that logs every module it loads, submits to one endpoint through a `fetch`
 * that answers in-process (no address is contacted), and prints what was loaded.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const work = mkdtempSync(join(tmpdir(), "vsk-lazy-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The generated modules loaded (relative to dist/generated/) when `body` runs after importing the client. */
function loadedBy(body: string): string[] {
  const log = join(work, `${Math.random().toString(36).slice(2)}.log`);
  writeFileSync(log, "");
  const hook =
    `import { appendFileSync } from "node:fs";\n` +
    `export async function load(url, context, next) { appendFileSync(${JSON.stringify(log)}, url + "\\n"); return next(url, context); }\n`;
  writeFileSync(join(work, "hook.mjs"), hook);
  const script = join(work, "run.mjs");
  writeFileSync(
    script,
    [
      `import { register } from "node:module";`,
      `register(${JSON.stringify(pathToFileURL(join(work, "hook.mjs")).href)});`,
      `const { createClient } = await import(${JSON.stringify(pathToFileURL(join(root, "dist/generated/client.mjs")).href)});`,
      `const fetch = async () => new Response(JSON.stringify({ request_id: "r1" }), { status: 200, headers: { "content-type": "application/json" } });`,
      `const client = createClient({ baseUrl: "http://in-process.invalid", credentials: "test-key", fetch });`,
      body,
    ].join("\n"),
  );
  execFileSync(process.execPath, [script], { cwd: work, timeout: 30_000 });
  const base = pathToFileURL(join(root, "dist/generated")).href + "/";
  return [
    ...new Set(
      readFileSync(log, "utf8")
        .split("\n")
        .filter((url) => url.startsWith(base))
        .map((url) => url.slice(base.length)),
    ),
  ].sort();
}

it("creating the client loads no endpoint module; a submit loads that endpoint's validator only", () => {
  expect(loadedBy("").filter((f) => f.startsWith("example/"))).toEqual([]);
  const loaded = loadedBy(`await client.submit("example/model-c/text-to-video", { input: { prompt: "x" } });`);
  expect(loaded.filter((f) => f.startsWith("example/"))).toEqual([
    "example/model-c/text-to-video.mjs",
    "example/model-c/text-to-video.validate.mjs",
  ]);
  expect(loaded).not.toContain("index.mjs");
});

it("an invalid input still throws RequestValidationError before any request", () => {
  const loaded = loadedBy(
    [
      `const { RequestValidationError } = await import(${JSON.stringify(pathToFileURL(join(root, "dist/generated/client.mjs")).href)});`,
      `const error = await client.submit("example/model-a/text-to-video", { input: { prompt: 1 } }).catch((e) => e);`,
      `if (!(error instanceof RequestValidationError)) throw new Error("not a RequestValidationError: " + error);`,
    ].join("\n"),
  );
  expect(loaded.filter((f) => f.startsWith("example/"))).toEqual([
    "example/model-a/text-to-video.mjs",
    "example/model-a/text-to-video.validate.mjs",
  ]);
});
