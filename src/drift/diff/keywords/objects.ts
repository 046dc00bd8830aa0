/**
 * Objects: `properties` and `required` (each property removed, added, made optional or
 * required, then compared one level down) and `additionalProperties`.
 */
import type { JsonSchemaObject } from "../../../schema/index.js";
import { isSchemaObject } from "../../../schema/index.js";
import { child, viewSchema, type Alternative } from "../../view.js";
import { at, kindOf, UNLISTED, type FindingParams, type Walk } from "../finding.js";

/** `additionalProperties`: absent or true accepts any, a schema some, false none. */
export function compareAdditionalProperties(
  snapshot: Alternative,
  source: Alternative,
  field: string[],
  walk: Walk,
): void {
  const level = (v: unknown): number =>
    v === undefined || v === true || (isSchemaObject(v) && Object.keys(v).length === 0) ? 2 : v === false ? 0 : 1;
  const vb = snapshot.schema.additionalProperties;
  const va = source.schema.additionalProperties;
  const [lb, la] = [level(vb), level(va)];
  if (lb === la && lb !== 1) return;
  if (lb === 1 && la === 1) {
    // one schema for another (written inline or behind a `$ref`): compared as a property is
    walk.descend(
      viewSchema(vb, child(snapshot.at, "additionalProperties"), walk.before, snapshot.refs),
      viewSchema(va, child(source.at, "additionalProperties"), walk.after, source.refs),
      [...field, UNLISTED],
      walk,
    );
    return;
  }
  const params: FindingParams = {
    keyword: "additionalProperties",
    from: vb ?? true,
    to: va ?? true,
    sample: { schema: snapshot.schema, side: "before" },
  };
  const [pb, pa] = [at(snapshot, "additionalProperties"), at(source, "additionalProperties")];
  walk.emit(
    kindOf(walk.direction, la < lb ? "additional-properties-narrowed" : "additional-properties-widened"),
    field,
    pb,
    pa,
    params,
  );
}

export function compareProperties(snapshot: Alternative, source: Alternative, field: string[], walk: Walk): void {
  const shape = (alt: Alternative): { props: JsonSchemaObject; required: string[]; has: boolean } => {
    const props = isSchemaObject(alt.schema.properties) ? alt.schema.properties : {};
    const required = Array.isArray(alt.schema.required)
      ? alt.schema.required.filter((r): r is string => typeof r === "string")
      : [];
    return { props, required, has: "properties" in alt.schema || "required" in alt.schema };
  };
  const sb = shape(snapshot);
  const sa = shape(source);
  if (!sb.has && !sa.has) return;
  const own = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);
  const names = [...new Set([...Object.keys(sb.props), ...sb.required, ...Object.keys(sa.props), ...sa.required])];
  const requiredAt = (alt: Alternative, list: string[], name: string): string =>
    child(alt.at, "required", String(list.indexOf(name)));
  const propAt = (alt: Alternative, s: { props: JsonSchemaObject }, name: string): string =>
    own(s.props, name)
      ? child(alt.at, "properties", name)
      : "properties" in alt.schema
        ? child(alt.at, "properties")
        : alt.at;
  for (const name of names) {
    const path = [...field, name];
    const inB = own(sb.props, name) || sb.required.includes(name);
    const inA = own(sa.props, name) || sa.required.includes(name);
    const reqB = sb.required.includes(name);
    const reqA = sa.required.includes(name);
    if (inB && !inA) {
      const kind =
        walk.direction === "request"
          ? "request/property-removed"
          : reqB
            ? "response/required-property-removed"
            : "response/optional-property-removed";
      walk.emit(kind, path, propAt(snapshot, sb, name), propAt(source, sa, name), {
        sample: { schema: sb.props[name] ?? {}, side: "before" },
      });
      continue;
    }
    if (!inB && inA) {
      const kind =
        walk.direction === "request"
          ? reqA
            ? "request/new-required-property"
            : "request/new-optional-property"
          : reqA
            ? "response/required-property-added"
            : "response/optional-property-added";
      walk.emit(kind, path, propAt(snapshot, sb, name), propAt(source, sa, name));
      continue;
    }
    if (reqB && !reqA)
      walk.emit(
        kindOf(walk.direction, "property-became-optional"),
        path,
        requiredAt(snapshot, sb.required, name),
        "required" in source.schema ? child(source.at, "required") : source.at,
      );
    if (!reqB && reqA)
      walk.emit(
        kindOf(walk.direction, "property-became-required"),
        path,
        "required" in snapshot.schema ? child(snapshot.at, "required") : snapshot.at,
        requiredAt(source, sa.required, name),
      );
    if (own(sb.props, name) || own(sa.props, name)) {
      const vb = viewSchema(
        own(sb.props, name) ? sb.props[name] : true,
        child(snapshot.at, "properties", name),
        walk.before,
        snapshot.refs,
      );
      const va = viewSchema(
        own(sa.props, name) ? sa.props[name] : true,
        child(source.at, "properties", name),
        walk.after,
        source.refs,
      );
      walk.descend(vb, va, path, walk);
    }
  }
}
