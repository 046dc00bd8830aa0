/**
 * Hostile data in every output format: payload keys, file names, schema property names and
 * messages written to attack the terminal (ESC/OSC/CSI, C1, bidi overrides), a GitHub runner
 * (a line break followed by `::error …::`) or a Markdown viewer (tables, links, HTML). Run as a
 * user runs it: the built CLI in a child process (lint, explain), and `vsk drift` against a real
 * HTTP source on 127.0.0.1 serving a schema with the hostile property name.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  githubData,
  githubProperty,
  htmlText,
  jsonText,
  markdownCode,
  markdownText,
  terminalText,
} from "../../src/escape/index.js";
import { ctx, edit, report, serve, useDriftWorkspace, vsk as drift } from "../drift/harness.js";

const ROOT = join(import.meta.dirname, "../..");
const CLI = join(ROOT, "dist/cli/vsk.js");

/** A name that tries everything at once. */
const HOSTILE =
  "k\n::error file=x.json,line=1::forged\r\u001b]8;;https://evil.example/\u0007link\u001b]8;;\u0007" +
  "\u001b[2J\u009b31m\u007f\u202edesrever\u2066 [click](https://evil.example) ![i](https://evil.example/i.png) " +
  "<img src=x onerror=alert(1)> | `tick` www.evil.example @team #1";

/** Raw characters a terminal or log viewer would act on (line feed aside, which each check handles). */
const ACTIVE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** Output is inert: no active character, and no line of it is a workflow command we did not write. */
function expectInert(text: string, ours: RegExp = /^::(error|warning|notice) (file|title)=/): void {
  expect(text).not.toMatch(ACTIVE);
  for (const line of text.split("\n")) if (line.startsWith("::")) expect(line).toMatch(ours);
  expect(text).not.toMatch(/^::error file=x\.json/m);
}

/** Markdown with its code spans (CommonMark: a run of N backticks up to the next run of exactly N) removed. */
function outsideCodeSpans(md: string): string {
  let out = "";
  let i = 0;
  while (i < md.length) {
    const open = /`+/g;
    open.lastIndex = i;
    const m = open.exec(md);
    if (m === null) break;
    out += md.slice(i, m.index);
    const close = new RegExp(`(?<!\`)${m[0]}(?!\`)`, "g");
    close.lastIndex = m.index + m[0].length;
    const end = close.exec(md);
    if (end === null) {
      out += m[0];
      i = m.index + m[0].length;
    } else i = end.index + m[0].length;
  }
  return out + md.slice(i);
}

