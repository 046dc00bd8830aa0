/**
 * The crash test hook. Every write protocol in vsk calls `step(name)` right before each operation
 * that changes what is on disk. With `VSK_TEST_KILL_AT` set (test only: the crash tests set it,
 * nobody else should), the process kills itself with SIGKILL at the step whose number (1-based,
 * counted over the whole run) or name matches, so a test can stop a real `vsk` at every point of
 * a write and check what the next command finds. This is the only place that reads it.
 */
import { writeSync } from "node:fs";

const killAt = process.env.VSK_TEST_KILL_AT;
let count = 0;

export function step(name: string): void {
  if (killAt === undefined || killAt === "") return;
  count++;
  if (killAt !== String(count) && killAt !== name) return;
  writeSync(2, `vsk: test: killed at step ${count} (${name})\n`);
  process.kill(process.pid, "SIGKILL");
}
