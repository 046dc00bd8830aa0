/**
 * Issue 40's fast paths say what the slow ones say, on seeded samples. A Linter remembers the
 * envelopes it resolved (src/lint/lint.ts `knownEnvelope`): every line must get the verdict a
 * fresh Linter gives it. `--format json` writes a valid result from two remembered texts and a
 * diagnostic from the text of an earlier one of the same JSON (src/lint/format/json.ts): every
 * result must read as `JSON.stringify` of it, escaped as the report escapes (jsonText).
 */
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/index.js";
import { jsonText } from "../../src/escape/index.js";
import { Writable } from "node:stream";
import { jsonRenderer, jsonReporter } from "../../src/lint/format/json.js";
import { Sink } from "../../src/lint/format/sink.js";
import { Linter, type LintResult, type Reporter } from "../../src/lint/lint.js";
import { openRegistry } from "../../src/lint/registry.js";
import { ROOT } from "../cli/run.js";
import { random } from "./random.js";

const pick = <T>(next: () => number, from: readonly T[]): T => from[Math.floor(next() * from.length)]!;

/** An envelope, or something close to one: aliases, unknown names, non-strings, a missing key. */
function payload(next: () => number, i: number): unknown {
  const value: Record<string, unknown> = {};
  // half the lines name one of the log's pairs (an alias or the id), the rest anything
  const [model, endpoint] =
    next() < 0.5
      ? pick(next, [
          ["modelA", "text-to-video"],
          ["example/model-a", "text-to-video"],
          ["modelB", "reference-to-video"],
          ["example/model-b", "reference-to-video"],
          ["modelC", "text-to-video"],
        ] as const)
      : [
          pick(next, ["modelA", "example/model-a", "modelB", "modelC", "nope", 5, null, "-"]),
          pick(next, ["text-to-video", "keyframes-to-video", "reference-to-video", "nope", 7, "-"]),
        ];
  if (model !== "-") value.model = model;
  if (endpoint !== "-") value.endpoint = endpoint;
  const input = pick(next, ["ok", "ok", "bad", "-", "array"]);
  if (input === "ok")
    value.input =
      value.endpoint === "reference-to-video"
        ? { prompt: `sun ${i}`, reference_images: [`https://cdn.example/${i}.png`], duration: 8, seed: i }
        : value.model === "modelC"
          ? { prompt: `sun ${i}`, ratio: "9:16", duration: 5 }
          : { prompt: `sun ${i}`, aspect_ratio: "16:9", duration: "auto" };
  else if (input === "bad") value.input = { prompt: `sun ${i}`, duration: 40, aspect_ratio: "17:9" };
  else if (input === "array") value.input = [1];
  if (next() < 0.2) value.$schema = "x";
  return value;
}

function collector(): { reporter: Reporter; results: LintResult[] } {
  const results: LintResult[] = [];
  return { reporter: { result: (r) => void results.push(r), end: () => {} }, results };
}

