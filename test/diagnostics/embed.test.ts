import { readFileSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as core from "../../src/diagnostics/index.js";

// The generated support module is assembled from the runtime regions of src/diagnostics/ and
// src/rules/ (scripts/embed.mjs): one source for each piece, and the same public surface.
const ROOT = new URL("../../", import.meta.url);
const read = (path: string): string => readFileSync(new URL(path, ROOT), "utf8");

function regionOf(text: string): string {
  const start = text.indexOf("// #region runtime");
  const end = text.indexOf("// #endregion runtime");
  return text.slice(text.indexOf("\n", start) + 1, end).trimEnd();
}

describe("the generated support module is assembled from src/diagnostics/", () => {
  const embedded = read("dist/embed/support.ts");
  const files = readdirSync(new URL("src/diagnostics/", ROOT)).filter((f) => f !== "index.ts");

  it.each(files)("holds the runtime region of src/diagnostics/%s (its exports kept or made private)", (file) => {
    const region = regionOf(read(`src/diagnostics/${file}`));
    expect(region.length).toBeGreaterThan(0);
    const unexported = (text: string) => text.replace(/^export /gm, "");
    expect(unexported(embedded)).toContain(`// vsk's src/diagnostics/${file}\n${unexported(region)}\n`);
  });

  it("exports what src/diagnostics/index.ts exports, and keeps the shared internals private", async () => {
    const generated = (await import(new URL("dist/generated/support.mjs", ROOT).href)) as Record<string, unknown>;
    for (const name of Object.keys(core)) expect(Object.keys(generated), name).toContain(name);
    // wording.ts shares these with ajv-errors.ts; generated code does not export them
    expect(Object.keys(generated)).not.toContain("SCHEMA_MESSAGES");
    expect(Object.keys(generated)).not.toContain("otherForms");
    expect(read("generated/support.mts")).not.toMatch(/^export const SCHEMA_MESSAGES/m);
  });

  it("nothing outside the regions reaches generated code: the only import is the runtime's redaction", () => {
    const imports = [...embedded.matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => m[1]);
    expect(imports).toEqual(["./redact.js"]);
    expect(read("generated/support.mts")).not.toContain("../runtime/");
  });
});
