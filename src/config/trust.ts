/**
 * Which files vsk trusts when it was not told to (issue 38.1), as git trusts a repository: a
 * config it *finds* (vsk.config.json, or package.json's "vsk" key), and the generated directory
 * lint imports validators from, are used only when the current user or root owns them, neither
 * group nor others may write them, and the directory holding them is not writable by everyone
 * (a sticky /tmp included: anyone may plant a file there). A config named with `--config` is
 * trusted as named; `VSK_TRUSTED_PATHS` names more. POSIX only: with no uid (Windows) all is trusted.
 */
import { realpathSync, statSync } from "node:fs";
import { delimiter, dirname, isAbsolute, resolve, sep } from "node:path";

/** The environment variable listing paths trusted whatever their owner and mode. */
export const TRUSTED_PATHS_ENV = "VSK_TRUSTED_PATHS";

/**
 * Whether `VSK_TRUSTED_PATHS` trusts `path`: its entries (separated by `:`, `;` on Windows) are
 * absolute paths of files or directories; a path is trusted when it is an entry or lies under
 * one; `*` trusts every path.
 */
function listed(path: string, env: Readonly<Record<string, string | undefined>>): boolean {
  const entries = (env[TRUSTED_PATHS_ENV] ?? "").split(delimiter).filter((e) => e !== "");
  if (entries.length === 0) return false;
  if (entries.includes("*")) return true;
  const forms = new Set([resolve(path)]);
  try {
    forms.add(realpathSync(path));
  } catch {
    // a path that does not resolve is matched as written
  }
  for (const entry of entries) {
    if (!isAbsolute(entry)) continue;
    const base = resolve(entry);
    for (const p of forms) if (p === base || p.startsWith(base.endsWith(sep) ? base : base + sep)) return true;
  }
  return false;
}

const octal = (mode: number): string => (mode & 0o7777).toString(8).padStart(3, "0");

/**
 * Why `path` (a file or a directory) is not trusted, in a few words (`it is owned by another
 * user (uid 65534)`), or undefined when it is. A path that cannot be examined is left to the
 * reader that follows, whose error says why.
 */
export function distrust(
  path: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined || listed(path, env)) return undefined;
  let real: string;
  let info;
  let parent;
  try {
    real = realpathSync(path);
    info = statSync(real);
    parent = statSync(dirname(real));
  } catch {
    return undefined;
  }
  if (info.uid !== uid && info.uid !== 0) return `it is owned by another user (uid ${info.uid}; you are uid ${uid})`;
  if ((info.mode & 0o022) !== 0)
    return `${(info.mode & 0o002) !== 0 ? "others" : "its group"} may write it (mode ${octal(info.mode)})`;
  if ((parent.mode & 0o002) !== 0 && dirname(real) !== real)
    return `its directory ${dirname(real)} is writable by everyone (mode ${octal(parent.mode)})`;
  return undefined;
}

/** How to use a path vsk refused anyway: the end of each refusal. */
export function trustHint(path: string, config: boolean): string {
  return `${config ? `pass --config ${path} to use it anyway, or ` : ""}list it in ${TRUSTED_PATHS_ENV} (paths separated by "${delimiter}")`;
}
