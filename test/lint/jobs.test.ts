/**
 * Issue 25.4 through the installed command (bin/vsk.mjs): `vsk lint --jobs 2` writes what
 * `--jobs 1` writes, byte for byte, in every format and from a file, a .gz file and stdin; a
 * worker thread that stops is one clear line and exit 2, never a hang; a bad `--jobs` is exit 2.
 *
 * The project lints with the package's own validators (dist/generated, the JavaScript build of
 * the committed models) plus a probe endpoint whose validator tells the test, through files,
 * which thread ran it: so the test knows lines were linted on worker threads, and can hold the
 * main thread at a line until a worker has started (no test depends on how fast threads start).
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { CLI, ROOT, tempDir, usageError, vsk, vskInProcess, type Run } from "../cli/run.js";

/** `--jobs`' default on this machine (src/lint/jobs.ts defaultJobs). */
const DEFAULT_JOBS = Math.min(availableParallelism(), 4);

/**
 * The thresholds are lowered for these runs (issue 42.4: src/lint/jobs.ts's test hook): line counts
 * divided by 10 and byte sizes by 64, so that the inputs that cross them are hundreds of kilobytes,
 * not tens of megabytes. Every input below is scaled the same way (`lines(n)`, `bytes(n)`). The
 * batches are not scaled (256 KiB or 4,096 lines): the mixed log still makes several per run.
 */
const SCALE = { lines: 10, bytes: 64 };
const lines = (n: number) => Math.floor(n / SCALE.lines);
const bytes = (n: number) => Math.floor(n / SCALE.bytes);
const SCALED = { VSK_TEST_LINT_JOBS: `${SCALE.lines}/${SCALE.bytes}` };

/** Lines a run lints on the main thread before it starts workers (src/lint/jobs.ts INLINE_LINES). */
const INLINE_LINES = lines(10_000);

/**
 * The probe: valid always; on a worker it leaves a file once that worker has said it is ready;
 * `wait` holds the main thread until then (with PROBE_WAIT=1: the --jobs 2 runs), so the lines
 * after it go to the worker however slowly threads start; `die` ends a worker.
 *
 * A worker says it is ready (src/lint/worker.ts: \`{ ready: true }\` on its parentPort) once it
 * has imported every validator, this one too; the file is written just after that message is
 * posted, so the main thread, let go, takes it at its next turn (within a read or two of 64 KiB).
 * Writing it when the probe was imported (as before) let the main thread go while the worker
 * still loaded the others: the test then needed megabytes after the wait line to outlast that.
 */
const PROBE = `import { isMainThread, parentPort, threadId } from "node:worker_threads";
import { appendFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
const dir = process.env.PROBE_DIR;
if (!isMainThread) {
  const post = parentPort.postMessage.bind(parentPort);
  parentPort.postMessage = (message, transfer) => {
    post(message, transfer);
    if (message !== null && typeof message === "object" && message.ready === true)
      writeFileSync(join(dir, "started-" + threadId), "");
  };
}
export function validate(input) {
  if (input.wait === true && isMainThread && process.env.PROBE_WAIT === "1") {
    const tick = new Int32Array(new SharedArrayBuffer(4));
    for (let i = 0; i < 6000 && !readdirSync(dir).some((f) => f.startsWith("started-")); i++) Atomics.wait(tick, 0, 0, 10);
  }
  if (!isMainThread) appendFileSync(join(dir, "linted-in-worker"), "x");
  if (input.die === true && !isMainThread) process.exit(7);
  return [];
}
`;

let project: string;
let probeDir: string;

