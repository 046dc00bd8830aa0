/**
 * What `vsk lint --format sarif` and `vsk drift --format sarif` share (issue 42.1): the SARIF 2.1.0
 * frame (OASIS SARIF 2.1.0; the tests validate against the 2.1.0 schema that the devDependency
 * @microsoft/jest-sarif ships), a file name as a relative `artifactLocation.uri`,
 * the tool's driver (name, version, where its docs are) and the `partialFingerprints` hash. Pure:
 * the formats read package.json and hand it in.
 */
import { createHash } from "node:crypto";
import { isAbsolute, relative, resolve } from "node:path";

/** The `$schema` of every SARIF log vsk writes: the id of the OASIS schema (Errata 01). */
export const SARIF_SCHEMA =
  "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";
export const SARIF_VERSION = "2.1.0";

/**
 * Where the docs are when package.json names no repository: `helpUri` is this base followed by a
 * page of the repository's `docs/` and an anchor in it (`rules.md#lintinvalid-json`).
 */
export const DOCS_BASE = "https://video-schema-kit.dev/docs/";

/** The fields of package.json the driver uses. */
export interface PackageInfo {
  version?: unknown;
  repository?: unknown;
  homepage?: unknown;
}

export interface SarifTool {
  /** the package's version */
  version: string;
  /** the repository (or homepage, or {@link DOCS_BASE}'s site) */
  informationUri: string;
  /** `<base>` that a docs page (`rules.md#…`) is appended to */
  docsBase: string;
}

/**
 * The repository URL of package.json's `repository` (a string or `{ url }`, `git+https://…​.git`,
 * `github:owner/name` or `owner/name`) as an https URL, or undefined.
 */
function repositoryUrl(repository: unknown): string | undefined {
  const raw =
    typeof repository === "string"
      ? repository
      : typeof repository === "object" &&
          repository !== null &&
          typeof (repository as { url?: unknown }).url === "string"
        ? (repository as { url: string }).url
        : undefined;
  if (raw === undefined) return undefined;
  const short = /^(?:github:)?([\w.-]+)\/([\w.-]+)$/.exec(raw);
  if (short !== null) return `https://github.com/${short[1]}/${short[2]!.replace(/\.git$/, "")}`;
  const url = /^(?:git\+)?(https:\/\/[^\s?#]+?)(?:\.git)?\/?$/.exec(raw);
  return url?.[1];
}

/** The tool as package.json describes it: its version, and where its docs are. */
export function sarifTool(pkg: PackageInfo): SarifTool {
  const version = typeof pkg.version === "string" ? pkg.version : "0.0.0";
  const repo = repositoryUrl(pkg.repository);
  if (repo !== undefined) return { version, informationUri: repo, docsBase: `${repo}/blob/HEAD/docs/` };
  const home = typeof pkg.homepage === "string" && /^https:\/\//.test(pkg.homepage) ? pkg.homepage : undefined;
  return { version, informationUri: home ?? DOCS_BASE.replace(/docs\/$/, ""), docsBase: DOCS_BASE };
}

/**
 * Where `artifactLocation.uri`s start: in a GitHub workflow the repository's checkout
 * (`$GITHUB_WORKSPACE`, where code scanning resolves them) when `cwd` is inside it, else `cwd`.
 */
export function sarifRoot(cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  const workspace = env.GITHUB_WORKSPACE;
  if (workspace === undefined || workspace === "" || !isAbsolute(workspace)) return cwd;
  const inside = relative(workspace, resolve(cwd));
  return inside === "" || (!inside.startsWith("..") && !isAbsolute(inside)) ? workspace : cwd;
}

/**
 * A file name (as typed, relative to `cwd`, or absolute) as GitHub resolves a workflow
 * annotation's `file=`: relative to the repository's checkout (`$GITHUB_WORKSPACE`) when the file
 * is inside it, so an annotation lands on the PR's diff from a subdirectory or a monorepo
 * package too (as SARIF's `artifactLocation.uri`, {@link sarifRoot}); as given otherwise (no
 * workspace, a file outside it, `<stdin>`).
 *
 * @example workspacePath("a.ndjson", "/w/pkg", { GITHUB_WORKSPACE: "/w" }) // "pkg/a.ndjson"
 */
export function workspacePath(path: string, cwd: string = process.cwd(), env: NodeJS.ProcessEnv = process.env): string {
  const workspace = env.GITHUB_WORKSPACE;
  if (workspace === undefined || workspace === "" || !isAbsolute(workspace) || path === "<stdin>") return path;
  const inside = relative(workspace, resolve(cwd, path));
  return inside === "" || inside.startsWith("..") || isAbsolute(inside) ? path : inside;
}

/**
 * A file name (as typed, relative to `cwd`, or absolute) as SARIF's `artifactLocation.uri`:
 * relative to `root` ({@link sarifRoot}), `/` between segments, each segment percent-encoded (a
 * space, `%`, `#`, `?`, `:` or a non-ASCII letter in a name stays part of the path).
 */
export function sarifUri(path: string, cwd: string, root: string = cwd): string {
  return relative(resolve(root), resolve(cwd, path))
    .split(/[\\/]+/)
    .filter((segment) => segment !== "" && segment !== ".")
    .map(encodeURIComponent)
    .join("/");
}

/** A `partialFingerprints` value: a hash of what identifies a finding, never of where the run happened. */
export function sarifFingerprint(parts: ReadonlyArray<string | number | null | undefined>): string {
  return createHash("sha256")
    .update(JSON.stringify(parts.map((p) => p ?? null)))
    .digest("hex")
    .slice(0, 32);
}

/** A rule of `tool.driver.rules`. */
export interface SarifRule {
  id: string;
  shortDescription: { text: string };
  help: { text: string };
  helpUri: string;
  defaultConfiguration: { level: SarifLevel };
}

export type SarifLevel = "error" | "warning" | "note";

/** `tool` of a run: vsk's driver with the rules the results name. */
export function sarifDriver(
  tool: SarifTool,
  fullName: string,
  rules: readonly SarifRule[],
): { driver: Record<string, unknown> } {
  return {
    driver: {
      name: "vsk",
      fullName,
      version: tool.version,
      semanticVersion: tool.version,
      informationUri: tool.informationUri,
      rules,
    },
  };
}
