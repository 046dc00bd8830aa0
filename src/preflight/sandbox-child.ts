/**
 * The parser process's entry (sandbox.ts starts it with `fork`): it parses the steps it is sent,
 * one at a time, and answers each. It says `ready` once the parsers' modules are loaded, so that
 * no step's time limit is spent loading them. It ends when the process that started it does.
 */
import { parseStep, type ParseTask } from "./parse.js";

const send = (message: unknown): void => {
  process.send?.(message);
};
if (process.send === undefined) process.exit(2); // not started by sandbox.ts

// a parser's stray rejection (mediabunny's reads that no one awaits) is no one's business; an
// exception thrown outside a step ends the process: the step it ran fails, the next starts afresh
process.on("unhandledRejection", () => {});
process.on("uncaughtException", () => process.exit(70));
process.on("disconnect", () => process.exit(0));

/**
 * For tests only (test/preflight/hostile.test.ts): with VSK_TEST_PARSER_FAULTS=1 in the
 * environment, a file whose bytes begin `vsk-fault:` makes this process fail the way it names,
 * as a parser bug would: loop, fill its heap, fill memory outside it, throw, exit, abort. Nothing
 * else reads that variable; without it such a file is plain text.
 */
function fault(task: ParseTask): void {
  const head = Buffer.from(task.runs[0]?.bytes.subarray(0, 32) ?? []).toString("latin1");
  const kind = /^vsk-fault:(\w+)/.exec(head)?.[1];
  const kept: unknown[] = [];
  if (kind === "loop") for (;;);
  if (kind === "heap") for (;;) kept.push(new Array(1e5).fill(1.5));
  // memory outside the heap, up to 2 GiB, then a loop: a memory watch that failed ends on the
  // time limit, not by filling the test machine
  if (kind === "memory") for (let i = 0; ; i++) if (i < 64) kept.push(Buffer.alloc(32 << 20, 1));
  if (kind === "throw") throw new Error("vsk-fault");
  if (kind === "exit") process.exit(3);
  if (kind === "abort") process.abort();
}
const faults = process.env.VSK_TEST_PARSER_FAULTS === "1";

process.on("message", (message: { id: number; task: ParseTask }) => {
  if (faults) fault(message.task);
  parseStep(message.task).then(
    (step) => send({ id: message.id, step }),
    (error: unknown) => send({ id: message.id, error: error instanceof Error ? error.message : String(error) }),
  );
});

await Promise.all([import("file-type"), import("mp4box"), import("./mediabunny.js"), import("music-metadata")]);
send({ ready: true });
