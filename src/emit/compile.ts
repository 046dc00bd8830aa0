/**
 * `vsk generate --lang js`: the generated TypeScript modules compiled, in memory, to ESM
 * JavaScript (`.js`) with declarations (`.d.ts`), for projects without a TypeScript build.
 * Loaded only for that option (ts-morph bundles the compiler).
 */
import { Project, ts } from "ts-morph";
import { EmitError } from "./validator.js";
import type { GeneratedFile } from "./generated-file.js";

const ROOT = "/vsk-generated/";

/** `.ts` sources importing `./x.js` in; `.js` + `.d.ts` out (each with the source's header line first). */
export function compileToJavaScript(sources: readonly GeneratedFile[]): GeneratedFile[] {
  const project = new Project({
    useInMemoryFileSystem: true,
    compilerOptions: {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ES2022,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ["lib.es2022.d.ts"],
      types: [],
      strict: true,
      declaration: true,
      skipLibCheck: true,
      isolatedModules: true,
      rootDir: ROOT,
      outDir: "/vsk-out/",
    },
  });
  const headers = new Map<string, string>();
  for (const file of sources) {
    project.createSourceFile(ROOT + file.path, file.content, { overwrite: true });
    headers.set(file.path.replace(/\.ts$/, ""), file.content.slice(0, file.content.indexOf("\n") + 1));
  }
  const result = project.emitToMemory();
  const failed = result.getDiagnostics()[0];
  if (failed !== undefined)
    throw new EmitError(
      `the generated code does not compile to JavaScript (a bug in vsk, please report it): ${failed.getMessageText().toString()}`,
    );
  return result.getFiles().map((f) => {
    const path = f.filePath.replace(/^\/vsk-out\//, "");
    const head = headers.get(path.replace(/\.(d\.ts|js)$/, "")) ?? "";
    const text = f.text.startsWith(head) ? f.text : head + f.text;
    return { path, content: text };
  });
}