/** Markdown is inert: no raw HTML, no link or image syntax, no table row with more cells than its header. */
function expectInertMarkdown(md: string, cells: number): void {
  expectInert(md);
  const outsideCode = outsideCodeSpans(md);
  expect(outsideCode).toContain("forged"); // the name is also shown as text, escaped
  expect(outsideCode).not.toContain("<img");
  expect(outsideCode).not.toMatch(/(?<!\\)[[\]]/); // a bracket outside an escape starts a link or image
  // a bare URL outside a code span would be autolinked by GitHub
  expect(outsideCode).not.toMatch(/https?:\/\//);
  expect(outsideCode).not.toMatch(/(?<!\\)@team/);
  for (const line of md.split("\n").filter((l) => l.startsWith("| ") && l.includes("forged")))
    expect(line.split(/(?<!\\)\|/).length - 2).toBe(cells);
}

describe("the escaping functions (src/escape)", () => {
  it.each([
    ["ESC and CSI", "a\u001b[2Jb", "a\\u001b[2Jb"],
    ["line breaks and tab", "a\nb\rc\td", "a\\nb\\rc\\td"],
    ["DEL and C1", "a\u007fb\u009bc", "a\\u007fb\\u009bc"],
    ["bidi overrides and isolates", "\u202aa\u202eb\u2066c\u2069", "\\u202aa\\u202eb\\u2066c\\u2069"],
    ["line separator", "a\u2028b", "a\\u2028b"],
    // issue S2: invisible characters, which made "16:9\u200b" print as "16:9"
    ["zero-width space, non-joiner, joiner", "16:9\u200b\u200c\u200d", "16:9\\u200b\\u200c\\u200d"],
    ["word joiner and invisible operators", "a\u2060b\u2064", "a\\u2060b\\u2064"],
    ["BOM, soft hyphen, Mongolian vowel separator", "\ufeffa\u00adb\u180e", "\\ufeffa\\u00adb\\u180e"],
    ["plain text, accents and CJK", "prompt: café 视频", "prompt: café 视频"],
  ])("terminalText: %s", (_name, given, want) => {
    expect(terminalText(given)).toBe(want);
  });

  it("an enum value with an invisible character shows it in every text format (issue S2)", () => {
    const message = 'ratio: "16:9\u200b" is not one of "16:9"; did you mean "16:9"?';
    for (const out of [terminalText(message), githubData(message), markdownText(message)]) {
      expect(out).toMatch(/16:9\\+u200b/); // Markdown escapes the backslash too
      expect(out).not.toContain("\u200b");
    }
    expect(JSON.parse(jsonText(JSON.stringify(message)))).toBe(message);
    expect(jsonText(JSON.stringify(message))).toContain("\\u200b");
  });

  it("githubData and githubProperty use GitHub's own escaping", () => {
    expect(githubData("50%\r\nnext")).toBe("50%25%0D%0Anext");
    expect(githubData("a\u001bb")).toBe("a\\u001bb");
    expect(githubProperty("a:b,c%\n")).toBe("a%3Ab%2Cc%25%0A");
  });

  it("markdownText leaves no markup, HTML or link; markdownCode survives backticks and pipes", () => {
    expect(markdownText("[x](https://e.example) <b>&|`")).toBe("\\[x\\](https\\://e.example) &lt;b&gt;&amp;\\|\\`");
    expect(markdownText("www.evil.example")).toBe("www\\.evil.example");
    expect(markdownCode("/a|b")).toBe("`/a\\|b`");
    expect(markdownCode("a `b` c")).toBe("``a `b` c``");
    expect(markdownCode("`x")).toBe("`` `x ``");
    expect(markdownCode("a|b", false)).toBe("`a|b`");
    expect(htmlText(`<a href="x">'`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;");
  });

  it("jsonText escapes C1, DEL and bidi characters and parses to the same value", () => {
    const value = { [HOSTILE]: HOSTILE };
    const text = jsonText(JSON.stringify(value));
    expect(text).not.toMatch(ACTIVE);
    expect(JSON.parse(text)).toEqual(value);
  });
});

function run(args: string[], cwd: string, env: Record<string, string> = {}, input?: string) {
  const base = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !k.startsWith("VSK_") && k !== "GITHUB_STEP_SUMMARY" && k !== "NO_COLOR",
    ),
  );
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    env: { ...base, ...env },
    encoding: "utf8",
    stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    ...(input === undefined ? {} : { input }),
  });
  expect(r.stderr).not.toMatch(/^\s+at /m);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("vsk lint: a hostile payload key and file name", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "vsk-hostile-lint-"));
    mkdirSync(join(dir, "in"));
    const payload = { model: "modelA", endpoint: "text-to-video", input: { prompt: "hi", [HOSTILE]: 1 } };
    writeFileSync(join(dir, "in", "payload.json"), JSON.stringify(payload));
    // a file name may hold a line break and ESC on Linux
    writeFileSync(join(dir, "in", "bad\n::error file=x.json::forged\u001b[2J\u202e.json"), "{");
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("pretty: every data part is shown escaped, on its own line, and colour codes are ours only", () => {
    const r = run(["lint", "in"], dir);
    expect(r.code).toBe(1);
    expectInert(r.stdout);
    expect(r.stdout).toContain("bad\\n::error file=x.json::forged\\u001b[2J\\u202e.json:1");
    expect(r.stdout).toContain(
      "/input/k\\n::error file=x.json,line=1::forged\\r\\u001b]8;;https:~1~1evil.example~1\\u0007link",
    );
    // FORCE_COLOR is not a TTY: still no colour; on a TTY only our SGR codes would appear, never the data's
    expect(r.stdout).not.toContain("\u001b");
  });

  it("github: one annotation per diagnostic, escaped the way GitHub reads them, and a safe step summary", () => {
    const summary = join(dir, "summary.md");
    const r = run(["lint", "in", "--format", "github"], dir, { GITHUB_STEP_SUMMARY: summary });
    expect(r.code).toBe(1);
    expectInert(r.stdout);
    const annotations = r.stdout.split("\n").filter((l) => l.startsWith("::"));
    expect(annotations).toHaveLength(2); // the file's invalid JSON, the hostile key's unknown-field warning
    expect(annotations[0]).toMatch(
      /^::error file=in\/bad\\n%3A%3Aerror file=x\.json%3A%3Aforged\\u001b\[2J\\u202e\.json,line=1,/,
    );
    const md = readFileSync(summary, "utf8");
    expectInertMarkdown(md, 4);
  });

  it("json: C1 and bidi characters escaped too; parsed, the key is exactly the payload's", () => {
    const r = run(["lint", "in", "--format", "json"], dir);
    expect(r.stdout).not.toMatch(ACTIVE);
    const parsed = JSON.parse(r.stdout) as { results: { source: string; diagnostics: { pointer: string }[] }[] };
    const pointers = parsed.results.flatMap((x) => x.diagnostics.map((d) => d.pointer));
    expect(pointers).toContain("/input/" + HOSTILE.replace(/~/g, "~0").replace(/\//g, "~1"));
    expect(parsed.results.map((x) => x.source)).toContain(
      join("in", "bad\n::error file=x.json::forged\u001b[2J\u202e.json"),
    );
  });
});

describe("vsk explain: a hostile error message and file name", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "vsk-hostile-explain-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const record = {
    status: "failed",
    error: { code: HOSTILE, message: `fetch failed: ${HOSTILE}`, reason: "input_fetch_failed" },
  };

  it("text: every line is ours; the data is shown escaped", () => {
    const file = join(dir, "rec\n::error::forged\u001b[2J.json");
    writeFileSync(file, JSON.stringify(record));
    const r = run(["explain", file], dir);
    expect(r.code).toBe(0);
    expectInert(r.stdout, /^$/);
    expect(r.stdout).toContain("rec\\n::error::forged\\u001b[2J.json: read as a prediction record");
    expect(r.stdout).toContain("::forged\\r\\u001b]8;;https://evil.example/\\u0007link");
  });

  it("json: parses to the same strings, with no raw C1 or bidi character", () => {
    const r = run(["explain", "-", "--format", "json"], dir, {}, JSON.stringify(record));
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(ACTIVE);
    expect((JSON.parse(r.stdout) as { error: { rawCode: string } }).error.rawCode).toBe(HOSTILE);
  });

  it("a file that cannot be read is named escaped in the one-line error", () => {
    const r = run(["explain", join(dir, "missing\n::error::forged\u001b[2J.json")], dir);
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(r.stderr).not.toMatch(ACTIVE);
  });
});

