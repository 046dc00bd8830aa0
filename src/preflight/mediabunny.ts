/**
 * mediabunny, the WebM and Matroska reader of the preflight (spec 8: a video's duration and frame
 * rate), as the rest of vsk imports it. The package does not depend on mediabunny: the build
 * replaces this module's JavaScript with mediabunny's own code bundled in (scripts/vendor.mjs, its
 * MPL-2.0 notice kept), because mediabunny depends on `@types/dom-webcodecs` and
 * `@types/dom-mediacapture-transform`, which TypeScript 5 loads into every program of a project
 * that installs them: a consumer's one-line `tsc` failed once vsk was installed.
 */
export { Input, StreamSource, WEBM, MATROSKA } from "mediabunny";
