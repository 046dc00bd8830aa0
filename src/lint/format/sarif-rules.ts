/**
 * What `--format sarif` says of each rule in `tool.driver.rules` (issue 42.1): a short
 * description, the help text and the docs page and anchor its `helpUri` points at. docs/rules.md
 * has a heading per rule with the same help text (test/lint/sarif.test.ts holds the two together);
 * preflight's rules point at docs/preflight.md's table. A rule of a newer vsk that is not listed
 * here gets the generic entry, so the log always names every rule it uses.
 */

export interface RuleHelp {
  short: string;
  help: string;
  /** `<page>.md#<anchor>` under docs/ */
  doc: string;
}

/** `schema/<keyword>`: every published-schema keyword, one entry for all. */
function schemaRule(rule: string): RuleHelp {
  const keyword = rule.slice("schema/".length);
  return {
    short: `The field breaks the published schema's ${keyword} keyword.`,
    help: "The payload breaks the endpoint's published JSON Schema (the service rejects it with invalid_input, spec 7.2). The message names the field and says what the schema expects and what was received. Fix the field; if the service's schema changed, run vsk pull and vsk generate.",
    doc: "rules.md#schema-keywords",
  };
}

const PREFLIGHT = "preflight.md#what-it-reports";

/** Every rule vsk lint reports but `schema/…`, by id. */
export const RULE_HELP: Readonly<Record<string, RuleHelp>> = {
  "frame-index-unique": {
    short: "Keyframes must not share a frame_index.",
    help: "Two or more keyframes have the same frame_index (spec 2.2); the service rejects the request. Give each keyframe its own frame_index.",
    doc: "rules.md#frame-index-unique",
  },
  "frame-index-within-duration": {
    short: "A keyframe's frame_index must lie within the video.",
    help: "A keyframe's frame_index is past the last frame of the video: frame_index must be at most duration × 24 (spec 2.2, 4.3, 8). Lower the frame_index or raise the duration.",
    doc: "rules.md#frame-index-within-duration",
  },
  "file-url-requires-thinking": {
    short: "file_url needs enable_thinking: true.",
    help: "file_url is set (present, not null, not empty) but enable_thinking is not true (spec 4.4). Set enable_thinking to true, or remove file_url.",
    doc: "rules.md#file-url-requires-thinking",
  },
  "web-url-requires-thinking": {
    short: "web_url needs enable_thinking: true.",
    help: "web_url is set (present, not null, not empty) but enable_thinking is not true (spec 4.4). Set enable_thinking to true, or remove web_url.",
    doc: "rules.md#web-url-requires-thinking",
  },
  "duration-auto-or-range": {
    short: "duration must be -1 (automatic) or within the model's range.",
    help: "duration is neither -1 (automatic) nor from 4 to the schema's maximum (spec 4.5, 8). Use -1 or a value in the range.",
    doc: "rules.md#duration-auto-or-range",
  },
  "prompt-length-recommendation": {
    short: "The prompt is longer than the schema recommends.",
    help: "The prompt has more Chinese characters or English words than the endpoint's schema recommends (spec 4.5, 8). A warning: the service accepts it, but may follow a shorter prompt better.",
    doc: "rules.md#prompt-length-recommendation",
  },
  "unknown-field": {
    short: "The field is not one the endpoint lists.",
    help: "The payload has a field the endpoint's schema does not list (spec 4.1); a near miss comes with a did-you-mean. A warning: check the spelling, or remove the field.",
    doc: "rules.md#unknown-field",
  },
  "lint/invalid-json": {
    short: "The payload is not valid JSON.",
    help: "The file, or this NDJSON line, is not valid JSON; the message says where it goes wrong. The other lines are still linted. Fix the JSON.",
    doc: "rules.md#lintinvalid-json",
  },
  "lint/invalid-utf8": {
    short: "The input has bytes that are not UTF-8.",
    help: "The file, or this line, has bytes that are not UTF-8. Save the file as UTF-8.",
    doc: "rules.md#lintinvalid-utf8",
  },
  "lint/binary-file": {
    short: "The input is a binary file, not JSON.",
    help: "The input looks like a binary file (an image, an archive, a compressed file under another name), not JSON text. Lint the request payloads, not the media.",
    doc: "rules.md#lintbinary-file",
  },
  "lint/empty-file": {
    short: "The input is empty.",
    help: "The file (or an NDJSON log) holds no payload. Remove it from the inputs, or write the payload.",
    doc: "rules.md#lintempty-file",
  },
  "lint/line-too-long": {
    short: "The NDJSON line, or the .json file, is too long to read.",
    help: "The NDJSON line is longer than --max-line-bytes (default 8 MiB), or the .json file is larger than 256 MiB, and it was skipped without being read. Raise --max-line-bytes, or split the payload.",
    doc: "rules.md#lintline-too-long",
  },
  "lint/duplicate-key": {
    short: "A key is repeated in one object.",
    help: "A key appears twice in one JSON object: JSON.parse keeps the last, another parser may keep the first. A warning: keep one of them.",
    doc: "rules.md#lintduplicate-key",
  },
  "lint/unknown-endpoint": {
    short: "The payload names a model or endpoint that is not configured.",
    help: "The envelope's model or endpoint is not one of the configured models' endpoints; the message lists the known ones. Fix the name, or add the model to vsk.config.json.",
    doc: "rules.md#lintunknown-endpoint",
  },
  "lint/no-endpoint": {
    short: "Nothing says which endpoint the payload is for.",
    help: "The payload is not an envelope ({model, endpoint, input}) and no --model and --endpoint were given, so it cannot be checked. Wrap it in an envelope, or pass --model and --endpoint.",
    doc: "rules.md#lintno-endpoint",
  },
  "input-fetch-failed": {
    short: "The service could not fetch a referenced file.",
    help: "--preflight: the service could not fetch the file a URL field names (HTTP status, redirect, private address, size, timeout); the message says why and whether a retry may succeed.",
    doc: PREFLIGHT,
  },
  "image-format": {
    short: "The image is not PNG, JPEG or WebP.",
    help: "--preflight: the image's bytes are not PNG, JPEG or WebP (spec 2.2), whatever its name says.",
    doc: PREFLIGHT,
  },
  "video-frame-rate": {
    short: "The reference video runs under 16 fps.",
    help: "--preflight: the reference video's frame rate is under 16 fps.",
    doc: PREFLIGHT,
  },
  "reference-videos-total-duration": {
    short: "The reference videos add up to more than 15 s.",
    help: "--preflight: the reference videos add up to more than 15 s; the message names each one's share.",
    doc: PREFLIGHT,
  },
  "reference-audios-total-duration": {
    short: "The reference audios add up to more than 15 s.",
    help: "--preflight: the reference audios add up to more than 15 s.",
    doc: PREFLIGHT,
  },
  "media-unreadable": {
    short: "A reference video's or audio's duration could not be read.",
    help: "--preflight: a reference video or audio was fetched, but its duration or frame rate could not be read, so its limits were not checked. A warning.",
    doc: PREFLIGHT,
  },
};

/** A rule this version does not list (a newer vsk's): the rules page as a whole. */
const UNLISTED: RuleHelp = {
  short: "A rule of vsk lint.",
  help: "A finding of vsk lint; the message says what is wrong with the field.",
  doc: "rules.md#rules-of-vsk-lint",
};

/** What `tool.driver.rules` says of a rule id. */
export function ruleHelp(rule: string): RuleHelp {
  if (rule.startsWith("schema/")) return schemaRule(rule);
  return Object.hasOwn(RULE_HELP, rule) ? RULE_HELP[rule]! : UNLISTED;
}
