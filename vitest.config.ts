import { availableParallelism } from "node:os";
import { relative } from "node:path";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** The test files that replace a module with vi.mock: they need modules of their own. */
const ISOLATED = ["test/snapshot/snapshot.test.ts"];

/**
 * The longest files (2026-11-28, 15-40 s each), started first where vitest has no duration of its
 * own for them (a fresh clone, CI): vitest then runs unknown files in arbitrary order and larger
 * ones first, and a long file started late was the run's tail (a fresh clone's first run: 3 min 3 s,
 * emit/crash started 70th). Where vitest has their durations, its own order (longest first) stands.
 */
const LONGEST = [
  "test/consumer/consumer.test.ts",
  "test/emit/generate-cli.test.ts",
  "test/lint/jobs.test.ts",
  "test/lint/lint-cli.test.ts",
  "test/emit/crash.test.ts",
  "test/snapshot/crash.test.ts",
  "test/drift/cli-robustness.test.ts",
  "test/emit/json-schema-test-suite.test.ts",
  "test/emit/hostile-shapes.test.ts",
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification): number => {
      const file = relative(spec.project.config.root, spec.moduleId).split("\\").join("/");
      const known = this.ctx.cache.getFileTestResults(`${spec.project.name}:${file}`) !== undefined;
      const at = LONGEST.indexOf(file);
      return known || at === -1 ? LONGEST.length : at;
    };
    // a stable sort: the rest keep vitest's order
    return sorted
      .map((spec, i) => ({ spec, i, rank: rank(spec) }))
      .sort((a, b) => a.rank - b.rank || a.i - b.i)
      .map((x) => x.spec);
  }
}

export default defineConfig({
  test: {
    testTimeout: 30_000,
    sequence: { sequencer: LongestFirst },
    hookTimeout: 60_000,
    // vitest's default is one worker fewer than the cores: a single worker on a 2-core machine.
    // Most test files spend their time waiting for the child processes they start (the CLI as a
    // user runs it, tsc, plain node), so one file more than the cores keeps them busy (2 cores,
    // 2026-11-28: vitest 254 s with two workers, 226 s with three).
    maxWorkers: Math.max(3, availableParallelism() + 1),
    // the built CLI's bundle, which test/cli/run.ts's vskInProcess loads: node loads it as bin/vsk.mjs does
    server: { deps: { external: [/\/dist\/cli\//] } },
    // fast-check runs a fixed seed (VSK_FC_SEED=random to explore)
    setupFiles: ["./test/setup/fast-check.ts"],
    reporters: ["default", "./test/summary-reporter.ts"],
    // Test files share their worker's modules (isolate: false): loading src/ and the CLI bundle
    // again for each of 130 files cost ~140 of the run's ~490 CPU seconds (2026-11-28: vitest 258 s
    // -> ~215 s wall on 2 cores). A file that replaces a module (vi.mock) runs isolated, where the
    // modules it imports see the mock.
    projects: [
      {
        extends: true,
        test: { name: "shared", include: ["test/**/*.test.ts"], exclude: [...ISOLATED], isolate: false },
      },
      { extends: true, test: { name: "isolated", include: [...ISOLATED], isolate: true } },
    ],
  },
});
