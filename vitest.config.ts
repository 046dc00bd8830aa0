import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // vitest's default is one worker fewer than the cores: a single worker on a 2-core machine.
    // Most test files spend their time waiting for the child processes they start (the CLI as a
    // user runs it, tsc, plain node), so two files at once keep both cores busy.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    reporters: ["default", "./test/summary-reporter.ts"],
  },
});