describe("lint's fast paths", () => {
  it("a Linter that remembered envelopes judges every line as a fresh Linter does", async () => {
    const registry = openRegistry(loadConfig(ROOT));
    const next = random(4040);
    const one = collector();
    const linter = new Linter(registry, {}, one.reporter);
    const fresh = collector();
    for (let i = 1; i <= 600; i++) {
      const value = payload(next, i);
      const text = JSON.stringify(value);
      await linter.payload({ source: "log.ndjson", line: i }, value, undefined, undefined, text);
      await new Linter(registry, {}, fresh.reporter).payload(
        { source: "log.ndjson", line: i },
        JSON.parse(text),
        undefined,
        undefined,
        text,
      );
    }
    expect(one.results).toEqual(fresh.results);
    expect(one.results.filter((r) => r.valid).length).toBeGreaterThan(30);
  });

  it("--format json writes each result as JSON.stringify of it", () => {
    const next = random(4041);
    const render = jsonRenderer();
    const expectedOf = (): unknown =>
      pick(next, [
        { kind: "maximum", limit: 20 },
        { limit: 20, kind: "maximum" },
        { kind: "maximum", limit: 21 },
        { kind: "enum", allowedValues: ["a", "b"] },
        { kind: "enum", allowedValues: ["a", "c"] },
        { kind: "enum", allowedValues: ["a", "b", "c"] },
        { kind: "deep", at: [[[[[["x"]]]]]] },
        { kind: "deep", at: [[[[[["y"]]]]]] },
        [1, 2],
        [1, "2"],
        undefined,
        null,
      ]);
    for (let i = 1; i <= 3000; i++) {
      // shaped as a validator's, with any JSON in `expected` and `received` (hence the cast)
      const diagnostics = Array.from({ length: Math.floor(next() * 3) }, () => ({
        // few values, so that a diagnostic often repeats the one remembered but for its `expected` or `received`
        severity: pick(next, ["error", "error", "error", "warning"] as const),
        pointer: pick(next, ["/input/duration", "/input/duration", "/input/duration", ""]),
        rule: pick(next, ["schema/maximum", "schema/maximum", "schema/maximum", "schema/enum"]),
        code: "invalid_input",
        reason: "input_validation_failed",
        retryable: false,
        message: pick(next, ["duration: too long", "not one of\u2028 them"]),
        // a new object each time, of the same JSON as an earlier one or not
        expected: structuredClone(expectedOf()),
        received: structuredClone(pick(next, [40, 40, 40, 40, 41, "17:9", { a: 1 }, { a: 2 }, [null], undefined])),
        ...(next() < 0.1 ? { line: 3, column: 7 } : {}),
      })) as unknown as LintResult["diagnostics"];
      const r: LintResult = {
        source: pick(next, ["a.ndjson", "b\u202e.ndjson"]),
        line: i,
        model: pick(next, ["example/model-a", "example/model-b", null]),
        endpoint: pick(next, ["text-to-video", "reference-to-video", null]),
        valid: diagnostics.every((d) => d.severity !== "error"),
        diagnostics,
      };
      expect(render(r)).toBe(`,\n${jsonText(JSON.stringify(r))}`);
    }
  });

  it("--format json's report writes plain results, copied as bytes, as the renderer writes them", async () => {
    const chunks: Buffer[] = [];
    const out = new Writable({
      highWaterMark: 1024,
      write(chunk: Buffer, _encoding, done) {
        chunks.push(Buffer.from(chunk));
        setImmediate(done); // a slow reader: writes wait for the drain
      },
    });
    const reporter = jsonReporter(new Sink(out));
    const render = jsonRenderer();
    const next = random(4042);
    let expected = "";
    for (let i = 0; i < 5000; i++) {
      const valid = next() < 0.9;
      const r: LintResult = {
        // a source too long for a buffer now and then: written whole
        source: next() < 0.01 ? "l".repeat(70_000) : pick(next, ["a.ndjson", "ü/b.ndjson"]),
        line: pick(next, [i + 1, 9, 10, 99, 100, 999_999, 1_000_000, 2 ** 31, Number.MAX_SAFE_INTEGER, 2 ** 60]),
        model: pick(next, ["example/model-a", "example/model-b"]),
        endpoint: pick(next, ["text-to-video", "reference-to-vidéo"]),
        valid,
        diagnostics: valid
          ? []
          : [
              {
                severity: "error",
                pointer: "/input/duration",
                rule: "schema/maximum",
                code: "invalid_input",
                reason: "input_validation_failed",
                retryable: false,
                message: `duration: ${i} ✓ too long`,
              },
            ],
      };
      expected += render(r);
      const waited = reporter.result(r);
      if (waited) await waited;
    }
    await reporter.end({ requests: 5000, valid: 0, invalid: 0, warnings: 0 });
    await new Promise<void>((resolve) => out.end(resolve));
    const text = Buffer.concat(chunks).toString("utf8");
    const written = text.slice(text.indexOf("\n") + 1, text.lastIndexOf("\n],\n"));
    const wanted = expected.slice(2);
    // where they part, in a few lines (the whole texts are megabytes)
    let at = 0;
    while (at < wanted.length && written[at] === wanted[at]) at++;
    expect(written.slice(Math.max(0, at - 200), at + 100)).toBe(wanted.slice(Math.max(0, at - 200), at + 100));
    expect(written.length).toBe(wanted.length);
  });
});
