/**
 * `vsk pull` end to end: the `vsk` command (`bin/vsk.mjs`) as a child process, in a temp
 * project, against a real HTTP server on 127.0.0.1 or a mirror directory. Nothing here writes
 * to the repository's own schemas-cache/ (checked after the suite).
 */
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { hang, json, oversize, redirect, startServer, text, type TestServer } from "../fetch/serve.js";
import { vskInProcess } from "./run.js";

const ROOT = resolve(import.meta.dirname, "../..");
const CLI = join(ROOT, "bin/vsk.mjs");
const FIXTURES = join(ROOT, "test/fixtures/pull");
const MIRROR = join(FIXTURES, "mirror");
const MODELS = ["example/model-a", "example/model-b", "example/model-c"] as const;
const path = (model: string): string => `/main/${model}/latest.json`;
const SECRET = "vsk-live-key-5f2c9a0e71";

/** Every file under `dir` with its bytes, for byte-for-byte comparisons. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const full = join(entry.parentPath, entry.name);
      out[relative(dir, full)] = readFileSync(full).toString("base64");
    }
  }
  return out;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The describe blocks whose first run was a child process. */
const spawnedIn = new Set<string>();

/**
 * Runs the built CLI with a clean environment: no VSK_* from the caller, fast fetch settings. The
 * first run of each describe block is a child process; the others run the same program in this
 * process with the same environment (test/cli/run.ts's vskInProcess, issue 42.4); `spawned` asks for
 * a child process.
 */
