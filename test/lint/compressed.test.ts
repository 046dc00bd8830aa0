/**
 * Issue 25.1 through the installed command (bin/vsk.mjs): gzip input recognised by its bytes
 * (files of any name, directories, globs, stdin), brotli by its `.br` name, decompressed as a
 * stream; locations name the compressed file; the line cap applies to decompressed lines; a
 * truncated or corrupt stream is a clear error after what was read before it was reported.
 */
import { spawn, spawnSync } from "node:child_process";
import { appendFileSync, createWriteStream, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { pipeline } from "node:stream/promises";
import { brotliCompressSync, createGzip, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const VSK = join(ROOT, "bin/vsk.mjs");
const CLI = join(ROOT, "dist/cli/vsk.js");
const OK = '{"model":"modelA","endpoint":"text-to-video","input":{"prompt":"a cat"}}\n';
const BAD = '{"model":"modelA","endpoint":"text-to-video","input":{"prompt":1}}\n';
const LOG = OK + BAD + OK;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "vsk-lint-compressed-"));
  mkdirSync(join(dir, "logs"));
  writeFileSync(join(dir, "logs/requests.ndjson.gz"), gzipSync(LOG));
  writeFileSync(join(dir, "logs/more.jsonl.br"), brotliCompressSync(BAD));
  writeFileSync(join(dir, "logs/one.json.gz"), gzipSync(BAD));
  // gzip under a plain name: recognised by its bytes, not its extension
  writeFileSync(join(dir, "renamed.ndjson"), gzipSync(LOG));
  const whole = gzipSync(LOG);
  writeFileSync(join(dir, "truncated.ndjson.gz"), whole.subarray(0, whole.length - 4));
  const corrupt = Buffer.from(whole);
  corrupt[2] = 7; // an unknown compression method
  writeFileSync(join(dir, "corrupt.ndjson.gz"), corrupt);
  writeFileSync(join(dir, "long.ndjson.gz"), gzipSync(OK + `{"prompt":"${"x".repeat(5000)}"}\n` + BAD));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function lint(args: string[], input?: Buffer) {
  const run = spawnSync(process.execPath, [VSK, "lint", "--no-color", ...args], {
    cwd: dir,
    encoding: "utf8",
    ...(input === undefined ? { stdio: ["ignore", "pipe", "pipe"] } : { input }),
  });
  expect(run.stderr).not.toMatch(/^\s+at /m);
  return { code: run.status, stdout: run.stdout, stderr: run.stderr.replace(/^vsk: no vsk\.config\.json.*\n/m, "") };
}

