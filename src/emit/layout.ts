/**
 * Whether a generated file on disk says the same as ours in another layout: someone ran their
 * own formatter (prettier with their options: print width, tabs, quotes, semicolons, trailing
 * commas, quoted keys, object wrapping) over `generated/`. Code is compared as syntax trees
 * (TypeScript's parser, from ts-morph) with the layout left out: whitespace, comments, quote
 * style, optional semicolons (and the `;` prettier puts before a line that starts with `(`) and commas, redundant parentheses, quoted vs bare property names;
 * JSON is compared parsed. A formatter keeps every comment's words, so comments are compared too,
 * with their whitespace left out: a comment added or changed by hand is an edit, not a layout
 * change (issue 42.3). Only `generate --check` calls it, and only for files that differ.
 */
import { createRequire } from "node:module";
import type { ts } from "ts-morph";

/**
 * TypeScript's API, loaded on the first comparison: `vsk generate` (and its `--help`) loads this
 * module, and ts-morph costs ~300 ms to load, which only `--check` on a differing file needs.
 */
let api: typeof ts | undefined;
const typescript = (): typeof ts =>
  (api ??= (createRequire(import.meta.url)("ts-morph") as typeof import("ts-morph")).ts);

const statementLists = (): ReadonlyArray<(node: ts.Node) => boolean> => {
  const t = typescript();
  return [t.isSourceFile, t.isBlock, t.isModuleBlock, t.isCaseClause, t.isDefaultClause];
};

/** The layout-free form of a module: node kinds, names and literal values, in order. */
function codeShape(path: string, text: string): string | undefined {
  const ts = typescript();
  const lists = statementLists();
  const kind = /\.d\.[cm]?ts$|\.[cm]?ts$/.test(path) ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
  // a file that does not parse is not ours in another layout
  if (((file as unknown as { parseDiagnostics?: unknown[] }).parseDiagnostics?.length ?? 0) > 0) return undefined;
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    // without semicolons prettier guards a line starting with `(` or `[` by a lone `;`: an empty
    // statement in a statement list does nothing (one that is an `if`'s or a loop's body does)
    if (ts.isEmptyStatement(node) && lists.some((is) => is(node.parent))) return;
    // prettier adds and drops parentheses that change nothing (arrow parameters, long conditions)
    if (ts.isParenthesizedExpression(node)) return visit(node.expression);
    if (ts.isParenthesizedTypeNode(node)) return visit(node.type);
    if (ts.isIdentifier(node) || ts.isStringLiteral(node) || ts.isPrivateIdentifier(node)) {
      out.push(`n:${JSON.stringify(node.text)}`); // `a` and "a" as property names are one name
      return;
    }
    if (ts.isLiteralExpression(node) || ts.isTemplateLiteralToken(node)) {
      out.push(`${node.kind}:${JSON.stringify(node.text)}`);
      return;
    }
    // what the kind alone does not say: prefix, postfix and type operators; const, let or var
    const operator = (node as { operator?: unknown }).operator;
    const detail = ts.isVariableDeclarationList(node) ? node.flags & ts.NodeFlags.BlockScoped : operator;
    out.push(typeof detail === "number" ? `(${node.kind}.${detail}` : `(${node.kind}`);
    node.forEachChild(visit);
    out.push(")");
  };
  file.forEachChild(visit);
  return out.join(" ");
}

/**
 * The words of every comment in a module, whitespace left out (a formatter re-indents a block
 * comment's lines and wraps nothing), sorted (one may move a comment across a bracket).
 */
function commentShape(path: string, text: string): string {
  const ts = typescript();
  const kind = /\.d\.[cm]?ts$|\.[cm]?ts$/.test(path) ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
  const seen = new Set<number>();
  const words: string[] = [];
  const collect = (ranges: ts.CommentRange[] | undefined): void => {
    for (const r of ranges ?? [])
      if (!seen.has(r.pos)) {
        seen.add(r.pos);
        words.push(text.slice(r.pos, r.end).replace(/\s+/g, ""));
      }
  };
  const visit = (node: ts.Node): void => {
    if (node.kind >= ts.SyntaxKind.FirstToken && node.kind <= ts.SyntaxKind.LastToken) {
      collect(ts.getLeadingCommentRanges(text, node.getFullStart()));
      collect(ts.getTrailingCommentRanges(text, node.getEnd()));
    }
    for (const child of node.getChildren(file)) visit(child);
  };
  visit(file);
  return words.sort().join("\n");
}

function jsonShape(text: string): string | undefined {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return undefined;
  }
}

const SHAPES: ReadonlyArray<[RegExp, (path: string, text: string) => string | undefined]> = [
  [/\.json$/, (_path, text) => jsonShape(text)],
  [/\.[cm]?[jt]s$/, codeShape],
];

/**
 * How a generated file on disk differs from ours: `layout` (a formatter's work: the same code and
 * comments), `comments` (the same code, a comment added, removed or changed: a hand edit) or
 * `content` (other code: a hand edit, or generated from another snapshot or vsk version).
 */
export type Difference = "layout" | "comments" | "content";

export function howItDiffers(path: string, onDisk: string, ours: string): Difference {
  const shape = SHAPES.find(([pattern]) => pattern.test(path))?.[1];
  if (shape === undefined) return "content";
  const theirs = shape(path, onDisk);
  if (theirs === undefined || theirs !== shape(path, ours)) return "content";
  if (/\.json$/.test(path)) return "layout";
  return commentShape(path, onDisk) === commentShape(path, ours) ? "layout" : "comments";
}

export function differsOnlyInFormatting(path: string, onDisk: string, ours: string): boolean {
  return howItDiffers(path, onDisk, ours) === "layout";
}