/** The mixed log: every kind of line the reader and the validators meet, valid and not. */
function mixedLog(count: number): Buffer {
  const url = (i: number) => `https://cdn.example/img/${i}.png?X-Amz-Signature=abc${i}`;
  const makers: Array<(i: number) => string> = [
    (i) =>
      JSON.stringify({
        model: "modelA",
        endpoint: "keyframes-to-video",
        input: { prompt: `a cat ${i}`, keyframes: [{ image_url: url(i), frame_index: 0 }], duration: 5 },
      }),
    (i) =>
      JSON.stringify({
        model: "modelA",
        endpoint: "keyframes-to-video",
        input: { prompt: `a cat ${i}`, keyframes: [{ image_url: url(i), frame_index: 130 }] },
      }),
    (i) => JSON.stringify({ model: "example/model-a", endpoint: "text-to-video", input: { prompt: `sun ${i}` } }),
    (i) =>
      JSON.stringify({
        model: "example/model-a",
        endpoint: "text-to-video",
        input: { prompt: `sun ${i}`, aspect_ratio: "17:9", duration: 40 },
      }),
    (i) =>
      JSON.stringify({
        model: "modelB",
        endpoint: "reference-to-video",
        input: { prompt: `dance ${i}`, reference_images: [url(i)], duration: 8, seed: i },
      }),
    (i) =>
      JSON.stringify({ model: "modelB", endpoint: "reference-to-video", input: { prompt: "x", file_url: url(i) } }),
    (i) => JSON.stringify({ model: "modelC", endpoint: "text-to-video", input: { prompt: `kite ${i}`, duration: 2 } }),
    (i) => `{"model":"modelC","endpoint":"text-to-video","input":{"prompt":"kite ${i}","seed":12345678901234567890}}`,
    // invalid beside an integer over 2^53: the Linter waits on it (the finding re-checked on the text), and a
    // batch the main thread kept once let the next one in meanwhile (test/lint/batch.test.ts)
    (i) =>
      `{"model":"modelC","endpoint":"text-to-video","input":{"prompt":"kite ${i}","duration":2,"seed":12345678901234567890}}`,
    (i) => `{"model":"modelA","endpoint":"text-to-video","input":{"prompt":"dup ${i}","prompt":"again"}}`,
    (i) => `{"model":"modelA","endpoint":"text-to-video","input":{"prompt":"broken ${i}"`,
    () => "",
    () => "   ",
    (i) => JSON.stringify({ model: "nobody/else", endpoint: "x", input: { i } }),
    (i) => JSON.stringify({ prompt: `bare ${i}` }),
    (i) => `${JSON.stringify({ model: "modelA", endpoint: "text-to-video", input: { prompt: `crlf ${i}` } })}\r`,
    (i) =>
      JSON.stringify({
        model: "modelB",
        endpoint: "reference-to-video",
        input: { prompt: "p".repeat(3000 + (i % 2000)) },
      }),
    (i) => JSON.stringify({ model: "probe", endpoint: "echo", input: { i } }),
  ];
  const parts: Buffer[] = [];
  for (let i = 1; i <= count; i++) {
    if (i === INLINE_LINES + lines(2000))
      parts.push(Buffer.from('{"model":"probe","endpoint":"echo","input":{"wait":true}}\n'));
    else if (i % 997 === 0)
      parts.push(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d, 0x0a])); // not UTF-8
    else parts.push(Buffer.from(makers[(i * 7919) % makers.length]!(i) + "\n"));
  }
  return Buffer.concat(parts);
}

/** `wait`: whether the probe's `wait` line holds the main thread for a worker (by default, where --jobs is over 1). */
function lint(args: string[], input?: Buffer, wait?: boolean): Run {
  // without --jobs, the default: the cores, at most 4 (src/lint/jobs.ts defaultJobs)
  const jobs = args.includes("--jobs") ? args[args.indexOf("--jobs") + 1] : String(DEFAULT_JOBS);
  const env = { ...process.env, ...SCALED, PROBE_DIR: probeDir, PROBE_WAIT: (wait ?? jobs !== "1") ? "1" : "0" };
  const run = spawnSync(process.execPath, [CLI, "lint", "--no-color", ...args], {
    cwd: project,
    env,
    encoding: "utf8",
    maxBuffer: 1 << 30,
    timeout: 120_000,
    ...(input === undefined ? { stdio: ["ignore", "pipe", "pipe"] } : { input }),
  });
  expect(run.stderr).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/);
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** How many probe payloads worker threads linted since the last call. */
function lintedInWorkers(): number {
  const file = join(probeDir, "linted-in-worker");
  const n = existsSync(file) ? readFileSync(file, "utf8").length : 0;
  for (const f of readdirSync(probeDir)) rmSync(join(probeDir, f));
  return n;
}

