/**
 * The snapshot store: all-or-nothing writes (a failure before the journal's commit point changes
 * nothing; one after it is finished by the next command), a
 * corrupt manifest as a clear `SnapshotError`, and one hash (the bytes on disk) for every reader.
 * `renameSync` and `openSync` are wrapped so a test can make one fail, as EACCES or EXDEV would.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_MODELS, type VskConfig } from "../../src/config/index.js";
import { openRegistry } from "../../src/lint/registry.js";
import {
  prepareSnapshotRead,
  readManifest,
  readSnapshot,
  sha256,
  SnapshotError,
  writeFilesAtomically,
  writeSnapshot,
} from "../../src/snapshot/index.js";

/** When set, called before every rename; throwing from it makes that rename fail. */
const hooks = vi.hoisted(() => ({
  beforeRename: undefined as ((from: string, to: string) => void) | undefined,
  beforeOpen: undefined as ((file: string) => void) | undefined,
}));
vi.mock("node:fs", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:fs")>();
  return {
    ...real,
    renameSync: (from: fs.PathLike, to: fs.PathLike) => {
      hooks.beforeRename?.(String(from), String(to));
      real.renameSync(from, to);
    },
    openSync: (file: fs.PathLike, flags: fs.OpenMode = "r", mode?: fs.Mode) => {
      hooks.beforeOpen?.(String(file));
      return real.openSync(file, flags, mode);
    },
  };
});

const MIRROR = resolve(import.meta.dirname, "../fixtures/pull/mirror/main");
const MODELS = ["example/model-a", "example/model-b", "example/model-c"] as const;
const mirrorText = (model: string): string => readFileSync(join(MIRROR, model, "latest.json"), "utf8");

