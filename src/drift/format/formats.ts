/**
 * The report formats of `vsk drift --format`: one row each. The CLI derives its choices, its help
 * and its dispatch from this table; a new format is one file in this folder and one row here.
 */
import type { DriftReport } from "../types.js";
import { formatGithub } from "./github.js";
import { formatJson } from "./json.js";
import { formatMarkdown } from "./markdown.js";
import { formatSarif } from "./sarif.js";
import { formatText } from "./text.js";

export interface DriftFormat {
  /** a few words for `--help` */
  describe: string;
  /** `files` maps a model id to its snapshot file, for formats that point at files (github) */
  render: (report: DriftReport, files: ReadonlyMap<string, string>) => string;
}

export const FORMATS = {
  text: { describe: "for people at a terminal", render: (report) => formatText(report) },
  markdown: { describe: "one pull-request comment", render: (report) => formatMarkdown(report) },
  json: { describe: "schemas/drift-report.schema.json", render: (report) => formatJson(report) },
  github: {
    describe: "workflow annotations; the Markdown report goes to $GITHUB_STEP_SUMMARY",
    render: (report, files) => formatGithub(report, files),
  },
  sarif: {
    describe: "SARIF 2.1.0 for GitHub code scanning, upload-sarif",
    render: (report, files) => formatSarif(report, files),
  },
} as const satisfies Record<string, DriftFormat>;

export type FormatName = keyof typeof FORMATS;
export const FORMAT_NAMES = Object.keys(FORMATS) as FormatName[];