beforeAll(() => {
  project = tempDir("vsk-lint-jobs-");
  probeDir = join(project, "probe-out");
  mkdirSync(probeDir);
  // the package's own validators, as JavaScript (imported as they are), and the probe
  const generated = join(project, "generated");
  cpSync(join(ROOT, "dist/generated"), generated, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(ROOT, "generated/endpoints.json"), "utf8")) as {
    endpoints: Array<{ key: string; model: string; endpoint: string; validator: string }>;
  };
  for (const e of manifest.endpoints) e.validator = e.validator.replace(/\.mts$/, ".mjs");
  manifest.endpoints.push({ key: "test/probe/echo", model: "test/probe", endpoint: "echo", validator: "probe.mjs" });
  writeFileSync(join(generated, "endpoints.json"), JSON.stringify(manifest));
  writeFileSync(join(generated, "probe.mjs"), PROBE);
  writeFileSync(
    join(project, "vsk.config.json"),
    JSON.stringify({
      models: [
        { id: "example/model-a", alias: "modelA" },
        { id: "example/model-b", alias: "modelB" },
        { id: "example/model-c", alias: "modelC" },
        { id: "test/probe", alias: "probe" },
      ],
    }),
  );
  const log = mixedLog(INLINE_LINES + lines(12_000));
  writeFileSync(join(project, "requests.ndjson"), log);
  writeFileSync(join(project, "again.ndjson.gz"), gzipSync(log));
  writeFileSync(join(project, "one.json"), '{"model":"modelA","endpoint":"text-to-video","input":{"prompt":7}}\n');
});

