/**
 * Issue 25.5 through the installed command (bin/vsk.mjs): a long run shows one progress line on a
 * terminal's stderr (bytes read, of the total when known, requests, requests/s), rewritten in
 * place and erased at the end; never on a pipe, never with CI set. The terminal is a real pty from
 * script(1); runs are kept long by inputs the test holds open (a FIFO the test writes, a preflight
 * request its own server on 127.0.0.1 holds), so that nothing depends on a timing.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const VSK = join(ROOT, "bin/vsk.mjs");
const HAS_SCRIPT = spawnSync("script", ["--version"], { stdio: "ignore" }).status === 0;
const ERASE = "\r\u001b[2K";
const LINE = '{"model":"modelA","endpoint":"text-to-video","input":{"prompt":1}}\n';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "vsk-lint-progress-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const base = { ...process.env };
  for (const k of ["CI", "NO_COLOR", "FORCE_COLOR", "GITHUB_STEP_SUMMARY", "TERM"]) delete base[k];
  return { ...base, TERM: "xterm", ...extra };
}

interface Started {
  child: ChildProcess;
  /** stderr (the terminal's output, under script) so far */
  output: () => string;
  /** resolves with the exit code, once the output has ended */
  done: Promise<number | null>;
  /** resolves when the output matches */
  seen: (pattern: RegExp) => Promise<void>;
}

function started(child: ChildProcess, stream: NodeJS.ReadableStream): Started {
  let output = "";
  const waiting: Array<{ pattern: RegExp; resolve: () => void }> = [];
  stream.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
    for (const w of waiting.splice(0))
      if (w.pattern.test(output)) w.resolve();
      else waiting.push(w);
  });
  const done = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return {
    child,
    output: () => output,
    done,
    seen: (pattern) =>
      new Promise((resolve) => (pattern.test(output) ? resolve() : waiting.push({ pattern, resolve }))),
  };
}

