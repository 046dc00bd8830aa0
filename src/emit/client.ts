/**
 * The generated queue client: `client.ts` binds the package's client (`video-schema-kit/client`)
 * to the generated endpoints, and `_vsk/client/` and `_vsk/runtime/` are that client and the
 * runtime it reads every answer with, copied from the package build (scripts/embed.mjs, which
 * stores them as `.mts` in generate's layout) with only the import extensions set per language, so
 * that generated code needs nothing else (spec 6.3, 7.3; docs/queue.md).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_ROOT } from "../config/index.js";
import type { RegistryEntry } from "./registry.js";
import type { GeneratedFile } from "./generated-file.js";

/** The folder of the copies; an owner's folder starts with a letter or digit, so none is `_vsk`. */
export const CLIENT_SUPPORT_DIR = "_vsk";

/** `from "./x.mjs"` (and `"../x.mjs"`) in the embedded copies: the only thing that changes per language. */
const RELATIVE_MJS = /(\bfrom\s+)"(\.{1,2}\/[^"]*)\.mjs"/g;

/**
 * `client.<ext>` and the copies it imports, each after the generated header. `ext.source` is the
 * source extension (`.mts` or `.ts`), `ext.import` that of relative imports (`.mjs` or `.js`). The
 * copies come `formatted`: generate does not run prettier over them again.
 */
export function clientFiles(
  head: string,
  ext: { source: string; import: string },
  registry: readonly RegistryEntry[],
): GeneratedFile[] {
  const root = join(PACKAGE_ROOT, "dist", "embed", CLIENT_SUPPORT_DIR);
  if (!existsSync(root)) throw new Error(`${root} is missing: build the package first (npm run build)`);
  const files: GeneratedFile[] = [];
  for (const folder of ["client", "runtime"]) {
    for (const name of readdirSync(join(root, folder)).sort()) {
      if (!name.endsWith(".mts")) continue;
      const text = readFileSync(join(root, folder, name), "utf8");
      files.push({
        path: `${CLIENT_SUPPORT_DIR}/${folder}/${name.replace(/\.mts$/, ext.source)}`,
        content: `${head}\n${ext.import === ".mjs" ? text : text.replace(RELATIVE_MJS, (_m, from: string, path: string) => `${from}"${path}${ext.import}"`)}`,
        formatted: true,
      });
    }
  }
  files.push({ path: `client${ext.source}`, content: emitClientModule(head, ext.import, registry) });
  return files;
}

/**
 * `client.ts`: `createClient(options)`, typed per key of the generated `EndpointTypeMap`. It
 * imports no endpoint module up front: each endpoint's validator is imported on that endpoint's
 * first submit (issue 30.12), so an app loads only the validators of the endpoints it uses, and a
 * bundler can split the others off. The paths are literals (spec 4.1), not the modules' constants.
 */
function emitClientModule(head: string, importExt: string, registry: readonly RegistryEntry[]): string {
  const client = `./${CLIENT_SUPPORT_DIR}/client/index${importExt}`;
  return [
    head,
    "/**",
    " * The queue client bound to the generated endpoints: validates before it submits, reads every",
    " * answer as the service spec demands (6.3, 7.3), and imports nothing but the files beside it.",
    " * `fetch` only: Node >= 20, browsers, edge runtimes. Docs: video-schema-kit's docs/client.md.",
    " *",
    " * @example",
    ` * import { createClient, PredictionFailedError } from "./client${importExt}";`,
    ' * const client = createClient({ baseUrl: "https://api.example.com", credentials: () => readKey() });',
    " */",
    `import type { EndpointTypeMap } from "./index${importExt}";`,
    `import { createQueueClient, type ClientEndpoint, type QueueClient, type QueueClientOptions } from "${client}";`,
    "",
    `export * from "${client}";`,
    `export type { EndpointKey, EndpointTypeMap } from "./index${importExt}";`,
    "",
    "/** The client's options: `endpoints` are the generated ones. */",
    'export type ClientOptions = Omit<QueueClientOptions<EndpointTypeMap>, "endpoints">;',
    "",
    "/** A client for the generated endpoints: input and output typed per `<owner>/<name>/<endpoint>` key. */",
    "export type Client = QueueClient<EndpointTypeMap>;",
    "",
    "/** Each endpoint's path, and its validator imported on first use. */",
    "const endpoints: { readonly [K in keyof EndpointTypeMap]: ClientEndpoint } = {",
    ...registry.map(
      ({ endpoint, names }) =>
        `  ${JSON.stringify(endpoint.key)}: { path: ${JSON.stringify(endpoint.queuePath)}, validate: (input) => import("./${names.stem}${importExt}").then((m) => m.${names.validate}(input)) },`,
    ),
    "};",
    "",
    "export function createClient(options: ClientOptions): Client {",
    "  return createQueueClient<EndpointTypeMap>({ ...options, endpoints });",
    "}",
    "",
  ].join("\n");
}
