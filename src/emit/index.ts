/**
 * Stage 4, emit: from the loaded snapshot, every file of `generated/` (types, builders,
 * precompiled validators, support code, the registry, the queue client), prettier-formatted and
 * deterministic: the same snapshot gives byte-identical files.
 */
export { EmitConfigError, EmitError, emitValidator, rewriteCodeOnly } from "./validator.js";
/** Re-exported for callers of this stage; the configuration lives in src/rules. */
export { createAjv, needsOwnProperties } from "../rules/index.js";
export { simplifySchema } from "./simplify.js";
export { CLIENT_SUPPORT_DIR, clientFiles } from "./client.js";
export { checkOutDir, compareWithDisk, layoutOnDisk, writeGenerated, type Staleness } from "./write.js";
export { differsOnlyInFormatting, howItDiffers, type Difference } from "./layout.js";
export type { GeneratedFile } from "./generated-file.js";
export type { EndpointNames } from "./names.js";
export {
  ajvCache,
  endpointValidator,
  type EmitInput,
  emitTypes,
  endpointExports,
  endpointRules,
  type EndpointRules,
  generateFiles,
  type GenerateOptions,
  type Lang,
  supportFiles,
} from "./generate.js";
export { FormatCache, PRETTIER_OPTIONS } from "./format.js";
