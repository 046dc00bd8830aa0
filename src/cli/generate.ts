/** `vsk generate [--check] [--config FILE]`: types, builders and validators from the snapshot. */
import { relative } from "node:path";
import { ConfigError, loadConfig } from "../config/index.js";
import {
  compareWithDisk,
  EmitConfigError,
  EmitError,
  generateFiles,
  writeGenerated,
  type EmitInput,
} from "../emit/index.js";
import { SchemaLoadError } from "../schema/index.js";
import { readSnapshot, SnapshotError } from "../snapshot/index.js";
import { commandParser, helpShown } from "./args.js";
import { CliError, ExitCode } from "./errors.js";
import { plural } from "../text/index.js";

export async function runGenerate(argv: string[]): Promise<number> {
  const args = await commandParser(argv, "generate", "[--check] [--config FILE]")
    .option("check", {
      type: "boolean",
      default: false,
      describe: "write nothing; exit 1 if generated/ is not what the snapshot gives",
    })
    .option("config", {
      type: "string",
      describe: "config file (default: ./vsk.config.json if present, else the embedded three models)",
    })
    .parseAsync();
  if (helpShown(argv)) return ExitCode.ok;
  const started = performance.now();
  const cwd = process.cwd();
  let inputs: EmitInput[];
  let outDir: string;
  try {
    const config = loadConfig(cwd, args.config);
    outDir = config.outDir;
    inputs = readSnapshot(config.snapshotDir, config.models).map((m) => ({
      ref: m.ref,
      sourceLabel: `schemas-cache/${m.ref.id}/latest.json`,
      sha256: m.sha256,
      endpoints: m.schema.endpoints,
    }));
  } catch (error) {
    if (error instanceof ConfigError || error instanceof SnapshotError)
      throw new CliError(error.message, ExitCode.usage);
    if (error instanceof SchemaLoadError)
      throw new CliError(`${error.message}\nFix the snapshot file or run \`vsk pull\` again.`, ExitCode.source);
    throw error;
  }
  let files;
  try {
    files = await generateFiles(inputs);
  } catch (error) {
    if (error instanceof EmitConfigError) throw new CliError(error.message, ExitCode.usage);
    if (error instanceof EmitError) throw new CliError(error.message, ExitCode.source);
    throw error;
  }
  const shown = relative(cwd, outDir) || ".";
  if (args.check) {
    let stale;
    try {
      stale = compareWithDisk(outDir, files);
    } catch (error) {
      if (error instanceof EmitError) throw new CliError(error.message, ExitCode.usage);
      throw error;
    }
    const names = [
      ...stale.changed,
      ...stale.missing.map((f) => `${f} (missing)`),
      ...stale.extra.map((f) => `${f} (not generated)`),
    ];
    if (names.length > 0) {
      process.stderr.write(
        `vsk: ${shown}/ is stale: ${plural(names.length, "file")} ${names.length === 1 ? "differs" : "differ"} from what the snapshot gives (${names.join(", ")}); run \`vsk generate\` and commit the result.\n`,
      );
      return ExitCode.findings;
    }
    process.stdout.write(
      `${shown}/ is up to date (${plural(files.length, "file")}, ${plural(
        inputs.reduce((n, m) => n + m.endpoints.length, 0),
        "endpoint",
      )}).\n`,
    );
    return ExitCode.ok;
  }
  try {
    writeGenerated(outDir, files);
  } catch (error) {
    if (error instanceof EmitError) throw new CliError(error.message, ExitCode.usage);
    throw error;
  }
  const endpoints = inputs.reduce((n, m) => n + m.endpoints.length, 0);
  const ms = Math.round(performance.now() - started);
  process.stdout.write(
    `Generated ${plural(files.length, "file")} for ${plural(endpoints, "endpoint")} of ${plural(inputs.length, "model")} into ${shown}/ in ${ms} ms.\n`,
  );
  return ExitCode.ok;
}
