/**
 * Stage 2, load / normalize: a model's published document in, one `EndpointModel` per
 * endpoint out. Pure functions, no I/O (ARCHITECTURE.md, "One pipeline, five stages").
 */
export type {
  EndpointModel,
  JsonSchema,
  JsonSchemaObject,
  ModelSchema,
  OperationModel,
  SchemaOrigin,
} from "./types.js";
export { SchemaLoadError } from "./load-error.js";
export { followRef, followRefs, refTokens, resolveRef } from "./ref.js";
export { loadModelDocument, parseModelText, splitModelId, type LoadOptions } from "./load.js";
export { bareMediaType } from "./operation.js";
export { otherModelNamed } from "./identity.js";
export { normalizeNullable, nullableInner, NULL_SCHEMA, ANNOTATIONS } from "./nullable.js";
export { transformSchema, forEachSchema, isSchemaObject, defineOwn, shallowSchema, PROTOTYPE_MEMBERS } from "./walk.js";
export { findUnsafePattern, superLinearReason, type UnsafePattern } from "./unsafe-patterns.js";
