/**
 * Which models vsk works on, where their schemas come from, and where its files go.
 * With no `vsk.config.json` the embedded default applies: the three models of the service
 * spec under placeholder ids (spec 4.1: "The model identifiers are placeholders").
 */
export type { ConfigProblem } from "./check.js";
export {
  CONFIG_FILE,
  CONFIG_SCHEMA,
  ConfigError,
  DEFAULT_MODELS,
  describeModels,
  findConfigProblem,
  findModel,
  loadConfig,
  type LoadConfigOptions,
  MODEL_ID,
  type ModelRef,
  onExampleModels,
  PACKAGE_ROOT,
  parseConfig,
  snapshotWriteDir,
  type VskConfig,
} from "./load.js";
export { distrust, TRUSTED_PATHS_ENV, trustHint } from "./trust.js";
export { API_KEY_ENV, withholdConfiguredKey } from "./secrets.js";
