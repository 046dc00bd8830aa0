/**
 * `vsk mock`: the local service (docs/queue.md) on a real port, for a team's tests and demos. Binds
 * 127.0.0.1 unless `--host` says otherwise; logs each request on stderr; SIGINT/SIGTERM stop it.
 */
import { createMockService, webhookKey } from "../mock/index.js";
import { commandParser, helpShown } from "./args.js";
import { CliError, ExitCode, toCliError } from "./errors.js";

export async function runMock(argv: string[]): Promise<number> {
  const args = await commandParser(
    argv,
    "mock",
    "[--port N] [--host H] [--key KEY] [--queue-ms N] [--run-ms N] [--pre-9-2] [--strict-submit] [--webhook-secret S] [--fetch-inputs [--fetch-inputs-allow-host HOST[:PORT]]…] [--config FILE]",
  )
    .option("port", { type: "number", default: 4010, describe: "port to listen on; 0 takes an ephemeral one" })
    .option("host", { type: "string", default: "127.0.0.1", describe: "address to bind (loopback unless you say so)" })
    .option("key", { type: "string", describe: "the API key `Authorization: Key …` must carry (default: any key)" })
    .option("queue-ms", { type: "number", default: 100, describe: "how long a prediction stays queued" })
    .option("run-ms", { type: "number", default: 200, describe: "how long a prediction runs" })
    .option("pre-9-2", {
      type: "boolean",
      default: false,
      describe: "answer error: {} instead of null on GET /v1/predictions/{id} (spec 9.2)",
    })
    .option("strict-submit", {
      type: "boolean",
      default: false,
      describe: "reject an invalid payload with 422 at submit instead of a failed prediction",
    })
    .option("webhook-secret", {
      type: "string",
      describe:
        "sign webhook deliveries (Standard Webhooks): whsec_<base64>, base64, or any other text used as its bytes",
    })
    .option("fetch-inputs", {
      type: "boolean",
      default: false,
      describe:
        "fetch the files each valid submit references, as the service will (docs/preflight.md): an expired link, a 5xx, a private host… fails the prediction with invalid_input / input_fetch_failed and its retryable",
    })
    .option("fetch-inputs-allow-host", {
      type: "string",
      array: true,
      describe:
        "with --fetch-inputs: treat HOST (HOST:PORT: that port only) as public, e.g. a local media server; repeatable",
    })
    .option("config", {
      type: "string",
      describe: "config file (default: ./vsk.config.json, else the embedded models)",
    })
    .parseAsync();
  if (helpShown(argv)) return ExitCode.ok;
  for (const [flag, value, min] of [
    ["--port", args.port, 0],
    ["--queue-ms", args["queue-ms"], 0],
    ["--run-ms", args["run-ms"], 0],
  ] as const) {
    if (!Number.isInteger(value) || value < min || (flag === "--port" && value > 65535))
      throw new CliError(
        `mock: ${flag} must be a whole number${flag === "--port" ? " from 0 to 65535" : " of milliseconds"} (see \`vsk mock --help\`)`,
      );
  }
  if (args["webhook-secret"] !== undefined)
    try {
      webhookKey(args["webhook-secret"]);
    } catch (error) {
      throw new CliError(`mock: --webhook-secret: ${(error as Error).message}`, ExitCode.usage);
    }
  const allowHosts = (args["fetch-inputs-allow-host"] ?? []).map(String);
  if (allowHosts.length > 0 && !args["fetch-inputs"])
    throw new CliError("mock: --fetch-inputs-allow-host needs --fetch-inputs (see `vsk mock --help`)", ExitCode.usage);
  let service;
  try {
    service = createMockService({
      ...(args.config === undefined ? {} : { config: args.config }),
      ...(args.key === undefined ? {} : { key: args.key }),
      ...(args["webhook-secret"] === undefined ? {} : { webhookSecret: args["webhook-secret"] }),
      queueMs: args["queue-ms"],
      runMs: args["run-ms"],
      pre92: args["pre-9-2"],
      strictSubmit: args["strict-submit"],
      ...(args["fetch-inputs"] ? { fetchInputs: { allowHosts, allowHostsName: "--fetch-inputs-allow-host" } } : {}),
      // the path is a WHATWG URL pathname (control characters percent-encoded) and the method
      // passed node's HTTP parser, so neither can carry a terminal escape
      onRequest: (r) =>
        process.stderr.write(
          `${r.method} ${r.path} ${r.status}${r.requestId === undefined ? "" : ` ${r.requestId}`}\n`,
        ),
    });
  } catch (error) {
    throw toCliError(error, (message) => `mock: ${message}`);
  }
  // the handlers go in before listening, so a signal at any instant once the ready line is out
  // (and even before it) closes the mock and exits 0 (issue 38.6); every later signal is taken
  // by the same handler while it closes, never node's default exit by signal
  let stopped!: () => void;
  const signalled = new Promise<void>((resolve) => (stopped = resolve));
  const stop = (): void => stopped();
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  let url: string;
  try {
    ({ url } = await service.listen({ port: args.port, host: args.host }));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new CliError(
      `mock: cannot listen on ${args.host}:${args.port} (${code}); choose another --port (0 takes a free one)`,
      ExitCode.usage,
    );
  }
  process.stdout.write(`vsk mock listening on ${url}\n`);
  await signalled;
  await service.close();
  return ExitCode.ok;
}
