/**
 * What a prediction record, a queue status update, a webhook delivery or a saved result endpoint
 * response (`{status, headers, body}`, `curl -i` output or a raw body) means for a person: failed or not, code and reason, retry
 * or not and why, and what to do (the client actions of spec 7.2). All reading is done by
 * `src/runtime`; this stage detects the kind of input and words the reading (`vsk explain`).
 */
export { readHttpText, type HttpText } from "./http-text.js";
export { explanationJson, EXPLAIN_SCHEMA, EXPLAIN_VERSION } from "./json.js";
export { explain, explainText, type Explanation, type InputKind, orderKeys, renderText } from "./explanation.js";
