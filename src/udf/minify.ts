/**
 * A deterministic whitespace-and-comment minifier for the JavaScript `vsk udf` writes: the
 * program is parsed (TypeScript's parser, from ts-morph, a dependency already; esbuild is only a
 * devDependency) and its tokens are written back with no comments and the least space between
 * them. Names are kept, so a warehouse's error still names the function it came from. A line break
 * is kept where one was and dropping it could change the program (automatic semicolon insertion:
 * ECMA-262 12.10); `udfScript` checks that the result has the same syntax tree as its input.
 */
import { ts } from "ts-morph";

/** A character that continues a name or a number: two such tokens need a space between them. */
const WORD = /[\w$\\\u0080-\uffff]/;

/** Tokens after which the grammar needs more: a line break after them never ends a statement. */
const CONTINUES = new Set([
  ";",
  "{",
  "(",
  "[",
  ",",
  ":",
  "?",
  "=",
  "=>",
  ".",
  "?.",
  "...",
  "==",
  "===",
  "!=",
  "!==",
  "<",
  ">",
  "<=",
  ">=",
  "+",
  "-",
  "*",
  "**",
  "/",
  "%",
  "&",
  "|",
  "^",
  "!",
  "~",
  "&&",
  "||",
  "??",
  "<<",
  ">>",
  ">>>",
  "+=",
  "-=",
  "*=",
  "/=",
  "%=",
  "**=",
  "&=",
  "|=",
  "^=",
  "&&=",
  "||=",
  "??=",
  "<<=",
  ">>=",
  ">>>=",
]);

/** Tokens before which a line break never inserts a semicolon that would not be there anyway. */
const CLOSES = new Set(["}", ")", "]", ";", ",", ":", "."]);

interface Token {
  text: string;
  kind: ts.SyntaxKind;
  /** a line break (or a comment holding one) came before it */
  broken: boolean;
}

function tokens(code: string): Token[] {
  const file = ts.createSourceFile("udf.js", code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const problems = (file as unknown as { parseDiagnostics?: ts.Diagnostic[] }).parseDiagnostics ?? [];
  if (problems.length > 0)
    throw new Error(
      `the UDF's JavaScript does not parse: ${ts.flattenDiagnosticMessageText(problems[0]!.messageText, " ")}`,
    );
  const out: Token[] = [];
  let end = 0;
  const visit = (node: ts.Node): void => {
    if (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode) return;
    const children = node.getChildren(file);
    if (children.length > 0 && !ts.isTemplateLiteralToken(node)) {
      for (const child of children) visit(child);
      return;
    }
    const start = node.getStart(file);
    if (node.end === start) return; // the end-of-file token, an omitted expression
    out.push({
      text: code.slice(start, node.end),
      kind: node.kind,
      broken: /[\n\r\u2028\u2029]/.test(code.slice(end, start)),
    });
    end = node.end;
  };
  visit(file);
  return out;
}

/** What goes between two tokens: nothing, a space, or the line break that was there. */
function between(prev: Token, next: Token): string {
  const postfix = prev.text === "++" || prev.text === "--";
  if (next.broken && !(CONTINUES.has(prev.text) && !postfix) && !CLOSES.has(next.text)) return "\n";
  const last = prev.text[prev.text.length - 1]!;
  const first = next.text[0]!;
  if (WORD.test(first) && (WORD.test(last) || prev.kind === ts.SyntaxKind.RegularExpressionLiteral)) return " ";
  // `a - -b`, `a + ++b`, `a / /re/`: two operators that would read as one token, or as a comment
  if ((last === "+" || last === "-") && first === last) return " ";
  if (last === "/" && (first === "/" || first === "*")) return " ";
  // `1 .toString()`: a decimal integer followed by a dot would take it as its fraction
  if (prev.kind === ts.SyntaxKind.NumericLiteral && /^\d+$/.test(prev.text) && first === ".") return " ";
  // `x<!--`, `-->` open and close HTML-like comments in a script (ECMA-262 B.1.1)
  if ((last === "<" && first === "!") || (last === "-" && first === ">")) return " ";
  return "";
}

/** The program in the fewest bytes this token-level rewrite gives; the same program. */
export function minify(code: string): string {
  const list = tokens(code);
  let out = "";
  for (let i = 0; i < list.length; i++) out += (i === 0 ? "" : between(list[i - 1]!, list[i]!)) + list[i]!.text;
  return out;
}
