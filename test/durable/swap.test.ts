/**
 * Recovery of an interrupted directory swap, from every state the sibling names can be in (the
 * crash test in test/emit/crash.test.ts reaches them by killing a real `generate`; here each is
 * laid out directly, including the leftovers of vsk before this scheme, named with a pid).
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readableDirectory, replaceDirectory } from "../../src/durable/index.js";

const temps: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A parent directory holding the given directories, each with one file saying which it is. */
function layout(...dirs: string[]): string {
  const parent = mkdtempSync(join(tmpdir(), "vsk-swap-"));
  temps.push(parent);
  for (const d of dirs) {
    mkdirSync(join(parent, d));
    writeFileSync(join(parent, d, "which.txt"), d);
  }
  return parent;
}

function recovered(parent: string): { entries: string[]; content: string | undefined; said: string } {
  const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
  const dir = readableDirectory(join(parent, "generated"));
  const said = stderr.mock.calls.map((c) => String(c[0])).join("");
  stderr.mockRestore();
  expect(dir).toBe(join(parent, "generated"));
  const file = join(parent, "generated/which.txt");
  return {
    entries: readdirSync(parent).sort(),
    content: existsSync(file) ? readFileSync(file, "utf8") : undefined,
    said,
  };
}

describe("recovering an interrupted swap of generated/", () => {
  it.each([
    ["an unfinished .vsk-tmp is removed", ["generated", "generated.vsk-tmp", "generated.vsk-lock"], "generated"],
    [
      "a complete .vsk-new is swapped in",
      ["generated", "generated.vsk-new", "generated.vsk-lock"],
      "generated.vsk-new",
    ],
    ["between the renames: .vsk-new goes in", ["generated.vsk-old", "generated.vsk-new"], "generated.vsk-new"],
    ["a first run's .vsk-new goes in", ["generated.vsk-new"], "generated.vsk-new"],
    ["a .vsk-old beside generated/ is removed", ["generated", "generated.vsk-old"], "generated"],
    ["a .vsk-old alone is put back", ["generated.vsk-old"], "generated.vsk-old"],
    [
      "older vsk: a backup with a pid is put back",
      ["generated.vsk-old-4242", "generated.vsk-tmp-4242"],
      "generated.vsk-old-4242",
    ],
    ["older vsk: leftovers beside generated/ are removed", ["generated", "generated.vsk-tmp-4242"], "generated"],
  ])("%s", (_name, dirs, winner) => {
    const parent = layout(...dirs);
    if (dirs.includes("generated.vsk-lock")) {
      // a lock killed before its pid was written, a minute ago: stale by its age
      rmSync(join(parent, "generated.vsk-lock"), { recursive: true });
      writeFileSync(join(parent, "generated.vsk-lock"), "");
      const minuteAgo = new Date(Date.now() - 60_000);
      utimesSync(join(parent, "generated.vsk-lock"), minuteAgo, minuteAgo);
    }
    const { entries, content } = recovered(parent);
    expect(entries).toEqual(["generated"]);
    expect(content).toBe(winner);
  });

  it("replaceDirectory puts exactly the given files in place and leaves nothing beside them", () => {
    const parent = layout("generated");
    replaceDirectory(join(parent, "generated"), [{ path: "a/b.ts", content: "// new\n" }], "generate");
    expect(readdirSync(parent)).toEqual(["generated"]);
    expect(readdirSync(join(parent, "generated"), { recursive: true }).sort()).toEqual(["a", "a/b.ts"]);
  });

  it("a failed check under the lock writes nothing and releases the lock", () => {
    const parent = layout("generated");
    expect(() =>
      replaceDirectory(join(parent, "generated"), [{ path: "x.ts", content: "" }], "generate", () => {
        throw new Error("refused");
      }),
    ).toThrow("refused");
    expect(readdirSync(parent)).toEqual(["generated"]);
    expect(readFileSync(join(parent, "generated/which.txt"), "utf8")).toBe("generated");
  });
});
