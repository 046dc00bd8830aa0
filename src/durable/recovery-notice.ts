/**
 * What recovery did, said out loud on stderr (one line each). Paths come from the user's tree:
 * control characters in them are shown escaped, never sent to the terminal.
 */
export function printable(text: string): string {
  // C0, DEL, C1, the bidi overrides and isolates, and the invisible characters (as src/escape)
  return text.replace(
    /[\u0000-\u001f\u007f-\u009f\u00ad\u180e\u200b-\u200d\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g,
    (c) => (c === "\t" ? " " : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`),
  );
}

export function announce(line: string): void {
  process.stderr.write(`vsk: ${printable(line)}\n`);
}