const temps: string[] = [];
afterEach(() => {
  hooks.beforeRename = undefined;
  hooks.beforeOpen = undefined;
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A snapshot holding model-a and model-b (older versions) and their manifest. */
function seeded(): string {
  const dir = mkdtempSync(join(tmpdir(), "vsk-snapshot-"));
  temps.push(dir);
  writeSnapshot(
    dir,
    MODELS.slice(0, 2).map((model) => ({
      model,
      text: mirrorText(model).replace("}", ', "x-old": true}'),
      source: "old",
    })),
    new Date("2026-01-01T00:00:00Z"),
  );
  return dir;
}

/** Every file under `dir` with its bytes, and every directory. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const full = join(entry.parentPath, entry.name);
    out[relative(dir, full)] = entry.isFile() ? readFileSync(full).toString("base64") : "<dir>";
  }
  return out;
}

const fresh = MODELS.map((model) => ({ model, text: mirrorText(model), source: "new" }));

function thrown(run: () => unknown): SnapshotError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SnapshotError);
    return error as SnapshotError;
  }
  throw new Error("expected a SnapshotError");
}

describe("writeSnapshot is all-or-nothing", () => {
  it.each([
    ["staging the second model file", (_from: string, to: string) => to.endsWith("model-b/latest.json.vsk-tmp")],
    ["putting the journal in place (the commit point)", (from: string) => from.endsWith(".vsk-journal.vsk-tmp")],
  ])("a failure while %s leaves every file as it was, and no stray file", (_name, fails) => {
    const dir = seeded();
    const before = tree(dir);
    hooks.beforeRename = (from, to) => {
      if (fails(from, to)) throw Object.assign(new Error("EACCES: permission denied"), { code: "EACCES" });
    };
    hooks.beforeOpen = (file) => {
      if (fails("", file)) throw Object.assign(new Error("EACCES: permission denied"), { code: "EACCES" });
    };
    const error = thrown(() => writeSnapshot(dir, fresh));
    expect(error.message).toBe(`cannot write the snapshot in ${dir} (EACCES); nothing was changed`);
    expect(tree(dir)).toEqual(before);
  });

  it("a rename failing after the commit point is finished by the next command: every file new, nothing left", () => {
    const dir = seeded();
    hooks.beforeRename = (from) => {
      if (/model-b\/latest\.json\.vsk-tmp$/.test(from))
        throw Object.assign(new Error("EACCES: permission denied"), { code: "EACCES" });
    };
    const error = thrown(() => writeSnapshot(dir, fresh, new Date("2026-02-02T00:00:00Z")));
    expect(error.message).toBe(
      `cannot write the snapshot in ${dir} (EACCES); the update is recorded in ${join(dir, ".vsk-journal")} and the next vsk command finishes it`,
    );
    hooks.beforeRename = undefined;
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    prepareSnapshotRead(dir);
    expect(stderr.mock.calls.map((c) => String(c[0])).join("")).toMatch(/^vsk: finished an interrupted pull in /);
    stderr.mockRestore();
    for (const model of MODELS) expect(readFileSync(join(dir, model, "latest.json"), "utf8")).toBe(mirrorText(model));
    expect(Object.keys(tree(dir)).filter((f) => f.includes(".vsk"))).toEqual([]);
    expect(readManifest(dir).models["example/model-c"]).toMatchObject({ source: "new" });
  });

  it("on success every file is replaced, the manifest keeps the others' entries, and no backup is left", () => {
    const dir = seeded();
    writeSnapshot(dir, fresh.slice(1), new Date("2026-02-02T00:00:00Z"));
    const after = tree(dir);
    expect(
      Object.keys(after)
        .filter((f) => after[f] !== "<dir>")
        .sort(),
    ).toEqual([
      "example/model-a/latest.json",
      "example/model-b/latest.json",
      "example/model-c/latest.json",
      "manifest.json",
    ]);
    for (const model of MODELS.slice(1))
      expect(readFileSync(join(dir, model, "latest.json"), "utf8")).toBe(mirrorText(model));
    const manifest = readManifest(dir);
    expect(Object.keys(manifest.models)).toEqual([...MODELS]);
    expect(manifest.models["example/model-a"]).toMatchObject({ source: "old", fetchedAt: "2026-01-01T00:00:00.000Z" });
    expect(manifest.models["example/model-c"]).toMatchObject({ source: "new", sha256: sha256(mirrorText(MODELS[2])) });
  });

  it("the next write cleans up what an older vsk left (names with a pid): a lost file comes back from its backup", () => {
    const dir = seeded();
    const a = join(dir, "example/model-a/latest.json");
    const before = readFileSync(a);
    fs.renameSync(a, `${a}.vsk-bak-4242-0a1b2c3d`);
    writeFileSync(join(dir, "manifest.json.vsk-tmp-4242-0a1b2c3d"), "{");
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    writeSnapshot(dir, fresh.slice(2));
    stderr.mockRestore();
    expect(readFileSync(a)).toEqual(before);
    expect(Object.keys(tree(dir)).filter((f) => f.includes(".vsk"))).toEqual([]);
    expect(Object.keys(readManifest(dir).models)).toEqual([...MODELS]);
  });

  it("writeFilesAtomically takes Buffers too", () => {
    const dir = mkdtempSync(join(tmpdir(), "vsk-snapshot-"));
    temps.push(dir);
    writeFilesAtomically(dir, [{ path: "a/b.bin", content: Buffer.from([0xff, 0x00]) }]);
    expect([...readFileSync(join(dir, "a/b.bin"))]).toEqual([0xff, 0x00]);
  });
});

describe("a corrupt manifest is an error, never an empty one", () => {
  it.each([
    ["not JSON", '{\n  "models": {\n    "example/model-a": {,\n', /is not valid JSON \(line 3, column 25: /],
    [
      "JSON of another shape",
      '{"example/model-a": {}}',
      /is not a snapshot manifest \(expected \{ "models": \{ … \} \}\)/,
    ],
    ["models as an array", '{"models": []}', /is not a snapshot manifest/],
    [
      "an entry without its hash",
      '{"models": {"example/model-a": {"file": "x"}}}',
      /the entry of "example\/model-a" has no string "sha256"/,
    ],
  ])("%s: SnapshotError naming the file and the way out; writeSnapshot writes nothing", (_name, text, problem) => {
    const dir = seeded();
    const manifest = join(dir, "manifest.json");
    writeFileSync(manifest, text);
    const before = tree(dir);
    const error = thrown(() => readManifest(dir));
    expect(error.message).toContain(manifest);
    expect(error.message).toMatch(problem);
    expect(error.message).toContain("delete it and run `vsk pull` for every model to rebuild it");
    expect(thrown(() => writeSnapshot(dir, fresh.slice(0, 1))).message).toBe(error.message);
    expect(tree(dir)).toEqual(before);
  });

  it("a missing manifest is an empty one", () => {
    const dir = mkdtempSync(join(tmpdir(), "vsk-snapshot-"));
    temps.push(dir);
    expect(readManifest(dir)).toEqual({ models: {} });
  });
});

describe("one snapshot hash: the bytes on disk", () => {
  it("readSnapshot hashes a file that is not valid UTF-8 as lint's staleness check does, so it is not stale", () => {
    const dir = mkdtempSync(join(tmpdir(), "vsk-snapshot-"));
    temps.push(dir);
    const model = DEFAULT_MODELS[0]!;
    const text = mirrorText(model.id);
    // a Latin-1 "é" (0xE9) inside the title: not UTF-8, decoded as U+FFFD
    const at = text.indexOf('"title": "') + '"title": "'.length;
    const bytes = Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from([0xe9]), Buffer.from(text.slice(at))]);
    mkdirSync(join(dir, model.id), { recursive: true });
    writeFileSync(join(dir, model.id, "latest.json"), bytes);

    const [read] = readSnapshot(dir, [model]);
    expect(read!.sha256).toBe(sha256(bytes));
    expect(read!.text).toContain("\uFFFD");

    // inside a directory of its own: lint imports no validator from a directory in a world-writable one like /tmp (issue 38.1)
    const parent = mkdtempSync(join(tmpdir(), "vsk-generated-"));
    temps.push(parent);
    const out = join(parent, "generated");
    mkdirSync(out);
    const entry = {
      key: "k",
      model: model.id,
      endpoint: "e",
      path: "/p",
      validator: "v.js",
      snapshotSha256: read!.sha256,
    };
    writeFileSync(join(out, "endpoints.json"), JSON.stringify({ endpoints: [entry] }));
    const config = { file: join(out, "vsk.config.json"), outDir: out, snapshotDir: dir, models: [model] };
    expect(openRegistry(config as unknown as VskConfig).staleness(dir)).toBeUndefined();
  });
});