/** `vsk lint ARGS > stdoutFile` with stderr on a terminal (a pty of script(1)): what the terminal shows. */
function onTerminal(args: string[], stdoutFile: string, extra: Record<string, string> = {}): Started {
  const quoted = [process.execPath, VSK, "lint", ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
  const child = spawn("script", ["-qfec", `stty cols 200; ${quoted} > '${stdoutFile}'`, "/dev/null"], {
    cwd: dir,
    env: env(extra),
    stdio: ["ignore", "pipe", "pipe"],
  });
  return started(child, child.stdout!);
}

/** `vsk lint ARGS` with stdout and stderr pipes. */
function onPipes(args: string[]): Started {
  const child = spawn(process.execPath, [VSK, "lint", ...args], {
    cwd: dir,
    env: env(),
    stdio: ["ignore", "pipe", "pipe"],
  });
  return started(child, child.stderr!);
}

/** A FIFO the run reads as an NDJSON file: it lasts until the test closes it. */
function fifo(name: string) {
  expect(spawnSync("mkfifo", [join(dir, name)]).status).toBe(0);
  const writer = createWriteStream(join(dir, name));
  return writer;
}

const FRAME = /\r\u001b\[2Kvsk: lint: [\d.]+ (B|KiB) read, \d+ requests?, \d+ requests\/s/g;

describe.skipIf(!HAS_SCRIPT)("lint's progress line", () => {
  it("on a terminal: rewritten in place each second, erased at the end; never on a pipe, never with CI set", async () => {
    const writers = ["ci.ndjson", "pipe.ndjson", "tty.ndjson"].map(fifo);
    // the runs that must stay silent start first, so they run at least as long as the one that shows it
    const ci = onTerminal(["ci.ndjson", "--format", "json"], join(dir, "ci.json"), { CI: "1" });
    const pipe = onPipes(["pipe.ndjson", "--format", "json"]);
    const tty = onTerminal(["tty.ndjson", "--format", "json"], join(dir, "tty.json"));
    for (const w of writers) w.write(LINE.repeat(50));
    // two frames: the line is rewritten in place, and the other runs have lived through more than a second too
    await tty.seen(/vsk: lint: [^\r]*\r\u001b\[2Kvsk: lint: /);
    for (const w of writers) w.end(LINE);
    expect(await Promise.all([ci.done, pipe.done, tty.done])).toEqual([1, 1, 1]); // every line is invalid

    const shown = tty.output();
    const frames = shown.match(FRAME) ?? [];
    expect(frames.length).toBeGreaterThanOrEqual(2);
    expect(shown).not.toMatch(/vsk: lint: [^\r\n]*\n/); // never a line of its own
    // erased at the end: after the last frame the line is cleared before anything else is written
    const last = shown.lastIndexOf("vsk: lint: ");
    expect(shown.indexOf(ERASE, last)).toBeGreaterThan(last);
    expect(
      shown
        .slice(last)
        .replace(/^vsk: lint: [^\r]*/, "")
        .startsWith(ERASE),
    ).toBe(true);
    // stdout is untouched: the whole report
    expect((JSON.parse(readFileSync(join(dir, "tty.json"), "utf8")) as { results: unknown[] }).results).toHaveLength(
      51,
    );

    for (const silent of [ci.output(), pipe.output()]) {
      expect(silent).not.toContain("vsk: lint:");
      expect(silent).not.toContain("\u001b[2K");
    }
    expect((JSON.parse(readFileSync(join(dir, "ci.json"), "utf8")) as { results: unknown[] }).results).toHaveLength(51);
  });

  it("on a terminal that also shows stdout: the line is erased before the results are written", async () => {
    const writer = fifo("both.ndjson");
    const run = onTerminal(["both.ndjson", "--summary"], "/dev/tty");
    writer.write(LINE.repeat(5));
    await run.seen(/vsk: lint: [^\r]*\r\u001b\[2Kvsk: lint: /);
    // results enough to be written while the line is shown (the output is written in 64 KiB pieces)
    writer.end(LINE.repeat(1000));
    expect(await run.done).toBe(1);
    const shown = run.output();
    expect(shown).toContain("1005 requests: 0 valid, 1005 invalid, 0 warnings");
    expect(shown).toContain("  findings  requests   share  rule");
    // every frame is ended by its erasure, never by output written after it on the same line
    const frames = shown.match(/vsk: lint: [^\r]*/g)!;
    expect(shown.match(/vsk: lint: [^\r]*\r\u001b\[2K/g)).toHaveLength(frames.length);
  });

  it("with a known total: bytes read of the inputs' size, next to the preflight's part (first: it is cut to the terminal's width)", async () => {
    let answering = false;
    const held: ServerResponse[] = [];
    const server: Server = createServer((_req, res) => {
      if (answering) res.writeHead(404).end("no");
      else held.push(res);
    });
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    const { port } = server.address() as AddressInfo;
    try {
      const payload = {
        model: "modelA",
        endpoint: "keyframes-to-video",
        input: { prompt: "p", keyframes: [{ image_url: `http://127.0.0.1:${port}/held.png`, frame_index: 0 }] },
      };
      const text = JSON.stringify(payload) + "\n";
      writeFileSync(join(dir, "known.ndjson"), text);
      const run = onTerminal(
        ["known.ndjson", "--preflight", "--preflight-allow-host", `127.0.0.1:${port}`, "--format", "json"],
        join(dir, "known.json"),
      );
      // the request is held until the line has been drawn: the run cannot end before
      await run.seen(/vsk: preflight: .*; lint: /);
      answering = true;
      for (const res of held.splice(0)) res.writeHead(404).end("no");
      expect(await run.done).toBe(1);
      const frame = run.output().match(/vsk: preflight: [^\r]*/)![0];
      expect(frame).toMatch(
        new RegExp(
          `^vsk: preflight: \\d+ files?, \\d+ requests?, 0 B read; lint: ${text.length} B of ${text.length} B \\(100%\\), 0 requests, 0 requests/s$`,
        ),
      );
      const report = JSON.parse(readFileSync(join(dir, "known.json"), "utf8")) as {
        results: Array<{ diagnostics: Array<{ rule: string }> }>;
      };
      expect(report.results[0]!.diagnostics.map((d) => d.rule)).toContain("input-fetch-failed");
    } finally {
      for (const res of held) res.destroy();
      await new Promise((ok) => server.close(ok));
    }
  });
});