describe("vsk drift: a hostile schema property name at the source", () => {
  useDriftWorkspace();
  const serveHostile = (): void =>
    serve(
      "example/model-a",
      edit("example/model-a", (d) => {
        d.components.schemas.TextToVideoInput.properties[HOSTILE] = { type: "string", description: HOSTILE };
      }),
    );

  it.each([
    ["text", [] as string[]],
    ["github", ["--format", "github"]],
  ])("%s: inert, the name shown escaped", async (_name, args) => {
    serveHostile();
    const r = await drift([...args, "--fail-on", "any"], ctx.dir);
    expect(r.code).toBe(1);
    expectInert(r.stdout);
    expect(r.stdout).toContain("forged");
    expect(r.stdout).toContain("\\u001b]8;;");
  });

  it("markdown: no markup, HTML or live link from the name", async () => {
    serveHostile();
    const r = await drift(["--format", "markdown"], ctx.dir);
    expectInertMarkdown(r.stdout, 5);
    expect(r.stdout).toContain("forged");
  });

  it("github: the step summary is the same inert Markdown", async () => {
    serveHostile();
    const summary = join(ctx.dir, "summary.md");
    const r = await drift(["--format", "github"], ctx.dir, { GITHUB_STEP_SUMMARY: summary });
    expect(r.code).toBe(0);
    expectInertMarkdown(readFileSync(summary, "utf8"), 5);
  });

  it("json: parses to the exact name, with no raw C1 or bidi character", async () => {
    serveHostile();
    const r = await drift(["--format", "json"], ctx.dir);
    expect(r.stdout).not.toMatch(ACTIVE);
    const parsed = report(r);
    expect(parsed.changes.map((c: { field: string }) => c.field)).toEqual([
      "/" + HOSTILE.replace(/~/g, "~0").replace(/\//g, "~1"),
    ]);
  });
});
