/**
 * Ends the test run with one plain line, `N passed, N failed, N skipped`, that any CI can read
 * whatever runner it knows (vitest's own summary stays above it).
 */
import type { Reporter, TestModule } from "vitest/node";

export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") passed++;
        else if (state === "failed") failed++;
        else skipped++;
      }
      // a file that failed to load or in a hook counts, even when none of its tests failed
      if (module.state() === "failed" && ![...module.children.allTests()].some((t) => t.result().state === "failed"))
        failed++;
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
