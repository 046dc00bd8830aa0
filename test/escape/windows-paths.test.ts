/**
 * Windows paths (issue 30.5), checked here through the functions that take the platform's
 * separator, since CI runs on Linux: annotation `file=` values and glob patterns use `/`, and a
 * UNC path (`\\server\share`) is a mirror directory. On POSIX a `\` stays part of a name.
 */
import { describe, expect, it } from "vitest";
import { parseSchemaSource } from "../../src/fetch/source.js";
import { globPattern } from "../../src/lint/inputs.js";
import { githubFile } from "../../src/escape/index.js";

describe("on Windows (separator \\)", () => {
  it("a GitHub annotation's file= uses / (GitHub resolves it against the repository)", () => {
    expect(githubFile("requests\\2026\\a.json", "\\")).toBe("requests/2026/a.json");
    expect(githubFile("schemas-cache\\acme\\v,1\\latest.json", "\\")).toBe("schemas-cache/acme/v%2C1/latest.json");
  });

  it("a glob typed with \\ is read with /", () => {
    expect(globPattern("requests\\**\\*.ndjson.gz", "\\")).toBe("requests/**/*.ndjson.gz");
  });

  it("a UNC path is a mirror directory, not a malformed web address", () => {
    expect(parseSchemaSource("\\\\fileserver\\schemas\\mirror", "C:\\work", "\\")).toEqual({
      kind: "directory",
      dir: "\\\\fileserver\\schemas\\mirror",
    });
    // a web address written without its scheme is still refused, never read as a share
    expect(() => parseSchemaSource("//schemas.example.com/models", "C:\\work", "\\")).toThrow(
      /is not a valid web address/,
    );
  });
});

describe("on POSIX (separator /)", () => {
  it("a \\ is part of a file name and stays", () => {
    expect(githubFile("odd\\name.json", "/")).toBe("odd\\name.json");
    expect(globPattern("requests/\\[1\\].json", "/")).toBe("requests/\\[1\\].json");
  });

  it("\\\\server\\share is not a share", () => {
    expect(() => parseSchemaSource("\\\\fileserver\\schemas", "/work", "/")).toThrow(/is not a valid web address/);
  });
});
