/**
 * `vsk explain [FILE|-] [--format text|json] [--as KIND]`: arguments, input and output only;
 * the explanation itself is `src/explain`.
 */
import { readFile } from "node:fs/promises";
import { explain, explainText, explanationJson, orderKeys, renderText, type InputKind } from "../explain/index.js";
import { jsonSyntaxError } from "../json/index.js";
import { terminalText } from "../escape/index.js";
import { redactValues } from "../runtime/redact.js";
import { commandParser } from "./args.js";
import { CliError, ExitCode } from "./errors.js";

/** `--as` values and the kind each forces. */
const AS_CHOICES = {
  auto: undefined,
  prediction: "prediction",
  webhook: "webhook",
  queue: "queue_update",
  result: "result_response",
} as const satisfies Record<string, InputKind | undefined>;

/** Runs `vsk explain`; returns the exit code. */
export async function runExplain(argv: string[]): Promise<number> {
  const args = await parseArgs(argv);
  if (args === "help") return ExitCode.ok;
  const { text, source } = await readInput(args.file);
  const forced = AS_CHOICES[args.as];
  // `curl -i` output or a raw plain-text/HTML body (spec 7.3, issue 42.3): read as a result
  // response; text meant as JSON (it opens with `{`, `[` or `"`) that does not parse stays an error
  const raw =
    (forced === undefined || forced === "result_response") && !/^\uFEFF?\s*[[{"]/.test(text) && text.trim() !== "";
  const read = raw ? explainText(text, source) : explain(parseJson(text, source), source, forced);
  // raw values (an unknown code, a request_id) are printed as sent, but never with a URL's query
  // string: every value is redacted as data, before it is serialized (issue 23.2), never the output
  const explanation = redactValues(orderKeys(read));
  const output = args.format === "json" ? explanationJson(explanation) : renderText(explanation);
  process.stdout.write(output);
  return ExitCode.ok;
}

interface Args {
  file: string | undefined;
  format: "text" | "json";
  as: keyof typeof AS_CHOICES;
}

async function parseArgs(argv: string[]): Promise<Args | "help"> {
  const parsed = await commandParser(
    argv,
    "explain",
    "[FILE|-] [--format text|json] [--as KIND]\n\n" +
      "Say what a prediction record, queue status update, webhook delivery or saved result response " +
      "({status, headers, body} with body the raw text; `curl -i` output or a raw plain-text body, as saved) means: failed or not, code and reason, " +
      "retry or not and why, and what to do. Reads standard input when FILE is - or absent.",
  )
    .command("$0 [file]", false, (y) =>
      y.positional("file", { type: "string", describe: "JSON file, or - for standard input" }),
    )
    .option("format", {
      choices: ["text", "json"] as const,
      default: "text" as const,
      describe: "text for people, json for machines",
    })
    .option("as", {
      choices: Object.keys(AS_CHOICES) as (keyof typeof AS_CHOICES)[],
      default: "auto" as const,
      describe: "read the input as this kind instead of detecting it",
    })
    .parseAsync();
  if (parsed.help === true) return "help";
  return { file: typeof parsed.file === "string" ? parsed.file : undefined, format: parsed.format, as: parsed.as };
}

async function readInput(file: string | undefined): Promise<{ text: string; source: string }> {
  // yargs hands a lone "-" over as "".
  if (file === undefined || file === "-" || file === "") {
    if (file === undefined && process.stdin.isTTY === true)
      throw new CliError("explain: no input: give a FILE, or pipe one in with `vsk explain -`", ExitCode.usage);
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return { text: Buffer.concat(chunks).toString("utf8"), source: "stdin" };
  }
  try {
    return { text: await readFile(file, "utf8"), source: file };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === "ENOENT"
        ? "no such file"
        : code === "EISDIR"
          ? "it is a directory"
          : code === "EACCES"
            ? "permission denied"
            : String(code ?? "unreadable");
    throw new CliError(`explain: cannot read ${terminalText(file)}: ${why}`, ExitCode.usage);
  }
}

function parseJson(rawText: string, source: string): unknown {
  const text = rawText.replace(/^\uFEFF/, "");
  if (text.trim() === "")
    throw new CliError(`explain: ${terminalText(source)} is empty; expected one JSON value`, ExitCode.usage);
  try {
    return JSON.parse(text);
  } catch {
    const { line, column, problem } = jsonSyntaxError(text);
    throw new CliError(
      `explain: ${terminalText(source)}:${line}:${column}: not valid JSON: ${problem}`,
      ExitCode.usage,
    );
  }
}
