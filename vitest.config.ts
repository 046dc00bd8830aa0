import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

/** The test files that replace a module with vi.mock: they need modules of their own. */
const ISOLATED = ["test/snapshot/snapshot.test.ts"];

export default defineConfig({
  test: {
    testTimeout: 30_000,
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
