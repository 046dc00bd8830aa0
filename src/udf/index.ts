/**
 * `vsk udf` (issue 41): the generated validators as warehouse JavaScript UDFs, BigQuery and
 * Snowflake, giving `vsk lint`'s findings for each request body where the logs are kept.
 */
export {
  DEFAULT_LIBRARY,
  DEFAULT_NAME,
  SQL_NAME,
  LIMITS,
  snowflakeBody,
  TARGETS,
  udfFiles,
  udfScript,
  UdfSizeError,
  type Target,
  type UdfFile,
  type UdfOptions,
} from "./warehouse.js";
export { minify } from "./minify.js";
export { staleUdf, writeUdf } from "./write.js";
