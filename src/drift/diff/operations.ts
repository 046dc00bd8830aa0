/**
 * The endpoint level of the diff: endpoints removed and added, and an endpoint whose method,
 * media type or success status changed (spec 4.1: the queue submits a POST with a JSON body);
 * each endpoint both sides have is then walked by `walk.ts`.
 */
import type { EndpointModel, ModelSchema, OperationModel } from "../../schema/index.js";
import { formatPointer } from "../../json/index.js";
import { bareMediaType } from "../../schema/index.js";
import type { ChangeKindName } from "../table/index.js";
import type { Finding, FindingParams } from "./finding.js";
import { diffEndpoint } from "./walk.js";

const pathPointer = (path: string, ...tokens: string[]): string => formatPointer(["paths", path, ...tokens]);

/**
 * Every difference between two loaded models: endpoints removed and added, an endpoint whose
 * method, media type or success status changed (spec 4.1: the queue submits a POST with a JSON
 * body), then each endpoint's request and response.
 */
export function diffModels(before: ModelSchema, after: ModelSchema): Finding[] {
  const out: Finding[] = [];
  const afterByName = new Map(after.endpoints.map((e) => [e.endpoint, e]));
  const beforeByName = new Map(before.endpoints.map((e) => [e.endpoint, e]));
  const endpointFinding = (
    kind: ChangeKindName,
    endpoint: string,
    pb: string | null,
    pa: string | null,
    params: FindingParams,
  ): Finding => ({
    kind,
    model: before.model,
    endpoint,
    direction: "endpoint",
    field: [],
    before: pb,
    after: pa,
    params,
  });
  for (const snapshot of before.endpoints) {
    const source = afterByName.get(snapshot.endpoint);
    if (source !== undefined) {
      out.push(...compareOperations(snapshot, operationOf(source), endpointFinding));
      out.push(...diffEndpoint(snapshot, source));
      continue;
    }
    // still there, but no longer queue-shaped: say what changed, not "removed"
    const others = (after.operations ?? []).filter((o) => o.endpoint === snapshot.endpoint);
    const other = others.find((o) => o.method === "POST") ?? others[0];
    const found = other === undefined ? [] : compareOperations(snapshot, other, endpointFinding);
    if (found.length > 0) out.push(...found);
    else
      out.push(
        endpointFinding("endpoint/removed", snapshot.endpoint, pathPointer(snapshot.operationPath), null, {
          value: `POST ${snapshot.queuePath}`,
        }),
      );
  }
  for (const source of after.endpoints) {
    if (!beforeByName.has(source.endpoint))
      out.push(
        endpointFinding("endpoint/added", source.endpoint, null, pathPointer(source.operationPath), {
          value: `POST ${source.queuePath}`,
        }),
      );
  }
  return out;
}

function operationOf(e: EndpointModel): OperationModel {
  return {
    endpoint: e.endpoint,
    operationPath: e.operationPath,
    method: "POST",
    requestMediaType: e.requestMediaType,
    responseStatus: e.responseStatus,
    responseMediaType: e.responseMediaType,
  };
}

/** Method, request media type, success status and response media type of an endpoint on both sides. */
/** Builds an endpoint-level finding of one endpoint. */
type EndpointFinding = (
  kind: ChangeKindName,
  endpoint: string,
  pb: string | null,
  pa: string | null,
  p: FindingParams,
) => Finding;

function compareOperations(snapshot: EndpointModel, source: OperationModel, finding: EndpointFinding): Finding[] {
  const out: Finding[] = [];
  const value = `POST ${snapshot.queuePath}`;
  const method = source.method.toLowerCase();
  const at = (op: { operationPath: string }, m: string, ...tokens: string[]): string =>
    pathPointer(op.operationPath, m, ...tokens);
  const same = (x: string | null, y: string | null): boolean =>
    x !== null && y !== null && bareMediaType(x) === bareMediaType(y);
  if (source.method !== "POST") {
    out.push(
      finding("endpoint/method-changed", snapshot.endpoint, at(snapshot, "post"), at(source, method), {
        value,
        from: "POST",
        to: source.method,
      }),
    );
    return out; // what a PUT reads and answers is not the queue's
  }
  if (!same(snapshot.requestMediaType, source.requestMediaType))
    out.push(
      finding(
        "endpoint/request-media-type-changed",
        snapshot.endpoint,
        at(snapshot, "post", "requestBody"),
        at(source, method, "requestBody"),
        {
          value,
          from: snapshot.requestMediaType,
          to: source.requestMediaType ?? "(no request body)",
        },
      ),
    );
  if (snapshot.responseStatus !== source.responseStatus)
    out.push(
      finding(
        "endpoint/response-status-changed",
        snapshot.endpoint,
        at(snapshot, "post", "responses", snapshot.responseStatus),
        source.responseStatus === null
          ? at(source, method, "responses")
          : at(source, method, "responses", source.responseStatus),
        { value, from: snapshot.responseStatus, to: source.responseStatus ?? "(no success response)" },
      ),
    );
  else if (!same(snapshot.responseMediaType, source.responseMediaType))
    out.push(
      finding(
        "endpoint/response-media-type-changed",
        snapshot.endpoint,
        at(snapshot, "post", "responses", snapshot.responseStatus),
        at(source, method, "responses", source.responseStatus ?? ""),
        { value, from: snapshot.responseMediaType, to: source.responseMediaType ?? "(no content)" },
      ),
    );
  return out;
}