describe("lint --jobs", () => {
  it.each([
    // workers render these two formats themselves (LintFormat.render)...
    ["json", []],
    ["pretty", ["--show-valid"]],
    ["json", ["--errors-only", "--summary"]],
    ["pretty", ["--summary-only"]],
    // ...and send results back for the formats that count across them
    ["github", []],
    ["markdown", []],
  ])(
    "--jobs 2 writes what --jobs 1 writes, byte for byte (--format %s %j)",
    (format, extra) => {
      const args = ["requests.ndjson", "one.json", "again.ndjson.gz", "--format", format, "--max-line-bytes", "4000"];
      const one = lint([...args, ...extra, "--jobs", "1"]);
      expect(lintedInWorkers(), "--jobs 1 starts no worker").toBe(0);
      const two = lint([...args, ...extra, "--jobs", "2"]);
      expect(lintedInWorkers(), "--jobs 2 linted lines on worker threads").toBeGreaterThan(0);
      expect(one.code).toBe(1);
      expect(two.stderr).toBe(one.stderr);
      expect(two.code).toBe(one.code);
      expect(two.stdout).toBe(one.stdout);
      if (format === "json") {
        const report = JSON.parse(one.stdout) as { summary: { requests: number; invalid: number; warnings: number } };
        expect(report.summary.invalid).toBeGreaterThan(lines(1000));
        expect(report.summary.warnings).toBeGreaterThan(lines(100));
        expect(one.stdout).toContain('"rule":"lint/invalid-json"');
        expect(one.stdout).toContain('"rule":"lint/invalid-utf8"');
        expect(one.stdout).toContain('"rule":"lint/line-too-long"');
        expect(one.stdout).toContain('"source":"again.ndjson.gz"');
      }
    },
    240_000,
  );

  it("without --jobs, the default (the cores, at most 4) takes workers only where they pay: over 64 MiB", () => {
    const MiB = bytes(1024 * 1024);
    // a log and its gzip under 64 MiB: one thread (their probe line waits for no worker)
    expect(statSync(join(project, "requests.ndjson")).size).toBeLessThan(64 * MiB);
    for (const file of ["requests.ndjson", "again.ndjson.gz"]) {
      const small = lint([file, "--format", "json"], undefined, false);
      expect(small.code).toBe(1);
      expect(lintedInWorkers(), file).toBe(0);
      expect(small.stdout).toBe(lint([file, "--format", "json", "--jobs", "1"]).stdout);
    }
    // over 64 MiB left past the first lines (gzipped: its trailer says so): workers, with two cores or more
    const padded = `{"model":"modelA","endpoint":"text-to-video","input":{"prompt":"${"calm ".repeat(160)}"}}\n`;
    const probe = '{"model":"probe","endpoint":"echo","input":{}}\n';
    // the probe's wait line holds this thread until a worker has started (the input is too small to outlast a slow start)
    const wait = '{"model":"probe","endpoint":"echo","input":{"wait":true}}\n';
    // just over 64 MiB (scaled) left once the first lines are read, whatever the 64 KiB reads
    // (src/lint/inputs.ts) have read ahead of them: no more than the threshold needs
    const needed = 64 * MiB + 2 * 64 * 1024;
    const pairs = Math.ceil(needed / (padded + probe).length) + 1;
    const large = Buffer.from(padded.repeat(INLINE_LINES) + wait + (padded + probe).repeat(pairs));
    expect(large.length - INLINE_LINES * padded.length).toBeGreaterThan(needed);
    writeFileSync(join(project, "large.ndjson"), large);
    writeFileSync(join(project, "large.ndjson.gz"), gzipSync(large));
    for (const file of ["large.ndjson", "large.ndjson.gz"]) {
      const run = lint([file, "--format", "json", "--summary-only"], undefined, DEFAULT_JOBS > 1);
      expect(run.code).toBe(0);
      expect(lintedInWorkers() > 0, file).toBe(DEFAULT_JOBS > 1);
      expect(run.stdout).toBe(lint([file, "--format", "json", "--summary-only", "--jobs", "1"]).stdout);
    }
  }, 240_000);

  it("--jobs 2 on piped NDJSON writes what --jobs 1 writes", () => {
    // then 2.5 MiB of cheap lines (valid probe payloads padded with spaces): reading a pipe, node
    // may take up to 2 MiB before the main thread sees the worker's ready message (libuv reads a
    // pipe up to 32 times a turn), and the lines after that are the ones that go to the worker
    const padded = `{"model":"probe","endpoint":"echo","input":{}}${" ".repeat(4000)}\n`;
    const log = Buffer.concat([readFileSync(join(project, "requests.ndjson")), Buffer.from(padded.repeat(640))]);
    const one = lint(["-", "--format", "json", "--jobs", "1"], log);
    const two = lint(["-", "--format", "json", "--jobs", "2"], log);
    expect(lintedInWorkers(), two.stderr).toBeGreaterThan(0);
    expect({ code: two.code, stderr: two.stderr }).toEqual({ code: one.code, stderr: one.stderr });
    expect(two.stdout).toBe(one.stdout);
  }, 240_000);

  it("--errors-only: the report's first result may come from a worker, and the JSON is the same", () => {
    // more than INLINE_LINES valid payloads (over 8 MiB, so that workers start), then findings
    const valid = `{"model":"modelA","endpoint":"text-to-video","input":{"prompt":"${"calm ".repeat(160)}"}}\n`;
    const log = [
      valid.repeat(INLINE_LINES + lines(2000)),
      '{"model":"probe","endpoint":"echo","input":{"wait":true}}\n',
    ];
    const probe = `{"model":"probe","endpoint":"echo","input":{"pad":"${"x".repeat(800)}"}}\n`; // valid, and counted on a worker
    for (let i = 0; i < lines(15_000); i++)
      log.push(i % 3 === 0 ? '{"model":"modelA","endpoint":"text-to-video","input":{}}\n' : probe);
    writeFileSync(join(project, "valid-first.ndjson"), log.join(""));
    const args = ["valid-first.ndjson", "--format", "json", "--errors-only"];
    const one = lint([...args, "--jobs", "1"]);
    const two = lint([...args, "--jobs", "2"]);
    expect(lintedInWorkers()).toBeGreaterThan(0);
    expect({ code: two.code, stderr: two.stderr }).toEqual({ code: one.code, stderr: one.stderr });
    expect(two.stdout).toBe(one.stdout);
    const report = JSON.parse(two.stdout) as { results: Array<{ line: number }>; summary: { invalid: number } };
    expect(report.results[0]!.line).toBe(INLINE_LINES + lines(2000) + 2);
    expect(report.results).toHaveLength(report.summary.invalid);
    expect(report.summary.invalid).toBe(Math.ceil(lines(15_000) / 3));
  }, 240_000);

  it("a worker thread that stops is one clear line and exit 2, not a hang", () => {
    const log = [readFileSync(join(project, "requests.ndjson"), "utf8")];
    // a worker dies on the first of these it lints; the main thread lints some batches itself (it
    // keeps up to 8 while the worker is busy), so there are enough for several batches
    // (batches are not scaled: 40,000 lines are ten of them whatever SCALE says)
    for (let i = 0; i < 40_000; i++) log.push('{"model":"probe","endpoint":"echo","input":{"die":true}}\n');
    writeFileSync(join(project, "dies.ndjson"), log.join(""));
    const run = lint(["dies.ndjson", "--format", "json", "--jobs", "2"]);
    lintedInWorkers();
    expect(run.code).toBe(2);
    expect(run.stderr.trimEnd().split("\n")).toEqual([
      "vsk: lint: --jobs 2: a worker thread stopped (exit code 7); the results before it were written: run again, or with --jobs 1 to lint on one thread",
    ]);
    // on one thread the probe never stops anything
    expect(lint(["dies.ndjson", "--format", "json", "--jobs", "1"]).code).toBe(1);
  }, 240_000);

  it("--jobs=0 is a usage error (exit 2) from the installed command", () => {
    const line = usageError(vsk(["lint", "one.json", "--jobs=0"], project));
    expect(line).toBe('vsk: lint: --jobs must be a whole number from 1 to 64, not "0" (see `vsk lint --help`)');
  });

  // the same check in process (the spawn is tested above)
  it.each(["0", "-1", "abc", "1.5", "65", ""])("--jobs %j is a usage error (exit 2)", async (value) => {
    const line = usageError(await vskInProcess(["lint", "one.json", `--jobs=${value}`], project));
    expect(line).toBe(
      `vsk: lint: --jobs must be a whole number from 1 to 64, not ${JSON.stringify(value)} (see \`vsk lint --help\`)`,
    );
  });

  it("--jobs -1 (a value like an option) is a usage error that says how to write it", async () => {
    const line = usageError(await vskInProcess(["lint", "one.json", "--jobs", "-1"], project));
    expect(line).toBe(
      "vsk: lint: --jobs is followed by an option, not its value (a value starting with - is written --jobs=VALUE) (see `vsk lint --help`)",
    );
  });

  it("a small input starts no worker thread, whatever --jobs says", () => {
    const run = lint(["one.json", "--format", "json", "--jobs", "8"]);
    expect(run.code).toBe(1);
    // past the line threshold, but a plain file with less than 8 MiB left: not worth a thread either
    writeFileSync(
      join(project, "small.ndjson"),
      '{"model":"probe","endpoint":"echo","input":{}}\n'.repeat(INLINE_LINES + lines(2000)),
    );
    expect(lint(["small.ndjson", "--jobs", "8"]).code).toBe(0);
    expect(existsSync(probeDir) && readdirSync(probeDir)).toEqual([]);
  }, 60_000);

  it("workers warmed for a large file (src/lint/jobs.ts warmLintWorkers) end with a run that stops before linting: its one error, exit 2", () => {
    // large enough for a typed --jobs: its workers start loading before the project is read
    expect(statSync(join(project, "requests.ndjson")).size).toBeGreaterThanOrEqual(bytes(8 * 1024 * 1024));
    const run = lint(["requests.ndjson", "--model", "no-such-model", "--jobs", "3"]);
    expect(usageError(run)).toMatch(/no-such-model/);
    // never given a setup, no warm worker imported a validator or said it was ready
    expect(readdirSync(probeDir)).toEqual([]);
  }, 60_000);
});
