/**
 * Structural diff of two loaded models (stage 2's `ModelSchema`s): endpoints (`operations.ts`),
 * then each endpoint's bodies walked together (`walk.ts`, `coverage.ts` for anyOf, `keywords/`
 * one file per keyword group), every difference named by its kind in `../table/`.
 */
export { diffModels } from "./operations.js";
export { diffEndpoint } from "./walk.js";
export { NAME_TOKEN, UNLISTED, type Finding, type FindingParams, type Trigger } from "./finding.js";
