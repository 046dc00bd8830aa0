/**
 * Which schema source a command uses, and fetching several models at once. Shared by
 * `vsk pull` and `vsk drift` so that both read `{schema_url}` (spec 9.1) the same way.
 */
import { dirname } from "node:path";
import { FetchUsageError } from "./errors.js";
import { parseSchemaSource, type SchemaSource } from "./source.js";

/** What the source can come from, highest priority first. */
export interface SourceChoice {
  /** `--schema-url` as given on the command line */
  flag?: string;
  /** the config's `schemaUrl`; a relative directory is relative to `configFile` */
  configUrl?: string;
  configFile?: string;
  /** `VSK_SCHEMA_URL` */
  env?: string;
}

/**
 * The flag, then the config's `schemaUrl` (relative to the config file), then `VSK_SCHEMA_URL`.
 * Throws `FetchUsageError` when none is set or the one chosen is not a usable source.
 */
export function chooseSchemaSource(choice: SourceChoice, cwd: string): SchemaSource {
  const fromEnv = choice.env?.trim();
  const [text, base] =
    choice.flag !== undefined
      ? [choice.flag, cwd]
      : choice.configUrl !== undefined
        ? [choice.configUrl, choice.configFile === undefined ? cwd : dirname(choice.configFile)]
        : fromEnv
          ? [fromEnv, cwd]
          : [undefined, cwd];
  if (text === undefined) {
    throw new FetchUsageError(
      'no schema URL: pass --schema-url URL, set "schemaUrl" in vsk.config.json, or set VSK_SCHEMA_URL (https://…, file://… or a mirror directory)',
    );
  }
  return parseSchemaSource(text, base);
}

/** Runs `task` over `items` with at most `limit` at a time; results keep the input order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
