/**
 * `vsk explain`, run as a user runs it: the built CLI (`node dist/cli/vsk.js explain …`) in a
 * child process, on fixture files under test/fixtures/runtime/. The text output of each fixture is
 * compared with the file snapshot `<fixture>.expected.txt` beside it (`npx vitest -u` rewrites them
 * after a deliberate change; review the diff).
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { explain, explainText, explanationJson, readHttpText, renderText } from "../../src/explain/index.js";
import { vskInProcess } from "../cli/run.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const cli = join(root, "dist/cli/vsk.js");
const fixtures = "test/fixtures/runtime";

/**
 * `vsk explain ARGS`: a real child process where the run reads stdin or `spawn` is set (one per
 * behaviour: text, JSON, stdin, a bad input, --help), else the same program in this process
 * (test/cli/run.ts's vskInProcess: the spawn is not what those cases test; issue 42.4).
 */
async function vsk(
  args: string[],
  options: { stdin?: string; spawn?: boolean } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  if (options.stdin === undefined && options.spawn !== true) return vskInProcess(["explain", ...args], root);
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\` first (npm test does)`);
  const run = spawnSync(process.execPath, [cli, "explain", ...args], {
    cwd: root,
    encoding: "utf8",
    input: options.stdin ?? "",
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

async function explainJson(
  args: string[],
  options: { stdin?: string; spawn?: boolean } = {},
): Promise<Record<string, any>> {
  const run = await vsk([...args, "--format", "json"], options);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as Record<string, any>;
}

describe("vsk explain: text output matches the expected file beside each fixture", () => {
  const golden: [string, string[]][] = [
    ["prediction-failed-fetch-403", []],
    ["prediction-failed-fetch-503", []],
    ["prediction-failed-no-error", []],
    ["prediction-failed-no-retryable", []],
    ["prediction-failed-plain-text", []],
    ["prediction-failed-timeout", []],
    ["prediction-failed-unknown-code", []],
    ["prediction-succeeded-empty-error", []],
    ["queue-update-failed", []],
    ["queue-update-in-progress", []],
    ["webhook-succeeded", []],
    ["webhook-succeeded-null-error", []],
    ["webhook-succeeded-null-error.as-webhook", ["--as", "webhook"]],
    ["result-prediction-failed", []],
    ["result-raw-prediction-failed", []],
    ["webhook-succeeded-request-id", []],
    ["queue-update-null-error-position", []],
    ["result-generic-400", []],
    ["result-edge-502", []],
    ["result-edge-empty", []],
    ["result-output", []],
    ["not-an-object", []],
  ];
  it.each(golden)("%s", async (name, extra) => {
    const input = `${fixtures}/${name.replace(/\.as-webhook$/, "")}.json`;
    const expectedFile = join(root, fixtures, `${name}.expected.txt`);
    const run = await vsk([input, ...extra], { spawn: name === golden[0]![0] });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    await expect(run.stdout).toMatchFileSnapshot(expectedFile);
  });
});

describe("vsk explain: what a person needs to see", () => {
  const cases: [string, string, RegExp[]][] = [
    [
      "a rejected fetch: no retry, check the URL",
      "prediction-failed-fetch-403",
      [
        /^Failed:/m,
        /retry\s+no: the service sent retryable: false/,
        /publicly reachable.*presigned link has not expired/,
      ],
    ],
    [
      "a momentary fetch failure: retry",
      "prediction-failed-fetch-503",
      [/retry\s+yes: the service sent retryable: true/, /again later/],
    ],
    [
      "an unknown code: read as internal_server_error, raw kept",
      "prediction-failed-unknown-code",
      [
        /code\s+internal_server_error \(sent "provider_quota_exhausted"/,
        /reason\s+\(unknown: sent "quota_window_closed"/,
      ],
    ],
    ["a generic 400: not a prediction failure", "result-generic-400", [/^Not a prediction failure/m, /spec 3 rule 4/]],
    ["an edge 502: not from the service", "result-edge-502", [/^Not from the service/m, /spec 7\.3/]],
    [
      "a failed prediction from the result endpoint, two timestamps",
      "result-prediction-failed",
      [/failed at\s+2026-09-04T12:00:00Z/, /responded\s+2026-09-04T12:05:31Z/],
    ],
  ];
  it.each(cases)("%s", async (_name, fixture, patterns) => {
    const run = await vsk([`${fixtures}/${fixture}.json`]);
    expect(run.code).toBe(0);
    for (const pattern of patterns) expect(run.stdout).toMatch(pattern);
  });

  it("never prints a URL's query string", async () => {
    for (const fixture of ["prediction-failed-fetch-403", "result-edge-502", "result-output"]) {
      for (const format of ["text", "json"]) {
        const run = await vsk([`${fixtures}/${fixture}.json`, "--format", format]);
        expect(run.stdout).not.toMatch(/X-Amz|token=|Signature=/);
      }
    }
  });
});

describe("vsk explain --format json: one object for machines", () => {
  it("a failed prediction: the PredictionError, retry decision and action", async () => {
    const out = await explainJson([`${fixtures}/prediction-failed-fetch-403.json`], { spawn: true });
    expect(out).toMatchObject({
      input: "prediction",
      status: "failed",
      failed: true,
      error: {
        code: "invalid_input",
        rawCode: "invalid_input",
        reason: "input_fetch_failed",
        retryable: false,
        retryableSource: "explicit",
        message: "Could not fetch reference_images[0] https://media.example.com/refs/cat.png: HTTP 403",
        timestamp: "2026-09-02T10:15:00Z",
      },
      retry: false,
    });
    expect(out.action).toMatch(/presigned link/);
  });

  it("the same failure from the result endpoint and from the status record gives the same error (spec 7.3)", async () => {
    const fromResult = await explainJson([`${fixtures}/result-prediction-failed.json`]);
    const fromStatus = await explainJson([`${fixtures}/prediction-failed-timeout.json`]);
    expect(fromResult).toMatchObject({
      input: "result_response",
      resultKind: "prediction_failed",
      httpStatus: 400,
      responseTimestamp: "2026-09-04T12:05:31Z",
    });
    expect(fromResult.error).toEqual(fromStatus.error);
    expect([fromResult.retry, fromResult.action]).toEqual([fromStatus.retry, fromStatus.action]);
  });

  const kinds: [string, Record<string, unknown>][] = [
    ["queue-update-failed", { input: "queue_update", failed: true, requestId: "req_01J9ZK", retry: true }],
    [
      "queue-update-in-progress",
      { input: "queue_update", status: "IN_PROGRESS", failed: false, error: null, retry: null },
    ],
    ["prediction-succeeded-empty-error", { input: "prediction", status: "succeeded", failed: false, error: null }],
    ["prediction-failed-no-error", { failed: true, error: { code: "unknown_error_code", rawCode: "" } }],
    ["webhook-succeeded", { input: "webhook", failed: false, error: null, notes: [] }],
    [
      "result-generic-400",
      { resultKind: "api_error", httpStatus: 400, failed: false, apiError: { code: "BAD_REQUEST" } },
    ],
    ["result-edge-empty", { resultKind: "edge_error", httpStatus: 0, failed: false, bodyExcerpt: "" }],
    ["result-output", { resultKind: "output", httpStatus: 200, failed: false }],
  ];
  it.each(kinds)("%s", async (fixture, want) => {
    expect(await explainJson([`${fixtures}/${fixture}.json`])).toMatchObject(want);
  });

  it("reads standard input with - and with no FILE", async () => {
    const record = JSON.stringify({
      status: "failed",
      error: { code: "unsafe_content", reason: "moderation_blocked", message: "blocked", timestamp: "t" },
    });
    for (const args of [["-"], []]) {
      const out = await explainJson(args, { stdin: record });
      expect(out).toMatchObject({
        source: "stdin",
        failed: true,
        error: { reason: "moderation_blocked" },
        retry: false,
        action: "Change the prompt or media.",
      });
    }
  });

  it("--as overrides detection", async () => {
    const out = await explainJson([`${fixtures}/webhook-succeeded-null-error.json`, "--as", "webhook"]);
    expect(out).toMatchObject({ input: "webhook", detectedBy: "--as" });
    expect(out.notes.join(" ")).toMatch(/6\.2/);
  });
});

describe("vsk explain: bad input is a one-line message and exit 2, never a stack trace", () => {
  const cases: [string, string[], string | undefined, RegExp][] = [
    [
      "a missing file",
      [`${fixtures}/does-not-exist.json`],
      undefined,
      /^vsk: explain: cannot read test\/fixtures\/runtime\/does-not-exist\.json: no such file\n$/,
    ],
    [
      "invalid JSON: file, line and column",
      [`${fixtures}/invalid.json`],
      undefined,
      /^vsk: explain: test\/fixtures\/runtime\/invalid\.json:3:39: not valid JSON: .*property name\n$/,
    ],
    [
      "invalid JSON on stdin",
      ["-"],
      '{\n  "status": failed\n}',
      /^vsk: explain: stdin:2:13: not valid JSON: unexpected "f", expected a value\n$/,
    ],
    ["an empty stdin", ["-"], "", /^vsk: explain: stdin is empty; expected one JSON value\n$/],
    [
      "trailing text after the JSON",
      ["-"],
      '{"status":"failed"} {}',
      /^vsk: explain: stdin:1:21: not valid JSON: unexpected text after the JSON value\n$/,
    ],
    [
      "an unknown --format",
      [`${fixtures}/result-output.json`, "--format", "xml"],
      undefined,
      /^vsk: explain: --format must be one of text, json, not "xml" \(see `vsk explain --help`\)\n$/,
    ],
    [
      "an unknown flag",
      ["--bogus"],
      undefined,
      /^vsk: explain: unknown option "--bogus" \(see `vsk explain --help`\)$/m,
    ],
    ["two files", ["a.json", "b.json"], undefined, /^vsk: explain: unexpected argument "b\.json"/],
    ["a directory", [fixtures], undefined, /^vsk: explain: cannot read test\/fixtures\/runtime: it is a directory\n$/],
  ];
  it.each(cases)("%s", async (_name, args, stdin, message) => {
    // the stdin cases and the first run as child processes; a missing file decides nothing else
    const run = await vsk(args, stdin === undefined ? { spawn: args === cases[0]![1] } : { stdin });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(message);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it("--help prints usage and exits 0", async () => {
    const run = await vsk(["--help"], { spawn: true });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/vsk explain \[FILE\|-\] \[--format text\|json\]/);
  });
});

describe("vsk explain: bodies from in front of the service, not JSON (spec 7.3, issue 42.3)", () => {
  const edgeText = "502 Bad Gateway: upstream closed the connection";
  const fields = (e: Record<string, unknown>) => ({
    input: e.input,
    resultKind: e.resultKind,
    failed: e.failed,
    httpStatus: e.httpStatus,
  });

  it("a raw plain-text body: the same resultKind, failed and httpStatus as the body wrapped with its status", async () => {
    const raw = await explainJson(["-"], { stdin: edgeText });
    const wrapped = explain({ status: 502, headers: {}, body: edgeText }, "stdin", undefined);
    expect(fields(raw)).toEqual(fields(wrapped as unknown as Record<string, unknown>));
    expect(fields(raw)).toEqual({ input: "result_response", resultKind: "edge_error", failed: false, httpStatus: 502 });
    expect(raw.summary).toMatch(/^Not from the service: HTTP 502 .*in front of the service/);
    expect(raw.action).toMatch(/^Ask again with backoff/);
    expect(raw.bodyExcerpt).toBe(edgeText);
  });

  it("`curl -i` output (HTTP/2 status line, headers, an HTML body): its status, where it came from, what to do", async () => {
    const saved =
      "HTTP/2 502 \r\ncontent-type: text/html\r\nserver: cloudflare\r\n\r\n" +
      "<html><head><title>502 Bad Gateway</title></head><body>Retry https://edge.example.net/r?token=secret123</body></html>\r\n";
    const run = await vsk(["-"], { stdin: saved });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^stdin: read as a result endpoint response \(HTTP 502\), because it is an HTTP response as `curl -i` prints it \(HTTP\/2 502, 2 headers\)/,
    );
    expect(run.stdout).toMatch(/^Not from the service: HTTP 502 .*came from in front of the service/m);
    expect(run.stdout).toMatch(/what to do\s+Ask again with backoff/);
    expect(run.stdout).not.toContain("secret123");
  });

  it("in process: HTTP/1.1 after a 100 Continue, a service error behind curl -i, a body with no status", () => {
    const text =
      "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\n\r\nupstream overloaded";
    expect(readHttpText(text)).toMatchObject({
      status: 503,
      statusLine: "HTTP/1.1 503 Service Unavailable",
      body: "upstream overloaded",
    });
    expect(fields(explainText(text, "f") as unknown as Record<string, unknown>)).toEqual({
      input: "result_response",
      resultKind: "edge_error",
      failed: false,
      httpStatus: 503,
    });
    const failed = explainText(
      'HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\n\r\n{"error":{"code":"PREDICTION_FAILED","message":"m","details":{"code":"task_timeout","message":"m","retryable":true,"timestamp":"t"}}}',
      "f",
    );
    expect(failed).toMatchObject({ resultKind: "prediction_failed", failed: true, httpStatus: 400, retry: true });
    const unknown = explainText("upstream connect error or disconnect/reset before headers", "f");
    expect(unknown).toMatchObject({ resultKind: "edge_error", failed: false });
    expect(unknown.httpStatus).toBeUndefined();
    expect(unknown.summary).toMatch(/^Not from the service: a response body with no HTTP status saved/);
  });

  it("never shows a key a 401 body echoes (issue S1): text and JSON, a raw body and a service error", () => {
    const echoes = [
      explainText(
        "HTTP/1.1 401 Unauthorized\r\ncontent-type: text/plain\r\n\r\nbad credentials: Key sk-live-0123456789abcdef\n",
        "f",
      ),
      explain(
        { status: 401, headers: {}, body: { detail: "Invalid Authorization: Key 0f3c9a1e:a9b8c7d6e5f4" } },
        "f",
        undefined,
      ),
      explain(
        {
          status: 401,
          body: {
            error: { code: "unauthorized", message: "bad key Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln" },
          },
        },
        "f",
        undefined,
      ),
    ];
    for (const e of echoes) {
      const out = renderText(e) + explanationJson(e);
      for (const secret of ["0123456789abcdef", "a9b8c7d6e5f4", "eyJzdWIiOiIxIn0"]) expect(out).not.toContain(secret);
      expect(out).toContain("<redacted>");
    }
  });
});
