/**
 * Issue 26: `vsk lint --preflight`, run as a user runs it (bin/vsk.mjs in a child process) against
 * a real HTTP server on 127.0.0.1 serving the committed fixtures (test/fixtures/preflight). Every
 * format shows the findings; a presigned-style link's signature appears in none of them.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, tempDir, usageError, vskAsync } from "../cli/run.js";
import { startMediaServer, type MediaServer } from "./media-server.js";

const SIGNATURE = "SIGSECRET0123";
const validateReport = new Ajv2020({ allErrors: true, strict: true }).compile(
  JSON.parse(readFileSync(join(ROOT, "schemas/lint-report.schema.json"), "utf8")) as object,
);

let server: MediaServer;
let dir: string;
beforeAll(async () => {
  server = await startMediaServer();
  dir = tempDir("vsk-preflight-");
  const url = (path: string) => `${server.origin}${path}`;
  const payloads = [
    {
      model: "example/model-a",
      endpoint: "keyframes-to-video",
      input: {
        prompt: "a cat",
        keyframes: [
          { image_url: url("/media/image.png"), frame_index: 0 },
          { image_url: url("/media/image.gif"), frame_index: 24 },
        ],
      },
    },
    {
      model: "example/model-b",
      endpoint: "reference-to-video",
      input: {
        prompt: "a cat",
        reference_videos: [url("/media/video-24fps.mp4"), url("/media/video-12fps.mp4")],
        reference_images: [url(`/status/403?X-Amz-Credential=AKIDEXAMPLE&X-Amz-Signature=${SIGNATURE}`)],
      },
    },
  ];
  writeFileSync(join(dir, "requests.ndjson"), payloads.map((p) => JSON.stringify(p)).join("\n") + "\n");
});
afterAll(() => server.close());

const lint = (...args: string[]) => vskAsync(["lint", ...args, "requests.ndjson"], dir);

const EXPECTED = [
  "/input/keyframes/1/image_url image-format",
  "/input/reference_images/0 input-fetch-failed",
  "/input/reference_videos/1 video-frame-rate",
];

describe("vsk lint --preflight", () => {
  it("without --preflight sends nothing at all", async () => {
    const run = await lint("--format", "json");
    expect(run.code).toBe(0);
    expect(server.requests).toHaveLength(0);
  });

  it("reports 127.0.0.1 without --preflight-allow-host, and sends it nothing", async () => {
    const run = await lint("--preflight", "--format", "json");
    expect(run.code).toBe(1);
    expect(server.requests).toHaveLength(0);
    const report = JSON.parse(run.stdout) as { results: Array<{ diagnostics: Array<Record<string, unknown>> }> };
    const ds = report.results.flatMap((r) => r.diagnostics);
    expect(ds).toHaveLength(5); // every URL of both payloads
    for (const d of ds)
      expect(d).toMatchObject({ rule: "input-fetch-failed", reason: "input_fetch_failed", retryable: false });
    expect(String(ds[0]!.message)).toContain("is a loopback address");
    expect(String(ds[0]!.message)).toContain(`--preflight-allow-host ${server.host}`);
    expect(run.stdout + run.stderr).not.toContain(SIGNATURE);
  });

  it("with the host allowed: a GIF, a 12 fps video and an expired link, in every format, no signature anywhere", async () => {
    const allow = ["--preflight", "--preflight-allow-host", server.host];
    const json = await lint(...allow, "--format", "json");
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as {
      results: Array<{ diagnostics: Array<{ pointer: string; rule: string; [k: string]: unknown }> }>;
    };
    expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
    const ds = report.results.flatMap((r) => r.diagnostics);
    expect(ds.map((d) => `${d.pointer} ${d.rule}`).sort()).toEqual(EXPECTED);
    const expired = ds.find((d) => d.rule === "input-fetch-failed")!;
    expect(expired).toMatchObject({
      severity: "error",
      code: "invalid_input",
      reason: "input_fetch_failed",
      retryable: false,
      message: `reference_images[0]: ${server.origin}/status/403: the service will fail this prediction with input_fetch_failed: HTTP 403 Forbidden; a presigned link may have expired, or the file is private`,
    });
    // the signature was sent to the media host (a presigned link needs it), and nowhere else
    expect(server.requests.find((r) => r.path === "/status/403")!.target).toContain(SIGNATURE);
    for (const r of server.requests) expect(r.headers.authorization).toBeUndefined();
    // each distinct URL once per run
    expect(server.hits("/status/403")).toBe(1);

    for (const format of ["pretty", "github"]) {
      const run = await lint(...allow, "--format", format);
      expect(run.code, run.stderr).toBe(1);
      for (const [, rule] of EXPECTED.map((e) => e.split(" "))) expect(run.stdout).toContain(rule);
      expect(run.stdout).toContain("HTTP 403 Forbidden; a presigned link may have expired");
      expect(run.stdout + run.stderr).not.toContain(SIGNATURE);
      expect(run.stdout + run.stderr).not.toContain("AKIDEXAMPLE");
    }
    expect(json.stdout + json.stderr).not.toContain(SIGNATURE);
    // not a terminal: no progress line
    expect(json.stderr).not.toContain("preflight:");
  });

  it("refuses preflight flags without --preflight, and bad values, with a usage error", async () => {
    expect(usageError(await lint("--preflight-allow-host", server.host))).toContain(
      "--preflight-allow-host needs --preflight",
    );
    expect(usageError(await lint("--preflight", "--preflight-timeout", "soon"))).toContain(
      "--preflight-timeout must be a number of seconds",
    );
    expect(usageError(await lint("--preflight", "--preflight-concurrency", "0"))).toContain(
      "--preflight-concurrency must be a whole number from 1 to 256",
    );
  });
});

describe("the progress line", () => {
  // a terminal on stderr (util-linux `script` gives the command a pseudo-terminal); the run lasts
  // at least --preflight-timeout (a route that never answers), so the progress line is due
  it.runIf(existsSync("/usr/bin/script"))("is shown on a terminal during a long run, and erased", async () => {
    writeFileSync(
      join(dir, "slow.json"),
      JSON.stringify({
        model: "example/model-b",
        endpoint: "reference-to-video",
        input: { prompt: "a cat", reference_images: [`${server.origin}/never`] },
      }),
    );
    const command = [
      process.execPath,
      join(ROOT, "bin/vsk.mjs"),
      "lint",
      "--preflight",
      "--preflight-allow-host",
      server.host,
      "--preflight-timeout",
      "2",
      "slow.json",
    ]
      .map((a) => `'${a}'`)
      .join(" ");
    const { code, output } = await new Promise<{ code: number | null; output: string }>((done) => {
      const child = spawn("/usr/bin/script", ["-qec", command, "/dev/null"], {
        cwd: dir,
        env: { ...process.env, CI: "" }, // CI set: never a progress line (issue 25.5)
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout.on("data", (c) => (output += c));
      child.stderr.on("data", (c) => (output += c));
      child.on("close", (c) => done({ code: c, output }));
    });
    expect(code, output).toBe(1);
    expect(output).toMatch(/vsk: preflight: 1 file, 1 request, 0 B read; lint: 138 B of 138 B/);
    expect(output).toContain("\r\u001b[2K");
    expect(output).toContain("no complete answer (headers and body) within 2 s (a timeout)");
  });
});
