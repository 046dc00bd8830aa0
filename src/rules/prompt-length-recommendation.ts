/**
 * Rule kind `promptLengthRecommendation`: a warning (never an error) when a text is longer
 * than recommended. Spec 4.5: model C's prompt is "Chinese text (recommended at most 500
 * characters) or English text (recommended at most 1000 words); the recommendations are not
 * stated as hard limits" (model C, text-to-video).
 *
 * Shape match (`prompt-length-recommendation`): a top-level string `prompt` whose description
 * states both recommendations ("recommended at most N characters" and "recommended at most M
 * words"); N and M are taken from there. Every model has a prompt: only the stated
 * recommendation makes the rule apply.
 */
import {
  diagnostic,
  fieldLabel,
  receivedOf,
  redacted,
  redactPointerOnce,
  valueAt,
  type Diagnostic,
  type InvalidPointers,
} from "../diagnostics/index.js";
import type { JsonSchemaObject } from "../schema/index.js";
import { key, label, topLevel, type RuleKind } from "./define.js";
import { isMisfit, misfit, stringField, type Misfit } from "./shape.js";

// #region runtime (copied into the generated support module: no imports in here)
/** Recommended text lengths, in Chinese characters and in English words (spec 4.5): warnings only. */
export interface PromptLengthRecommendationRule {
  id: string;
  kind: "promptLengthRecommendation";
  /** JSON Pointer of the text */
  field: string;
  maxCjkCharacters: number;
  maxWords: number;
  /** the spec section, quoted in the message */
  spec: string;
}

/**
 * The recommendation's "characters" (spec 4.5, "Chinese text"): Han ideographs (CJK Unified
 * Ideographs and Extension A, Compatibility Ideographs), Chinese punctuation (CJK Symbols and
 * Punctuation, U+3000–303F: 、。「」) and full-width forms (U+FF00–FFEF: ，！？（）).
 */
const CJK = /[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]/g;
/** What the count above holds, said in the message. */
const CJK_COUNTED = "Chinese characters (Han, Chinese punctuation and full-width forms)";
const WORD = /[A-Za-z0-9'’-]+/g;

/** How often a global regex matches, without collecting the matches (a 50 MB prompt stays cheap). */
function countMatches(pattern: RegExp, text: string): number {
  pattern.lastIndex = 0;
  let n = 0;
  while (pattern.exec(text) !== null) n++;
  return n;
}

/** spec 4.5: a recommendation, never a limit; `counted` says what was counted */
export const promptLengthRecommendationMessage = (
  count: number,
  counted: string,
  limit: number,
  spec: string,
): string => `${count} ${counted}, more than the recommended ${limit} (spec ${spec}); the service accepts it`;

/** spec 4.5, 8: recommended at most 500 Chinese characters or 1000 English words; not a hard limit */
export function checkPromptLengthRecommendation(
  rule: PromptLengthRecommendationRule,
  input: Record<string, unknown>,
  _invalid: InvalidPointers,
  _max: number,
  worded: boolean,
): Diagnostic[] {
  const text = valueAt(input, rule.field);
  if (typeof text !== "string") return [];
  const cjk = countMatches(CJK, text);
  const words = countMatches(WORD, text);
  const out: Diagnostic[] = [];
  if (!worded) {
    const n = (cjk > rule.maxCjkCharacters ? 1 : 0) + (words > rule.maxWords ? 1 : 0);
    for (let i = 0; i < n; i++) out.push(redacted("warning", redactPointerOnce(rule.field), rule.id, ""));
    return out;
  }
  if (cjk > rule.maxCjkCharacters)
    out.push(
      diagnostic(
        "warning",
        rule.field,
        rule.id,
        `${fieldLabel(rule.field)}: ${promptLengthRecommendationMessage(cjk, CJK_COUNTED, rule.maxCjkCharacters, rule.spec)}`,
        { kind: rule.kind, unit: "characters", limit: rule.maxCjkCharacters, counted: cjk },
        receivedOf(text),
      ),
    );
  if (words > rule.maxWords)
    out.push(
      diagnostic(
        "warning",
        rule.field,
        rule.id,
        `${fieldLabel(rule.field)}: ${promptLengthRecommendationMessage(words, "English words", rule.maxWords, rule.spec)}`,
        { kind: rule.kind, unit: "words", limit: rule.maxWords, counted: words },
        receivedOf(text),
      ),
    );
  return out;
}
// #endregion runtime

function quickPromptLengthRecommendation(rule: PromptLengthRecommendationRule): string | undefined {
  const field = topLevel(rule.field);
  if (field === undefined) return undefined;
  // at most one Chinese character, and less than one word, per UTF-16 code unit
  const limit = Math.min(rule.maxCjkCharacters, rule.maxWords);
  return `{ const t = input${key(field)}; if (typeof t === "string" && t.length > ${JSON.stringify(limit)}) return false; }`;
}

const promptLength: PromptLengthRecommendationRule = {
  id: "prompt-length-recommendation",
  kind: "promptLengthRecommendation",
  field: "/prompt",
  maxCjkCharacters: 500,
  maxWords: 1000,
  spec: "4.5",
};

const CHARACTERS = /recommended at most (\d+) (?:Chinese )?characters/i;
const WORDS = /recommended at most (\d+) (?:English )?words/i;
const NEEDS = 'a string whose description states "recommended at most N characters" and "… M words"';

/** Model C's prompt: the recommendations as its description states them. */
function matchPromptLength(input: JsonSchemaObject): PromptLengthRecommendationRule | Misfit {
  const prompt = stringField(input, "prompt");
  if (isMisfit(prompt)) return misfit("prompt", NEEDS, prompt.found);
  const text = typeof prompt.description === "string" ? prompt.description : "";
  const characters = CHARACTERS.exec(text)?.[1];
  const words = WORDS.exec(text)?.[1];
  if (characters === undefined || words === undefined)
    return misfit("prompt", NEEDS, text === "" ? "no description" : "a description without both recommendations");
  return { ...promptLength, maxCjkCharacters: Number(characters), maxWords: Number(words) };
}

export const promptLengthRecommendation: RuleKind<PromptLengthRecommendationRule> = {
  kind: "promptLengthRecommendation",
  file: "prompt-length-recommendation",
  severity: "warning",
  definitions: [
    {
      id: promptLength.id,
      specModel: "modelC",
      endpoint: "text-to-video",
      spec: promptLength,
      match: matchPromptLength,
    },
  ],
  check: checkPromptLengthRecommendation,
  message: promptLengthRecommendationMessage,
  quick: quickPromptLengthRecommendation,
  describe: (rule) => ({
    parts: [
      { code: label(rule.field) },
      `: recommended at most ${rule.maxCjkCharacters} Chinese characters or ${rule.maxWords} English words`,
    ],
    fields: [rule.field],
    spec: rule.spec,
  }),
};
