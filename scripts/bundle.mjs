// The `vsk` command's build: the CLI (dist/src/cli/program.js, which loads main.js), the `--jobs` worker
// (dist/src/lint/worker.js) and the preflight's parser process (dist/src/preflight/sandbox-child.js,
// found beside the chunk that starts it), as tsc built them, bundled by esbuild into dist/cli/ (vsk.js,
// worker.js, sandbox-child.js, and the chunks of the commands each loads on demand). Why: a command's start is
// dominated by loading modules (node resolves, stats, reads and compiles each of ~60 files for
// `vsk lint`); one file per command cut `vsk lint file.json` from 207 to 170 ms (README
// Performance, bench/lint.mjs (b)). Packages stay external (resolved from node_modules as
// before), but for yargs, the one argument parser of every command, lint's included (issue
// 42.5): bundled with what it imports, it costs lint's start ~16 ms where loading it from
// node_modules cost 115-160 ms (docs/architecture.md). Its locale files are not carried: yargs
// finds none beside the bundle and says its messages in English, whatever LANG is (the CLI
// recognises "Unknown argument" in them). Nothing is minified, so a stack trace still names the
// functions. bin/vsk.mjs and the
// GitHub Action (`vsk action`) run it; the library entries (dist/src) keep the per-module build.
// `vsk lint` runs from a second build of main.js, dist/cli/lint-script.js (below): one script, whose
// compiled code V8 keeps (src/cli/program.ts, src/durable/cache.ts `runCachedScript`).
// Written beside dist/cli and moved in whole: a build stopped half-way leaves the previous one,
// or none (which bin/vsk.mjs rebuilds), never half of one.
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { build } from "esbuild";
import ts from "typescript";

/** Every package external but yargs and what yargs imports (its importer is in node_modules). */
const externalButYargs = {
  name: "external-but-yargs",
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      /^yargs(\/|$)/.test(args.path) || /[\\/]node_modules[\\/]/.test(args.importer)
        ? undefined
        : { path: args.path, external: true },
    );
  },
};

const stringWidthOnFirstCall = {
  // string-width (yargs' help layout, through cliui and wrap-ansi: three copies) builds an
  // Intl.Segmenter (ICU's break data: 13-30 ms here) and its Unicode-property RegExps when it is
  // loaded; yargs measures widths only to lay out help and usage. So each copy builds them
  // on its first call instead: its code unchanged, moved into a function run once.
  name: "string-width-on-first-call",
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/](.+[\\/])?string-width[\\/]index\.js$/ }, (args) => {
      const text = readFileSync(args.path, "utf8");
      const head = text.match(/^(?:import [^\n]*\n|\s*\n)*/)[0];
      const body = text.slice(head.length);
      const exported = "export default function stringWidth(";
      if (body.split(exported).length !== 2 || /^export /m.test(body.replace(exported, "")))
        throw new Error(
          `${args.path}: not the string-width scripts/bundle.mjs knows (one default export, stringWidth)`,
        );
      const wrapped =
        `${head}let stringWidthOnce;\n` +
        `export default function stringWidth(...args) {\n` +
        `  stringWidthOnce ??= (() => {\n${body.replace(exported, "function stringWidth(")}\nreturn stringWidth;\n})();\n` +
        `  return stringWidthOnce(...args);\n}\n`;
      return { contents: wrapped, loader: "js" };
    });
  },
};

/**
 * yargs' factory gives every parser a --version whose number it guesses from the nearest
 * package.json, listing each directory from the working directory up (the whole of /tmp, for a
 * lint run there: 1-3 ms of its start). vsk's one parser takes it away at once (`.version(false)`,
 * cli/args.ts), so the bundle's factory does not add it: the parser ends the same, nothing is read.
 */
const yargsWithoutVersionGuess = {
  name: "yargs-without-version-guess",
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]yargs[\\/]build[\\/]lib[\\/]yargs-factory\.js$/ }, (args) => {
      const text = readFileSync(args.path, "utf8");
      const guess = "        yargs.help();\n        yargs.version();\n";
      if (text.split(guess).length !== 2)
        throw new Error(`${args.path}: not the yargs factory scripts/bundle.mjs knows (help(), then version())`);
      return { contents: text.replace(guess, "        yargs.help();\n"), loader: "js" };
    });
  },
};

const root = new URL("..", import.meta.url).pathname;
const outdir = `${root}dist/cli`;
const next = `${outdir}.next`;
rmSync(next, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: {
    vsk: "dist/src/cli/program.js",
    worker: "dist/src/lint/worker.js",
    "sandbox-child": "dist/src/preflight/sandbox-child.js",
  },
  outdir: next,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  plugins: [externalButYargs, stringWidthOnFirstCall, yargsWithoutVersionGuess],
  chunkNames: "chunk-[hash]",
  logLevel: "warning",
});

// `vsk lint` on Node 20 (cli/program.ts): main.ts and lint.ts with all they import, as one script
// V8 can keep the compiled code of (src/durable/cache.ts `runCachedScript`): CommonJS wrapped in
// one function expression, strict as the modules it is made of, given `import.meta` and `import()`
// by its caller. main.ts's other commands are not in it: program.ts runs it for lint only.
const lintOnly = {
  name: "lint-only",
  setup(b) {
    b.onResolve({ filter: /^\.\/[a-z-]+\.js$/ }, (args) =>
      args.kind === "dynamic-import" && /[\\/]cli[\\/]main\.js$/.test(args.importer) && args.path !== "./lint.js"
        ? { path: args.path, namespace: "not-lint" }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "not-lint" }, (args) => ({
      contents: `throw new Error("dist/cli/lint-script.js runs vsk lint only, not ${args.path}");`,
      loader: "js",
    }));
  },
};
const script = await build({
  absWorkingDir: root,
  entryPoints: ["dist/src/cli/main.js"],
  bundle: true,
  write: false,
  format: "cjs",
  platform: "node",
  target: "node20",
  define: { "import.meta": "__vsk_import_meta" },
  plugins: [externalButYargs, stringWidthOnFirstCall, yargsWithoutVersionGuess, lintOnly],
  logLevel: "warning",
});
writeFileSync(`${next}/lint-script.js`, lintScript(script.outputFiles[0].text));

/**
 * esbuild's CommonJS of the lint command as the function runCachedScript calls: its `import()`
 * calls (a validator's module, tinyglobby, worker_threads…) made through the caller's, which a
 * script whose code V8 read from a cache cannot make itself; found by TypeScript's parser, never
 * by matching text (a string may say "import(").
 */
function lintScript(text) {
  const body = text.replace(/^#!.*\n/, "");
  const file = ts.createSourceFile("lint-script.js", body, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const at = [];
  const visit = (node) => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword)
      at.push(node.expression.getStart(file));
    ts.forEachChild(node, visit);
  };
  visit(file);
  if (at.length === 0) throw new Error("scripts/bundle.mjs: lint's script has no import(): not the bundle it knows");
  let out = body;
  for (const start of at.sort((a, b) => b - a)) {
    if (out.slice(start, start + 6) !== "import") throw new Error(`scripts/bundle.mjs: no import() at ${start}`);
    out = `${out.slice(0, start)}__vsk_import${out.slice(start + 6)}`;
  }
  return "(function (exports, require, module, __vsk_import_meta, __vsk_import) {\n" + out + "\n})\n";
}

rmSync(outdir, { recursive: true, force: true });
renameSync(next, outdir);
