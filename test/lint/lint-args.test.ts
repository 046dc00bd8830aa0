/**
 * `vsk lint`'s command line read without yargs (issue 40.4: lint's cold start does not load the
 * bundled yargs for an everyday command line): whatever the plain reader accepts, it reads as yargs
 * does, and what it leaves alone (help, short flags, unknown options, `--`, odd values) still goes
 * to yargs. In process, against the same yargs parser the CLI uses.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { plainLintArgs, yargsLintArgs } from "../../src/cli/lint.js";

const WORDS = [
  "file.json",
  "log.ndjson",
  "-",
  "a=b.json",
  "5",
  "true",
  "false",
  "--model",
  "--model=modelA",
  "modelA",
  "--endpoint",
  "keyframes-to-video",
  "--format",
  "--format=json",
  "json",
  "--summary",
  "--summary-only",
  "--no-summary",
  "--errors-only",
  "--no-color",
  "--color",
  "--jobs",
  "2",
  "--max-warnings",
  "0",
  "--preflight",
  "--preflight-allow-host",
  "--preflight-allow-host=127.0.0.1:8080",
  "h.example",
  "--max-line-bytes=1024",
  "--config",
  "vsk.config.json",
  "--ndjson",
  "--show-valid",
  "--allow-empty",
  "--",
  "-x",
  "--chek",
  "--no-model",
  "--summary=1",
  "--model=",
  "--jobs=-1",
];

describe("lint's plain command line (no yargs)", () => {
  it("reads an everyday command line as yargs does", async () => {
    const argv = ["file.json", "--model", "modelA", "--endpoint", "keyframes-to-video", "--format=json"];
    const plain = plainLintArgs(argv);
    expect(plain).toEqual({
      values: { model: "modelA", endpoint: "keyframes-to-video", format: "json" },
      positionals: ["file.json"],
    });
    expect(await yargsLintArgs(argv)).toEqual(plain);
  });

  it("leaves help, short flags, unknown options, `--` and odd values to yargs", () => {
    for (const argv of [
      ["--help"],
      ["-h"],
      ["x.json", "-x"],
      ["--chek"],
      ["--", "x.json"],
      ["--summary", "true"],
      ["--model="],
      ["--summary=1"],
    ])
      expect(plainLintArgs(argv), argv.join(" ")).toBeUndefined();
  });

  it("agrees with yargs on every command line it accepts (seeded)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...WORDS), { maxLength: 8 }), async (argv) => {
        const plain = plainLintArgs(argv);
        if (plain === undefined || argv.includes("--help") || argv.includes("-h")) return;
        // values compared as the CLI reads them, whatever the order yargs set them in
        expect(await yargsLintArgs(argv)).toEqual(plain);
      }),
      { numRuns: 300 },
    );
  });
});
