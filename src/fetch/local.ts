/** One schema from a mirror directory or a `file://` URL: same layout as spec 9.1, no network. */
import { existsSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";

/** Reads `file`; resolves with its text or with the problem a person should read. */
export async function readLocal(
  file: string,
  mirrorRoot: string,
  maxBytes: number,
): Promise<{ text: string } | { problem: string }> {
  let size: number;
  try {
    const info = await stat(file);
    if (!info.isFile()) return { problem: "is not a file" };
    size = info.size;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") return { problem: `cannot be read (${code ?? String(error)})` };
    if (!existsSync(mirrorRoot)) {
      return {
        problem: `no such file: the schema URL ${mirrorRoot} is not an existing directory (for a web address write https://…)`,
      };
    }
    return { problem: "no such file in the mirror (expected <dir>/main/<owner>/<name>/latest.json, spec 9.1)" };
  }
  if (size > maxBytes) return { problem: `is ${size} bytes, over the ${maxBytes}-byte limit (VSK_FETCH_MAX_BYTES)` };
  return { text: await readFile(file, "utf8") };
}
