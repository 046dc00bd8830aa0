/**
 * Issue 37 item 1: no referenced file can crash, stall or exhaust the process that checks it.
 * The crafted files (test/fixtures/preflight/crafted, made by scripts/make-crafted-media.mjs) as
 * `data:` URIs (no network): through the library (`createPreflight`, `preflight()`), the real
 * CLI (`vsk lint --preflight`) and the mock (`vsk mock --fetch-inputs`). Every kind of parser
 * failure (a loop, a full heap, memory outside it, a throw, an exit, an abort) is provoked in
 * the parser process itself (VSK_TEST_PARSER_FAULTS, src/preflight/sandbox-child.ts).
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints, type EndpointTypeMap } from "../../generated/index.mjs";
import { createQueueClient } from "../../src/client/index.js";
import { createPreflight, preflight, type PreflightDiagnostic } from "../../src/index.js";
import { SANDBOX_LIMITS } from "../../src/preflight/sandbox.js";
import { CLI, ROOT, tempDir, vskAsync } from "../cli/run.js";
import { FIXTURES } from "./media-server.js";

const CRAFTED = join(FIXTURES, "crafted");
const MODEL_B = "example/model-b/reference-to-video";
const MIME: Record<string, string> = {
  mp4: "video/mp4",
  png: "image/png",
  jpg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
};
const dataUri = (path: string) =>
  `data:${MIME[path.split(".").pop()!] ?? "application/octet-stream"};base64,${readFileSync(path).toString("base64")}`;
const crafted = (name: string) => dataUri(join(CRAFTED, name));
const text = (s: string) => `data:text/plain;base64,${Buffer.from(s).toString("base64")}`;

// set before the parser process first starts (it is started with the first file read)
process.env.VSK_TEST_PARSER_FAULTS = "1";
const limits = { ...SANDBOX_LIMITS };
beforeAll(() => {
  // smaller than the defaults, so that a fault costs this test little
  Object.assign(SANDBOX_LIMITS, { parseMs: 1_000, heapMb: 96, rssMb: 192 });
});
afterAll(() => {
  Object.assign(SANDBOX_LIMITS, limits);
});

const messages = (ds: readonly PreflightDiagnostic[]) => ds.map((d) => `${d.pointer} ${d.rule}: ${d.message}`);

describe("crafted MP4s", () => {
  const WHAT: Record<string, string> = {
    "stsz-count.mp4": "its stsz box declares 2147483648 samples; the preflight reads at most 262144 in a file",
    "stsz-table.mp4": "its stsz box declares 2147483648 samples; the preflight reads at most 262144 in a file",
    "stts-count.mp4": "its stts box lists 2147483648 entries of 8 bytes in 8 bytes",
    "stsc-count.mp4": "its stsc box lists 2147483648 entries of 12 bytes in 12 bytes",
    "stco-count.mp4": "its stco box lists 2147483648 entries of 4 bytes in 4 bytes",
    "co64-count.mp4": "its co64 box lists 2147483648 entries of 8 bytes in 8 bytes",
    "elst-count.mp4": "its elst box lists 2147483648 entries of 12 bytes in 12 bytes",
    "deep-nesting.mp4": "its boxes nest more than 32 deep, more than the preflight reads",
    "box-size-zero.mp4": "its stss box in stbl says it is 0 bytes",
    "box-size-small.mp4": "its stss box says it is 4 bytes, less than its header",
    "box-size-over.mp4": "its stss box says it is 1073741824 bytes, more than the 12 left in its stbl box",
  };

  it("each is a warning that says what is wrong with it; the valid movie they bend is read (4 s, 24 fps)", async () => {
    const names = readdirSync(CRAFTED).filter((n) => n.endsWith(".mp4"));
    expect(names.sort()).toEqual([...Object.keys(WHAT), "tiny.mp4", "box-size-64.mp4"].sort());
    const run = createPreflight();
    try {
      for (const name of names) {
        const ds = await run.check(MODEL_B, { reference_videos: [crafted(name)] });
        if (WHAT[name] === undefined) {
          // tiny.mp4, and a top-level box of 2^62 bytes after the moov: read
          expect(ds, name).toEqual([]);
          continue;
        }
        expect(messages(ds), name).toEqual([
          `/reference_videos/0 media-unreadable: reference_videos[0]: a data: URI (video/mp4, ${crafted(name).length} characters) is an MP4 video; the preflight could not read its duration and frame rate (${WHAT[name]}), so the spec's limits on it were not checked`,
        ]);
        expect(ds[0]!.severity).toBe("warning");
      }
      // as images: formats are named, the 100000×100000 headers cost nothing
      const images = await run.check(MODEL_B, {
        reference_images: ["png", "jpg", "webp", "gif"].map((ext) => crafted(`image-huge.${ext}`)),
      });
      expect(images.map((d) => `${d.pointer} ${d.rule} ${String(d.received)}`)).toEqual([
        "/reference_images/3 image-format gif",
      ]);
    } finally {
      await run.close();
    }
  });
});

describe("a parser failure of any kind is that file's diagnostic", () => {
  it("many files waiting on one run's deadline: no listener warning on stderr", async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    process.on("warning", onWarning);
    try {
      const images = Array.from({ length: 24 }, (_, i) => `${crafted("image-huge.png")}#${i}`);
      expect(await preflight(MODEL_B, { reference_images: images })).toEqual([]);
      await new Promise((done) => setImmediate(done));
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings).toEqual([]);
  });

  it("a loop, a full heap, memory outside the heap: each URL says which; the files after it are read", async () => {
    // (an exit, a throw outside a step and an abort end the process as the full heap does: the
    // same path, so not each started again here, which costs a start of the process each)
    const started = performance.now();
    const looped = await preflight(MODEL_B, {
      reference_videos: [text("vsk-fault:loop"), crafted("tiny.mp4")],
      reference_images: [crafted("image-huge.png")],
    });
    // the loop costs its limit, and the files after it are read in a new parser process
    expect(performance.now() - started).toBeLessThan(15_000);
    const why = (d: PreflightDiagnostic) =>
      /\(([^()]*(?:\([^()]*\)[^()]*)*)\), so the spec's limits/.exec(d.message)?.[1];
    expect(looped.map((d) => `${d.pointer} ${d.rule}`)).toEqual(["/reference_videos/0 media-unreadable"]);
    expect(why(looped[0]!)).toBe("parsing it took longer than 1 s, the preflight's limit per file");
    // The heap and the memory faults each end on their own bound, long before this time limit (the
    // memory fault stops at 2 GiB and loops): on a
    // loaded machine the parser may take more than 1 s of wall time to fill 192 MiB, and the memory
    // watch, not the clock, is what this case shows.
    Object.assign(SANDBOX_LIMITS, { parseMs: 20_000 });
    let filled: PreflightDiagnostic[];
    try {
      filled = await preflight(MODEL_B, {
        reference_videos: [text("vsk-fault:heap"), text("vsk-fault:memory"), crafted("tiny.mp4")],
      });
    } finally {
      Object.assign(SANDBOX_LIMITS, { parseMs: 1_000 });
    }
    expect(filled.map((d) => `${d.pointer} ${d.rule}`)).toEqual([
      "/reference_videos/0 media-unreadable",
      "/reference_videos/1 media-unreadable",
    ]);
    // a heap filling fast meets whichever bound comes first: V8's heap limit or (Linux) the resident-memory watch
    expect(why(filled[0]!)).toMatch(
      /^(parsing it stopped the parser process \(SIG\w+: out of memory, over the 96 MiB heap, or a crash\)|parsing it needed more than 192 MiB of memory, the preflight's limit per file)$/,
    );
    // Linux watches the resident memory; elsewhere the process runs out of it
    if (process.platform === "linux")
      expect(why(filled[1]!)).toBe("parsing it needed more than 192 MiB of memory, the preflight's limit per file");
    for (const d of [...looped, ...filled]) expect(d.message).toContain("is a file the preflight could not parse;");
  }, 90_000);

  it("the run's deadline gives up a parse that is running, and one that waits behind it", async () => {
    const started = performance.now();
    const ds = await preflight(
      MODEL_B,
      { reference_videos: [text("vsk-fault:loop"), crafted("tiny.mp4")] },
      { deadlineMs: 300 },
    );
    expect(performance.now() - started).toBeLessThan(1_900);
    expect(ds.map((d) => d.message)).toEqual([
      expect.stringContaining("(the preflight's overall deadline passed before it was parsed)"),
      expect.stringContaining("(the preflight's overall deadline passed before it was parsed)"),
    ]);
  });
});

describe("through the CLI and the mock", () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir("vsk-hostile-");
    const payloads = [
      {
        model: "example/model-b",
        endpoint: "reference-to-video",
        input: { prompt: "a", reference_videos: [crafted("stsz-count.mp4")] },
      },
      {
        model: "example/model-b",
        endpoint: "reference-to-video",
        input: { prompt: "b", reference_images: [crafted("image-huge.gif")] },
      },
    ];
    writeFileSync(join(dir, "requests.ndjson"), payloads.map((p) => JSON.stringify(p)).join("\n") + "\n");
  });

  it("vsk lint --preflight: the crafted MP4 is a warning, and the next payload's result is printed", async () => {
    const run = await vskAsync(["lint", "--preflight", "--format", "json", "requests.ndjson"], dir);
    expect(run.stderr).not.toMatch(/Fatal|FATAL|at \w+ \(/);
    expect(run.code, run.stderr).toBe(1);
    const report = JSON.parse(run.stdout) as {
      results: Array<{ diagnostics: Array<{ rule: string; message: string }> }>;
    };
    expect(report.results.map((r) => r.diagnostics.map((d) => d.rule))).toEqual([
      ["media-unreadable"],
      ["image-format"],
    ]);
    expect(report.results[0]!.diagnostics[0]!.message).toContain("(its stsz box declares 2147483648 samples;");
  });

  it("vsk mock --fetch-inputs: a submit that references the crafted MP4 is answered, and so is the next", async () => {
    const key = "sk_test_hostile";
    const child = spawn(
      process.execPath,
      [CLI, "mock", "--port", "0", "--key", key, "--queue-ms", "0", "--run-ms", "0", "--fetch-inputs"],
      { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stderr.on("data", (c) => (stderr += c));
    let exited: number | null | undefined;
    child.on("exit", (code) => (exited = code));
    try {
      const url = await new Promise<string>((ready, fail) => {
        child.on("exit", (code) => fail(new Error(`vsk mock exited ${code}: ${stderr}`)));
        child.stdout.on("data", (c) => {
          stdout += c;
          const found = /listening on (\S+)/.exec(stdout);
          if (found !== null) ready(found[1]!);
        });
      });
      const client = createQueueClient<EndpointTypeMap>({
        baseUrl: url,
        credentials: key,
        endpoints,
        pollIntervalMs: 5,
      });
      const first = await client.subscribe(MODEL_B, {
        input: { prompt: "a", reference_videos: [crafted("stsz-count.mp4")] },
      });
      expect(first).toBeDefined();
      const second = await client.subscribe(MODEL_B, {
        input: { prompt: "b", reference_videos: [crafted("tiny.mp4")] },
      });
      expect(second).toBeDefined();
      expect(exited).toBeUndefined();
      expect(stderr).not.toMatch(/Fatal|FATAL/);
    } finally {
      child.kill("SIGTERM");
    }
  });
});
