/**
 * Figures the docs state about generated/ stay true (issue 42.3: the README said 38 files after
 * the client made them 40): counted from the repository's committed generated/.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_POLL_INTERVAL_MS } from "../../src/client/index.js";

const ROOT = resolve(import.meta.dirname, "../..");

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
  );
}

describe("the docs' counts of generated files", () => {
  it("README: `vsk generate --watch`'s line names as many files as generated/ holds", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const stated = /`regenerated generated\/ \((\d+) files, 4 endpoints\)/.exec(readme);
    expect(stated, "the README's --watch example line").not.toBeNull();
    expect(Number(stated![1])).toBe(files(join(ROOT, "generated")).length);
  });

  it("docs/client.md: the client's files and size, client.mts included", () => {
    const page = readFileSync(join(ROOT, "docs/client.md"), "utf8");
    const stated = /about (\d+) kB of source in\s+(\d+) files, `client\.mts` included/.exec(page);
    expect(stated, "docs/client.md's sentence").not.toBeNull();
    const client = [join(ROOT, "generated/client.mts"), ...files(join(ROOT, "generated/_vsk"))];
    expect(Number(stated![2])).toBe(client.length);
    const kB = client.reduce((n, f) => n + statSync(f).size, 0) / 1000;
    expect(Math.abs(Number(stated![1]) - kB)).toBeLessThan(5);
  });
});

describe("the client's documented defaults", () => {
  it("docs/client.md states the poll interval the client uses", () => {
    const page = readFileSync(join(ROOT, "docs/client.md"), "utf8");
    expect(page).toContain(`(\`DEFAULT_POLL_INTERVAL_MS\`,\n${DEFAULT_POLL_INTERVAL_MS} ms)`);
    expect(DEFAULT_POLL_INTERVAL_MS).toBe(1000); // the README says "every 1 s"
  });
});
