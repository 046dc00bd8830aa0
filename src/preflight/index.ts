/**
 * Stage "preflight" (issue 26; spec 2.2, 4.4, 7.2, 8): the files a request references, fetched
 * the way the service will fetch them, and checked on their bytes. Opt-in: it goes to the
 * network. fields.ts finds the referencing fields by shape; address.ts says which hosts the
 * service may not fetch from; source.ts reads bytes (Range requests, data: URIs), through
 * connect.ts's connector pinned to checked addresses; media.ts reads what a file's parse
 * needs, within a byte budget; parse.ts names formats and reads durations and frame rates
 * (isobmff.ts checks an MP4's boxes first), in the parser process that sandbox.ts bounds
 * (issue 37); diagnostics.ts words the findings; lru.ts bounds what a run keeps;
 * preflight.ts runs it all, once per URL.
 */
export {
  preflight,
  createPreflight,
  PREFLIGHT_DEFAULTS,
  type PreflightOptions,
  type PreflightTarget,
  type PreflightRun,
  type PreflightStats,
} from "./preflight.js";
export { PREFLIGHT_RULES, MEDIA_LIMITS, type PreflightDiagnostic, type PreflightVoice } from "./diagnostics.js";
export {
  mediaFieldsOf,
  referencesOf,
  SPEC_MEDIA_FIELDS,
  type MediaField,
  type MediaKind,
  type MediaReference,
} from "./fields.js";
export { notPublic, notPublicKind, embeddedIPv4, AllowHosts, type NotPublic, type Resolver } from "./address.js";
export type { FetchFailure } from "./source.js";
export { inspect, type MediaInfo } from "./media.js";
