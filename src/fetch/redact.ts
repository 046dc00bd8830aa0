/**
 * URL redaction for everything the fetch stage prints or records (spec 7.2 rule 3: a message
 * never reflects a URL's query string): the runtime's one implementation.
 */
export { REDACTED_MARK, redactUrl, redactUrlsInText } from "../runtime/index.js";
