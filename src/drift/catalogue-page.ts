/**
 * `docs/drift-changes.md`, generated from `CHANGE_CATALOGUE`: one row per change id `vsk drift`
 * can report, each row with an anchor of its id. `node scripts/drift-changes.mjs` writes it; a test checks the committed page is
 * what the catalogue gives.
 */
import { CHANGE_CATALOGUE, type CatalogueEntry } from "./table/index.js";
import { SEVERITY_ORDER, type Direction } from "./types.js";

const cell = (text: string): string => text.replace(/\|/g, "\\|").replace(/</g, "&lt;").replace(/>/g, "&gt;");

const SECTIONS: ReadonlyArray<[Direction, string]> = [
  ["endpoint", "Endpoints (spec 4.1: the queue submits a POST with a JSON body)"],
  ["request", "Request bodies: what the service accepts"],
  ["response", "Response bodies: what clients receive"],
];

/** The Markdown page listing every change id, by direction, in catalogue order. */
export function changeCataloguePage(entries: readonly CatalogueEntry[] = CHANGE_CATALOGUE): string {
  const counts = SEVERITY_ORDER.map((s) => `${entries.filter((e) => e.severity === s).length} ${s}`).join(", ");
  const out = [
    "<!-- Generated from src/drift/table/ by `node scripts/drift-changes.mjs` (after `npm run build`); do not edit. -->",
    "# `vsk drift` change ids",
    "",
    `Every change id \`vsk drift\` can report: ${entries.length} ids (${counts}).`,
    "How they are found and why each verdict is what it is: [drift.md](drift.md). *Example* says whether",
    "a change of that id carries an example payload where one exists (checked with Ajv against both",
    "sides). In descriptions, *field*, *value*, *from* and *to* stand for what the report fills in.",
  ];
  for (const [direction, title] of SECTIONS) {
    const rows = entries.filter((e) => e.direction === direction);
    out.push("", `## ${title}`, "", "| Id | Severity | Example | Description |", "|---|---|---|---|");
    for (const e of rows)
      // an anchor per id (ids are [a-z0-9-]): SARIF's helpUri of a drift result points at its row (src/drift/format/sarif.ts)
      out.push(
        `| <a id="${e.id}"></a>\`${e.id}\` | ${e.severity} | ${e.example ? "yes" : ""} | ${cell(e.description)} |`,
      );
  }
  return out.join("\n") + "\n";
}