function vsk(args: string[], cwd: string, env: Record<string, string> = {}, spawned = false): Promise<Run> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("VSK_")));
  const fast = { VSK_FETCH_TIMEOUT_MS: "2000", VSK_RETRY_BASE_MS: "5", VSK_RETRY_MAX_DELAY_MS: "50" };
  const block = (expect.getState().currentTestName ?? "").split(" > ")[0]!;
  if (spawnedIn.has(block) && !spawned)
    return vskInProcess(["pull", ...args], cwd, { ...base, ...fast, ...env } as Record<string, string>, "exact");
  spawnedIn.add(block);
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [CLI, "pull", ...args], {
      cwd,
      env: { ...base, ...fast, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", fail);
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
}

const temps: string[] = [];
const servers: TestServer[] = [];
/** A temp project; with `config`, a vsk.config.json whose snapshot goes to ./snap. */
function project(config?: Record<string, unknown>): { dir: string; snap: string } {
  const dir = mkdtempSync(join(tmpdir(), "vsk-pull-"));
  temps.push(dir);
  if (config === undefined) return { dir, snap: join(dir, "schemas-cache") };
  writeFileSync(join(dir, "vsk.config.json"), JSON.stringify({ snapshotDir: "snap", ...config }));
  return { dir, snap: join(dir, "snap") };
}
/** A snapshot of every model whose content differs from the mirror (an older version). */
function seedOldSnapshot(snap: string): void {
  for (const model of MODELS) {
    const doc = JSON.parse(readFileSync(join(MIRROR, path(model)), "utf8")) as { info: { title: string } };
    doc.info.title += " (older)";
    cpSync(join(MIRROR, path(model)), join(snap, model, "latest.json"));
    writeFileSync(join(snap, model, "latest.json"), JSON.stringify(doc, null, 2) + "\n");
  }
  writeFileSync(join(snap, "manifest.json"), '{\n  "models": {}\n}\n');
}
async function serve(...args: Parameters<typeof startServer>): Promise<TestServer> {
  const server = await startServer(...args);
  servers.push(server);
  return server;
}

let repoSnapshotBefore: Record<string, string>;
beforeAll(() => {
  if (!existsSync(CLI))
    throw new Error(`${CLI} is missing: build first with \`npx tsc -p tsconfig.build.json\` (npm test does)`);
  repoSnapshotBefore = tree(join(ROOT, "schemas-cache"));
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
  expect(tree(join(ROOT, "schemas-cache"))).toEqual(repoSnapshotBefore);
});

describe("vsk pull from local sources", () => {
  it("fills ./schemas-cache from a mirror directory, and a second pull changes nothing", async () => {
    const { dir, snap } = project();
    const first = await vsk(["--schema-url", MIRROR], dir);
    // no config here: the built-in example models, said on stderr when it ends (issue 30.1)
    expect(first).toMatchObject({
      code: 0,
      stderr: expect.stringMatching(/^vsk: no vsk\.config\.json .*: using the built-in example models .*\n$/),
    });
    for (const model of MODELS) {
      expect(readFileSync(join(snap, model, "latest.json"), "utf8")).toBe(
        readFileSync(join(MIRROR, path(model)), "utf8"),
      );
      expect(first.stdout).toMatch(
        new RegExp(`^${model}  new {8}sha256:[0-9a-f]{8}…  ${relative(dir, join(MIRROR, path(model)))}$`, "m"),
      );
    }
    const manifest = JSON.parse(readFileSync(join(snap, "manifest.json"), "utf8")) as {
      models: Record<string, { source: string }>;
    };
    // relative to the config file's directory (here the current one): the same manifest on every machine
    expect(manifest.models["example/model-b"]!.source).toBe(relative(dir, join(MIRROR, path("example/model-b"))));
    expect(manifest.models["example/model-b"]!.source).toMatch(
      /^\.\.\/.*test\/fixtures\/pull\/mirror\/main\/example\/model-b\/latest\.json$/,
    );

    const before = tree(snap);
    const second = await vsk(["--schema-url", MIRROR], dir);
    expect(second.code).toBe(0);
    expect(second.stdout.match(/ unchanged /g)).toHaveLength(3);
    expect(tree(snap)).toEqual(before);
  });

  it("reads schemaUrl from the config (file:// URL) and pulls only the --model asked for", async () => {
    const { dir, snap } = project({ schemaUrl: pathToFileURL(MIRROR).href });
    const run = await vsk(["--model", "modelB"], dir);
    expect(run.code).toBe(0);
    expect(Object.keys(tree(snap)).sort()).toEqual(["example/model-b/latest.json", "manifest.json"]);
  });

  it("falls back to VSK_SCHEMA_URL, and a JSON file that is not a model document fails validation", async () => {
    const { dir, snap } = project();
    const run = await vsk(["--model", "example/model-a"], dir, { VSK_SCHEMA_URL: join(FIXTURES, "not-a-model") });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(
      `vsk: example/model-a: ${join(FIXTURES, "not-a-model", path("example/model-a"))} at /openapi: is not an OpenAPI 3.0 or 3.1 document`,
    );
    expect(existsSync(snap)).toBe(false);
  });
});

describe("vsk pull and a snapshot it cannot read or write (exit 2, one line, nothing written)", () => {
  it("a corrupt manifest is reported, not taken as empty: pull --model would drop the other models' entries", async () => {
    const { dir, snap } = project({});
    seedOldSnapshot(snap);
    writeFileSync(join(snap, "manifest.json"), '{\n  "models": {\n    "example/model-a": {\n');
    const before = tree(snap);
    const run = await vsk(["--schema-url", MIRROR, "--model", "modelA"], dir);
    expect(run.code).toBe(2);
    expect(run.stderr.split("\n").filter(Boolean)).toEqual([
      `vsk: pull: ${join(snap, "manifest.json")} is not valid JSON (line 4, column 1: unexpected end of input, expected a double-quoted property name); ` +
        "fix it (or restore it from version control), or delete it and run `vsk pull` for every model to rebuild it",
    ]);
    expect(run.stdout).toBe("");
    expect(tree(snap)).toEqual(before);
  });

  it("a manifest of another shape too", async () => {
    const { dir, snap } = project({});
    seedOldSnapshot(snap);
    writeFileSync(join(snap, "manifest.json"), "[]\n");
    const run = await vsk(["--schema-url", MIRROR], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^vsk: pull: .*manifest\.json is not a snapshot manifest \(expected \{ "models": \{ … \} \}\); /,
    );
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it("a write failing part-way (a directory where the third model goes) leaves every file as it was", async () => {
    const { dir, snap } = project({});
    seedOldSnapshot(snap);
    rmSync(join(snap, "example/model-c/latest.json"));
    mkdirSync(join(snap, "example/model-c/latest.json"));
    writeFileSync(join(snap, "example/model-c/latest.json/keep.txt"), "in the way");
    const before = tree(snap);
    const run = await vsk(["--schema-url", MIRROR], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `vsk: pull: ${join(snap, "example/model-c/latest.json")} is a directory, not a regular file; vsk replaces only files it wrote; nothing was changed\n`,
    );
    expect(tree(snap)).toEqual(before);
  });
});

describe("vsk pull over HTTP (127.0.0.1)", () => {
  it("retries a 500, then writes new and updated models", async () => {
    const server = await serve(
      {
        [path("example/model-a")]: [
          text(500, "boom"),
          json(JSON.parse(readFileSync(join(MIRROR, path("example/model-a")), "utf8"))),
        ],
      },
      MIRROR,
    );
    const { dir, snap } = project({});
    seedOldSnapshot(snap);
    rmSync(join(snap, "example/model-c"), { recursive: true });
    const run = await vsk(["--schema-url", server.origin], dir);
    expect(run.code).toBe(0);
    expect(server.hits(path("example/model-a"))).toBe(2);
    expect(run.stderr).toMatch(
      /^vsk: example\/model-a: HTTP 500 Internal Server Error; the body is text\/plain.*retrying in 0\.0 s \(attempt 2\)$/m,
    );
    expect(run.stdout).toMatch(/^example\/model-a {2}updated {4}sha256:/m);
    expect(run.stdout).toMatch(/^example\/model-c {2}new {8}sha256:/m);
    expect(run.stdout).toContain("3 models in");
  });

  it("does not retry a 404, exits 3, and never shows the query string", async () => {
    const server = await serve(
      { [path("example/model-b")]: json({ error: { message: "no such model" } }, 404) },
      MIRROR,
    );
    const { dir, snap } = project({});
    const run = await vsk(["--schema-url", `${server.origin}/?X-Amz-Signature=presigned-secret&X-Amz-Expires=60`], dir);
    expect(run.code).toBe(3);
    expect(server.hits(path("example/model-b"))).toBe(1);
    expect(server.requests.every((r) => r.target.endsWith("?X-Amz-Signature=presigned-secret&X-Amz-Expires=60"))).toBe(
      true,
    );
    expect(run.stderr).toContain(
      `vsk: example/model-b: ${server.origin}${path("example/model-b")}: HTTP 404 Not Found\n`,
    );
    expect(run.stdout + run.stderr).not.toMatch(/presigned-secret|X-Amz|\?/);
    expect(existsSync(snap)).toBe(false);
  });

  it("explains a text/plain 502 from the edge", async () => {
    const server = await serve({ [path("example/model-c")]: text(502, "Bad gateway") }, MIRROR);
    const { dir } = project({});
    const run = await vsk(["--schema-url", server.origin, "--model", "modelC"], dir, { VSK_FETCH_RETRIES: "1" });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(
      "HTTP 502 Bad Gateway; the body is text/plain, not JSON: likely a CDN edge or proxy in front of the schema host (gave up after 2 attempts)",
    );
  });

  it("gives up when the headers never come", async () => {
    const server = await serve({ [path("example/model-a")]: hang }, MIRROR);
    const { dir } = project({});
    const run = await vsk(["--schema-url", server.origin, "--model", "modelA"], dir, {
      VSK_FETCH_TIMEOUT_MS: "200",
      VSK_FETCH_RETRIES: "0",
    });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(
      "example/model-a: " +
        server.origin +
        path("example/model-a") +
        ": no response headers before the timeout (200 ms)",
    );
  });

  it("aborts an oversize body", async () => {
    const server = await serve({ [path("example/model-a")]: oversize(64 * 1024 * 1024, false) }, MIRROR);
    const { dir } = project({});
    // a child process: the server sees the connection closed by the time it has exited
    const run = await vsk(
      ["--schema-url", server.origin, "--model", "modelA"],
      dir,
      { VSK_FETCH_MAX_BYTES: "200000" },
      true,
    );
    expect(run.code).toBe(3);
    expect(run.stderr).toContain("larger than the 200000-byte limit (VSK_FETCH_MAX_BYTES); download aborted");
    expect(server.aborted.has(path("example/model-a"))).toBe(true);
  });

  it("leaves the snapshot unchanged byte for byte when one of three models fails", async () => {
    const server = await serve({ [path("example/model-b")]: json({ error: {} }, 503) }, MIRROR);
    const { dir, snap } = project({});
    seedOldSnapshot(snap);
    const before = tree(snap);
    const run = await vsk(["--schema-url", server.origin], dir, { VSK_FETCH_RETRIES: "1" });
    expect(run.code).toBe(3);
    expect(server.hits(path("example/model-a"))).toBe(1);
    expect(server.hits(path("example/model-c"))).toBe(1);
    expect(run.stderr).toContain("vsk: example/model-b: ");
    expect(run.stderr).toContain(`vsk: pull failed for 1 of 3 models; ${snap} left unchanged`);
    expect(run.stdout).toBe("");
    expect(tree(snap)).toEqual(before);
  });

  it("prints one line per failing model", async () => {
    const server = await serve(
      {
        [path("example/model-a")]: json({}, 403),
        [path("example/model-c")]: text(200, "<html>captive portal</html>", "text/html"),
      },
      MIRROR,
    );
    const { dir } = project({});
    const run = await vsk(["--schema-url", server.origin], dir);
    expect(run.code).toBe(3);
    expect(run.stderr.trim().split("\n")).toEqual([
      `vsk: example/model-a: ${server.origin}${path("example/model-a")}: HTTP 403 Forbidden`,
      `vsk: example/model-c: ${server.origin}${path("example/model-c")}: HTTP 200 with content-type text/html: the body is not JSON (it looks like HTML or XML: an error page from a CDN edge or proxy?)`,
      `vsk: pull failed for 2 of 3 models; ${join(dir, "snap")} left unchanged`,
    ]);
  });

  it("a redirect with an invalid Location header is one line and exit 3, not a stack trace", async () => {
    const server = await serve({ [path("example/model-a")]: redirect("http://[::1") }, MIRROR);
    const { dir, snap } = project({});
    const run = await vsk(["--schema-url", server.origin, "--model", "modelA"], dir);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain("redirect with an invalid Location header");
    expect(run.stderr).not.toMatch(/\n\s+at |TypeError|internal error/);
    expect(existsSync(snap)).toBe(false);
  });

  it("sends VSK_API_KEY as Authorization: Key, drops it on a redirect to another origin, never prints it", async () => {
    const cdn = await serve({}, MIRROR);
    const server = await serve(
      {
        [path("example/model-a")]: redirect(`${cdn.origin}${path("example/model-a")}?sig=1`),
        [path("example/model-b")]: json({}, 401),
      },
      MIRROR,
    );
    const { dir } = project({});
    const run = await vsk(["--schema-url", server.origin], dir, { VSK_API_KEY: SECRET });
    expect(run.code).toBe(3);
    expect(server.requests).toHaveLength(3);
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([
      `Key ${SECRET}`,
      `Key ${SECRET}`,
      `Key ${SECRET}`,
    ]);
    expect(cdn.requests).toHaveLength(1);
    expect(cdn.requests[0]!.headers.authorization).toBeUndefined();
    expect(run.stderr).toContain("HTTP 401 Unauthorized");
    expect(run.stdout + run.stderr).not.toContain(SECRET);
  });
});

describe("a document that names another model (issue 42.3)", () => {
  it("is stored with a warning naming its info.x-model-id and its paths", async () => {
    const { dir, snap } = project({ models: [{ id: "acme/video-a", alias: "videoA" }], schemaUrl: "mirror" });
    // a mirror's copy of model A under the consumer's id, not rewritten
    mkdirSync(join(dir, "mirror/main/acme/video-a"), { recursive: true });
    cpSync(join(MIRROR, path("example/model-a")), join(dir, "mirror/main/acme/video-a/latest.json"));
    const run = await vsk([], dir);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(
      'vsk: warning: acme/video-a: the document from mirror/main/acme/video-a/latest.json names another model: its info.x-model-id is "example/model-a" and 2 of its 2 queue paths name "example/model-a"; stored anyway: check the schema URL and the model id (a mirror\'s copy under the wrong name?)\n',
    );
    expect(existsSync(join(snap, "acme/video-a/latest.json"))).toBe(true);
  });
});

describe("vsk pull usage errors (exit 2, one line)", () => {
  it.each([
    [
      "an unknown model lists the known ones",
      ["--schema-url", MIRROR, "--model", "modelZ"],
      'vsk: pull: unknown model "modelZ"; known: example/model-a (modelA), example/model-b (modelB), example/model-c (modelC)',
    ],
    [
      // (the example models alone come from the embedded snapshot then: test/cli/init.test.ts)
      "no schema URL for a model of your own says how to set one",
      ["--config", "own.json"],
      'vsk: pull: no schema URL: pass --schema-url URL, set "schemaUrl" in vsk.config.json, or set VSK_SCHEMA_URL',
    ],
    [
      "an unknown flag",
      ["--schema-url", MIRROR, "--frobnicate"],
      'vsk: pull: unknown option "--frobnicate" (see `vsk pull --help`)',
    ],
    [
      "another scheme",
      ["--schema-url", "ftp://mirror.example/x?token=t"],
      'vsk: pull: ftp://mirror.example/x: unsupported scheme "ftp:"',
    ],
  ])("%s", async (_name, args, message) => {
    const { dir } = project();
    writeFileSync(join(dir, "own.json"), JSON.stringify({ models: ["acme/video-a"] }));
    const run = await vsk(args, dir);
    expect(run.code).toBe(2);
    expect(run.stderr.split("\n").filter(Boolean)).toHaveLength(1);
    expect(run.stderr).toContain(message);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it("--help prints the options and exits 0", async () => {
    const run = await vsk(["--help"], project().dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("--schema-url");
    expect(run.stdout).toContain("VSK_API_KEY");
  });
});