describe("compressed input", () => {
  it("a .ndjson.gz file is read line by line, its findings located as requests.ndjson.gz:LINE", () => {
    const run = lint(["logs/requests.ndjson.gz"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("logs/requests.ndjson.gz:2  /input/prompt");
    expect(run.stdout).toContain("3 requests: 2 valid, 1 invalid, 0 warnings");
  });

  it("directories and globs pick up .ndjson.gz, .jsonl.br and .json.gz files", () => {
    const run = lint(["logs", "--format", "json"]);
    expect(run.stderr).toBe("");
    const report = JSON.parse(run.stdout) as { results: Array<{ source: string; line: number; valid: boolean }> };
    expect(report.results.map((r) => [r.source, r.line, r.valid])).toEqual([
      ["logs/more.jsonl.br", 1, false],
      ["logs/one.json.gz", 1, false],
      ["logs/requests.ndjson.gz", 1, true],
      ["logs/requests.ndjson.gz", 2, false],
      ["logs/requests.ndjson.gz", 3, true],
    ]);
    expect(JSON.parse(lint(["logs/*.gz", "--format", "json"]).stdout).summary.requests).toBe(4);
  });

  it("gzip is recognised by its bytes: under a plain name, and on stdin", () => {
    expect(lint(["renamed.ndjson"]).stdout).toContain("renamed.ndjson:2  /input/prompt");
    const piped = lint(["-", "--ndjson"], gzipSync(LOG));
    expect(piped.code).toBe(1);
    expect(piped.stdout).toContain("<stdin>:2  /input/prompt");
    expect(lint(["-"], gzipSync(BAD)).stdout).toContain("<stdin>:1:64  /input/prompt");
  });

  it("a truncated stream is an error naming the file, after the requests read before it were reported", () => {
    const run = lint(["truncated.ndjson.gz", "--format", "json"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "vsk: truncated.ndjson.gz: the compressed stream ends early (truncated) (Z_BUF_ERROR); the requests read before it are reported\n",
    );
    expect(JSON.parse(run.stdout).summary).toMatchObject({ requests: 3, invalid: 1 });
  });

  it("bytes after the last complete gzip member: every line of every member linted, one warning naming the offset (issue 38.4)", () => {
    // 2,000 lines, the last one invalid, then junk: node's Gunzip lost the last ~100 lines
    const lines = Array.from({ length: 1999 }, (_, i) => OK.replace("a cat", `a cat ${i}`)).join("") + BAD;
    const member = gzipSync(lines);
    writeFileSync(join(dir, "tail.ndjson.gz"), Buffer.concat([member, Buffer.from("junk bytes\n")]));
    const one = gzipSync(BAD);
    writeFileSync(join(dir, "one-tail.ndjson.gz"), Buffer.concat([one, Buffer.from([0x1f])]));
    // concatenated members (as `cat a.gz b.gz` makes) keep working, with a tail after them too
    const members = Buffer.concat([gzipSync(OK), gzipSync(BAD), gzipSync(OK), Buffer.alloc(3)]);
    writeFileSync(join(dir, "members.ndjson.gz"), members);
    const run = lint(["tail.ndjson.gz", "one-tail.ndjson.gz", "members.ndjson.gz", "--format", "json"]);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as { results: Array<{ source: string; line: number; valid: boolean }> };
    const of = (source: string) => report.results.filter((r) => r.source === source);
    expect(of("tail.ndjson.gz")).toHaveLength(2000);
    expect(of("tail.ndjson.gz").at(-1)).toMatchObject({ line: 2000, valid: false });
    expect(of("one-tail.ndjson.gz").map((r) => [r.line, r.valid])).toEqual([[1, false]]);
    expect(of("members.ndjson.gz").map((r) => [r.line, r.valid])).toEqual([
      [1, true],
      [2, false],
      [3, true],
    ]);
    expect(run.stderr).toBe(
      [
        `vsk: warning: tail.ndjson.gz: 11 bytes after the last complete gzip member, from byte offset ${member.length}, are not gzip data and were ignored; every line of the member before them was linted`,
        `vsk: warning: one-tail.ndjson.gz: 1 byte after the last complete gzip member, from byte offset ${one.length}, are not gzip data and were ignored; every line of the member before them was linted`,
        `vsk: warning: members.ndjson.gz: 3 bytes after the last complete gzip member, from byte offset ${members.length - 3}, are not gzip data and were ignored; every line of the 3 members before them was linted`,
        "",
      ].join("\n"),
    );
  });

  it("a corrupt stream is an error naming the file, never a stack trace", () => {
    const run = lint(["corrupt.ndjson.gz"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^vsk: corrupt\.ndjson\.gz: the compressed stream is corrupt \(Z_DATA_ERROR\)/m);
  });

  it("the line cap applies to the decompressed lines", () => {
    const run = lint(["long.ndjson.gz", "--max-line-bytes", "1000", "--format", "json"]);
    const report = JSON.parse(run.stdout) as { results: Array<{ line: number; diagnostics: Array<{ rule: string }> }> };
    expect(report.results.map((r) => [r.line, r.diagnostics.map((d) => d.rule)])).toEqual([
      [1, []],
      [2, ["lint/line-too-long"]],
      [3, ["schema/type"]],
    ]);
  });

  it("a gzip bomb is bounded: a 200 MB line from under 1 MB of gzip leaves peak memory far below its size", async () => {
    // written as a stream, so this process's own peak (which a spawned child inherits in its maxRSS) stays small
    const chunk = Buffer.alloc(1 << 20, "a");
    await pipeline(
      async function* () {
        yield '{"prompt":"';
        for (let i = 0; i < 200; i++) yield chunk;
        yield '"}\n';
      },
      createGzip({ level: 1 }),
      createWriteStream(join(dir, "bomb.ndjson.gz")),
    );
    appendFileSync(join(dir, "bomb.ndjson.gz"), gzipSync(OK));
    // the CLI's own main() in a child node, which reports its peak RSS once done
    const driver = `const { main } = await import(${JSON.stringify(pathToFileURL(CLI).href)});
      const fs = await import("node:fs");
      // VmHWM: this address space's own peak (maxRSS is inherited from the test process across fork and exec)
      const peak = () => { try { return Number(/VmHWM:\\s*(\\d+)/.exec(fs.readFileSync("/proc/self/status", "utf8"))[1]); } catch { return process.resourceUsage().maxRSS; } };
      process.on("exit", () => process.stderr.write("maxRSS=" + peak() + "\\n"));
      process.exitCode = await main(["lint", "bomb.ndjson.gz", "--format", "json"]);`;
    const child = spawn(process.execPath, ["--input-type=module", "-e", driver], { cwd: dir, stdio: "pipe" });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    expect(await new Promise<number | null>((done) => child.on("close", done))).toBe(1);
    const report = JSON.parse(stdout) as { results: Array<{ line: number; diagnostics: Array<{ rule: string }> }> };
    // concatenated gzip members read as one stream: the bomb's line is refused, the next line linted
    expect(report.results.map((r) => [r.line, r.diagnostics.map((d) => d.rule)])).toEqual([
      [1, ["lint/line-too-long"]],
      [2, []],
    ]);
    expect(Number(/maxRSS=(\d+)/.exec(stderr)![1]) / 1024).toBeLessThan(150); // the line alone is 200 MB
  });
});
