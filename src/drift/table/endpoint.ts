/** The endpoint rows of the change table: an endpoint removed, added, or no longer queue-shaped (spec 4.1). */
import type { ChangeKind } from "./row.js";

export const ENDPOINT_ROWS = [
  {
    kind: "endpoint/removed",
    id: "endpoint-removed",
    direction: "endpoint",
    severity: "breaking",
    text: "endpoint removed: requests to {value} will fail",
  },
  {
    kind: "endpoint/added",
    id: "endpoint-added",
    direction: "endpoint",
    severity: "safe",
    text: "new endpoint {value}",
  },
  {
    kind: "endpoint/method-changed",
    id: "endpoint-method-changed",
    direction: "endpoint",
    severity: "breaking",
    text: "{value}: method changed from {from} to {to}: requests sent with {from} will fail",
  },
  {
    kind: "endpoint/request-media-type-changed",
    id: "endpoint-request-media-type-changed",
    direction: "endpoint",
    severity: "breaking",
    text: "{value}: request body media type changed from {from} to {to}: requests sent as {from} will fail",
  },
  {
    kind: "endpoint/response-status-changed",
    id: "endpoint-response-status-changed",
    direction: "endpoint",
    severity: "breaking",
    text: "{value}: success status changed from {from} to {to}: clients that expect {from} will treat it as a failure",
  },
  {
    kind: "endpoint/response-media-type-changed",
    id: "endpoint-response-media-type-changed",
    direction: "endpoint",
    severity: "breaking",
    text: "{value}: response media type changed from {from} to {to}: clients that parse {from} will fail",
  },
] as const satisfies readonly ChangeKind[];
