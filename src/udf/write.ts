/**
 * Writing `vsk udf`'s files into their directory, and `--check`ing them there. The directory may
 * hold other files (a repository's `warehouse/` folder): only ours are written, each whole or not
 * at all (a flushed temporary file renamed over it), and only ours are compared.
 */
import { mkdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { readRegularFile, syncDir, writeFileDurable } from "../durable/index.js";
import type { UdfFile } from "./warehouse.js";

/** A file of ours on disk is never this big; a bigger one is stale, not read. */
const MAX_UDF_FILE_BYTES = 4 * 1024 * 1024;

export function writeUdf(dir: string, files: readonly UdfFile[]): void {
  mkdirSync(dir, { recursive: true });
  for (const file of files) {
    const target = join(dir, file.path);
    const temp = `${target}.vsk-tmp-${process.pid}`;
    rmSync(temp, { force: true });
    try {
      writeFileDurable(temp, file.content);
      renameSync(temp, target);
    } catch (error) {
      rmSync(temp, { force: true });
      throw error;
    }
  }
  syncDir(dir);
}

/** The files of ours that are missing or differ from what the snapshot gives, each with why. */
export function staleUdf(dir: string, files: readonly UdfFile[]): string[] {
  const stale: string[] = [];
  for (const file of files) {
    let bytes: Buffer;
    try {
      bytes = readRegularFile(join(dir, file.path), MAX_UDF_FILE_BYTES);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") stale.push(`${file.path} (missing)`);
      else if (code === undefined) stale.push(`${file.path} (${(error as Error).message})`);
      else throw error;
      continue;
    }
    if (!bytes.equals(Buffer.from(file.content))) stale.push(file.path);
  }
  return stale;
}
