import { parsePointer } from "./pointer.js";

/**
 * Where the value at a JSON Pointer (RFC 6901) starts in a valid JSON text, as 1-based line and
 * column; for a pointer that goes past what the text holds, where its deepest existing part
 * starts. For messages about a valid document ("vsk.config.json:4:13: /models/0/id: …").
 */
export function locatePointer(text: string, pointer: string): { line: number; column: number } {
  const segments = parsePointer(pointer);
  let i = 0;
  const ws = (): void => {
    while (i < text.length && " \t\n\r\uFEFF".includes(text[i]!)) i++;
  };
  const string = (): string => {
    const start = i++;
    while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const skip = (): void => {
    ws();
    const open = text[i];
    if (open === '"') return void string();
    if (open !== "{" && open !== "[") {
      while (i < text.length && !",}] \t\n\r".includes(text[i]!)) i++;
      return;
    }
    i++;
    ws();
    if (text[i] === "}" || text[i] === "]") return void i++;
    for (;;) {
      if (open === "{") {
        ws();
        string();
        ws();
        i++; // ':'
      }
      skip();
      ws();
      const close = text[i++];
      if (close !== ",") return;
    }
  };
  /** Moves `i` to the value of `segment` in the container at `i`; false when there is none. */
  const enter = (segment: string): boolean => {
    const open = text[i];
    if (open !== "{" && open !== "[") return false;
    const index = open === "[" && /^(0|[1-9]\d*)$/.test(segment) ? Number(segment) : -1;
    if (open === "[" && index < 0) return false;
    i++;
    ws();
    if (text[i] === "}" || text[i] === "]") return false;
    for (let k = 0; ; k++) {
      ws();
      if (open === "{") {
        const key = string();
        ws();
        i++; // ':'
        ws();
        if (key === segment) return true;
      } else if (k === index) return true;
      skip();
      ws();
      if (text[i++] !== ",") return false;
    }
  };
  ws();
  let found = i;
  for (const segment of segments) {
    if (!enter(segment)) break;
    ws();
    found = i;
  }
  const before = text.slice(0, found);
  const line = before.split("\n").length;
  return { line, column: found - before.lastIndexOf("\n") };
}
