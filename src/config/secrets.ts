/**
 * The service's key as vsk holds it (spec 5: every request carries `Authorization: Key <key>`):
 * read from `VSK_API_KEY` (by `vsk pull` and `vsk drift`, src/fetch/options.ts) and never
 * printed (README: "No command prints an API key"). The runtime's redaction withholds keys by
 * their shape; this tells it the configured one by its value, whatever it looks like.
 */
import { addSecretValues } from "../runtime/index.js";

/** The environment variable that holds the service's key. */
export const API_KEY_ENV = "VSK_API_KEY";

/**
 * Registers the configured key (as set and trimmed) with the runtime's redaction, for every copy
 * of it in this thread (the CLI's, and the generated code's that `vsk lint` runs). Cheap; call it
 * where a process or worker thread starts.
 */
export function withholdConfiguredKey(env: Readonly<Record<string, string | undefined>> = process.env): void {
  const key = env[API_KEY_ENV];
  if (typeof key === "string" && key !== "") addSecretValues([key, key.trim()]);
}
