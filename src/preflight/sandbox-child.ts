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

process.on("message", (message: { id: number; task: ParseTask }) => {
  parseStep(message.task).then(
    (step) => send({ id: message.id, step }),
    (error: unknown) => send({ id: message.id, error: error instanceof Error ? error.message : String(error) }),
  );
});

await Promise.all([import("file-type"), import("mp4box"), import("mediabunny"), import("music-metadata")]);
send({ ready: true });
