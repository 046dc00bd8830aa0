/**
 * The rules of the service spec that a published JSON Schema cannot state, declared once as
 * data. Each entry names the spec model (A, B or C of the spec, matched to a configured model by
 * its alias `modelA`/`modelB`/`modelC` or its `rules` setting) and the endpoint it applies to.
 * The checks and messages live in `templates/support.ts`; the emitted validators and the
 * linter both run these same entries.
 */
import type { RuleSpec } from "../../templates/support.js";

export type SpecModel = "modelA" | "modelB" | "modelC";

/** `<spec model>/<endpoint>` → rules, in the order they are checked. */
export const SPEC_RULES: Readonly<Record<string, readonly RuleSpec[]>> = {
  "modelA/keyframes-to-video": [
    // spec 2.2: "Must be unique across the keyframes of one request."
    { id: "frame-index-unique", kind: "uniqueItemField", array: "/keyframes", field: "frame_index", spec: "2.2" },
    // spec 2.2, 4.3, 8: "At most duration * 24"; duration defaults to 5 (4.3), 24 fps (8)
    {
      id: "frame-index-within-duration",
      kind: "itemFieldWithinDuration",
      array: "/keyframes",
      field: "frame_index",
      duration: "/duration",
      defaultDuration: 5,
      framesPerSecond: 24,
      spec: "2.2",
    },
  ],
  "modelB/reference-to-video": [
    // spec 4.4: file_url and web_url "require enable_thinking=true"
    {
      id: "file-url-requires-thinking",
      kind: "requiresFlag",
      field: "/file_url",
      flag: "/enable_thinking",
      spec: "4.4",
    },
    { id: "web-url-requires-thinking", kind: "requiresFlag", field: "/web_url", flag: "/enable_thinking", spec: "4.4" },
  ],
  "modelC/text-to-video": [
    // spec 4.5, 8: "-1 means automatic; any other value must be at least 4"
    {
      id: "duration-auto-or-range",
      kind: "integerInSetOrRange",
      field: "/duration",
      values: [-1],
      valueMeaning: "automatic",
      min: 4,
      max: 15,
      spec: "4.5",
    },
    // spec 4.5, 8: recommendations, "not stated as hard limits": warnings only
    {
      id: "prompt-length-recommendation",
      kind: "promptLengthRecommendation",
      field: "/prompt",
      maxCjkCharacters: 500,
      maxWords: 1000,
      spec: "4.5",
    },
  ],
};

/** The id of the warning for a field the endpoint does not list (spec 4.1). */
export const UNKNOWN_FIELD_RULE = "unknown-field";
