/** `vsk udf --target bigquery|snowflake [--out DIR] [--model …] [--endpoint …] [--library URI] [--check]`: the validators as warehouse UDFs (issue 41). */
import { relative, resolve } from "node:path";
import { describeModels, findModel, loadConfig } from "../config/index.js";
import type { EmitInput } from "../emit/index.js";
import { snapshotAdvice, snapshotInputs } from "./snapshot-inputs.js";
import {
  DEFAULT_LIBRARY,
  DEFAULT_NAME,
  LIMITS,
  SQL_NAME,
  staleUdf,
  TARGETS,
  udfFiles,
  writeUdf,
  type Target,
  type UdfOptions,
} from "../udf/index.js";
import { commandParser, helpShown } from "./args.js";
import { CliError, ExitCode, toCliError } from "./errors.js";
import { shownArgument } from "./typed.js";
import { plural } from "../words/index.js";

export async function runUdf(argv: string[]): Promise<number> {
  const args = await commandParser(
    argv,
    "udf",
    "--target bigquery|snowflake [--out DIR] [--model ID]… [--endpoint NAME]… [--library gs://…] [--function NAME] [--check] [--config FILE]",
    [
      "Writes the generated validators as a warehouse JavaScript UDF, vsk_lint(endpoint, payload), which gives for each " +
        "request body what `vsk lint` gives: every finding, warnings included, with the same rule ids and pointers. " +
        "bigquery: DIR/vsk_lint.js (upload it to Cloud Storage) and DIR/vsk_lint.bigquery.sql; snowflake: " +
        "DIR/vsk_lint.snowflake.sql with the library inline. Built from the snapshot (schemas-cache/) for the configured " +
        "models, or those --model names; --check writes nothing and compares instead (for CI). See docs/udf.md.",
      "Exit codes: 0 written (or up to date), 1 stale (--check), 2 usage or a file that cannot be read or written, " +
        "3 a schema that cannot be turned into code or a UDF over the warehouse's size limit.",
    ],
  )
    .option("target", { choices: TARGETS, demandOption: true, describe: "the warehouse" })
    .option("out", { type: "string", default: "udf", describe: "the directory the files go in" })
    .option("model", {
      type: "string",
      array: true,
      describe: "a configured model (id or alias) to include; repeat for more (default: every configured model)",
    })
    .option("endpoint", {
      type: "string",
      array: true,
      describe: "an endpoint name to include; repeat for more (default: every endpoint of the models)",
    })
    .option("library", {
      type: "string",
      describe: `bigquery: the gs:// URI vsk_lint.js is uploaded to, for the SQL's OPTIONS (default ${DEFAULT_LIBRARY})`,
    })
    .option("function", {
      type: "string",
      default: DEFAULT_NAME,
      describe:
        "the SQL function's name (one per set of models: --model A --function lint_a); BigQuery's STRING form adds _text",
    })
    .option("check", {
      type: "boolean",
      default: false,
      describe: "write nothing; exit 1 if the files in --out are not what the snapshot gives",
    })
    .option("config", { type: "string", describe: "config file (default: the first vsk.config.json here or above)" })
    .parseAsync();
  if (helpShown(argv)) return ExitCode.ok;
  const target = args.target as Target;
  const library = args.library;
  if (library !== undefined) {
    if (target !== "bigquery") throw new CliError("udf: --library is for --target bigquery only", ExitCode.usage);
    // a Cloud Storage object: gs://bucket/path, nothing a SQL string literal or a shell would act on
    if (!/^gs:\/\/[a-z0-9][a-z0-9._-]{1,221}\/[^\s'"\\`]{1,1024}$/.test(library))
      throw new CliError(
        `udf: --library ${shownArgument(library)} is not a Cloud Storage URI (gs://bucket/path/vsk_lint.js)`,
        ExitCode.usage,
      );
  }
  const name = args.function as string;
  if (!SQL_NAME.test(name))
    throw new CliError(
      `udf: --function ${shownArgument(name)} is not a plain SQL name (letters, digits and _, not starting with a digit)`,
      ExitCode.usage,
    );
  const cwd = process.cwd();
  const outDir = resolve(cwd, args.out);
  let inputs: EmitInput[];
  try {
    const config = loadConfig(cwd, args.config, args.check ? { requireConfigIn: "udf --check" } : {});
    const models = (args.model ?? []).map((named) => {
      const model = findModel(config, named);
      if (model === undefined)
        throw new CliError(
          `udf: --model ${shownArgument(named)} is not a configured model; configured: ${describeModels(config)}`,
          ExitCode.usage,
        );
      return model;
    });
    const chosen = models.length === 0 ? config.models : config.models.filter((m) => models.includes(m));
    inputs = snapshotInputs(config.snapshotDir, chosen);
  } catch (error) {
    throw toCliError(error, snapshotAdvice);
  }
  if (args.endpoint !== undefined) {
    const names = new Set(inputs.flatMap((m) => m.endpoints.map((e) => e.endpoint)));
    const unknown = args.endpoint.find((e) => !names.has(e));
    if (unknown !== undefined)
      throw new CliError(
        `udf: --endpoint ${shownArgument(unknown)} is not an endpoint of ${inputs.map((m) => m.ref.id).join(", ")}; known: ${[...names].join(", ")}`,
        ExitCode.usage,
      );
    const wanted = new Set(args.endpoint);
    inputs = inputs
      .map((m) => ({ ...m, endpoints: m.endpoints.filter((e) => wanted.has(e.endpoint)) }))
      .filter((m) => m.endpoints.length > 0);
  }
  let files;
  try {
    const options: UdfOptions = { target, name };
    if (library !== undefined) options.library = library;
    files = udfFiles(inputs, options);
  } catch (error) {
    throw toCliError(error);
  }
  const shown = relative(cwd, outDir) || ".";
  const endpoints = inputs.reduce((n, m) => n + m.endpoints.length, 0);
  if (args.check) {
    let stale;
    try {
      stale = staleUdf(outDir, files);
    } catch (error) {
      throw new CliError(`udf: cannot read ${shown}/: ${(error as Error).message}`, ExitCode.usage);
    }
    if (stale.length > 0) {
      process.stderr.write(
        `vsk: ${shown}/ is stale: ${plural(stale.length, "file")} ${stale.length === 1 ? "differs" : "differ"} from what the snapshot gives (${stale.join(", ")}); run \`vsk udf --target ${target}\` with the same flags and commit the result.\n`,
      );
      return ExitCode.findings;
    }
    process.stdout.write(
      `${shown}/ is up to date (${files.map((f) => f.path).join(", ")}; ${plural(endpoints, "endpoint")}).\n`,
    );
    return ExitCode.ok;
  }
  try {
    writeUdf(outDir, files);
  } catch (error) {
    throw new CliError(`udf: cannot write ${shown}/: ${(error as Error).message}`, ExitCode.usage);
  }
  const sizes = files.map((f) => `${shown}/${f.path} (${Buffer.byteLength(f.content)} bytes)`);
  const limit =
    target === "bigquery"
      ? `BigQuery allows ${LIMITS.bigqueryLibrary} bytes per library file`
      : `Snowflake recommends at most ${LIMITS.snowflakeBody} bytes of function body`;
  process.stdout.write(
    [
      `Wrote ${sizes.join(", ")} for ${plural(endpoints, "endpoint")} of ${plural(inputs.length, "model")} (${limit}).`,
      target === "bigquery"
        ? `Next: upload vsk_lint.js to ${library ?? DEFAULT_LIBRARY}${library === undefined ? " (name yours with --library)" : ""}, then run ${shown}/vsk_lint.bigquery.sql with your query.`
        : `Next: run ${shown}/vsk_lint.snowflake.sql (CREATE OR REPLACE FUNCTION ${name}) in your database and schema.`,
    ].join("\n") + "\n",
  );
  return ExitCode.ok;
}
