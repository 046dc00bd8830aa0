/**
 * Objects: `properties` and `required` (each property removed, added, made optional or
 * required, then compared one level down) and `additionalProperties`.
 */
import type { JsonSchemaObject } from "../../../schema/index.js";
import { isSchemaObject } from "../../../schema/index.js";
import { canonical, child, viewSchema, type Alternative } from "../../view.js";
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
  // unlisted properties `additionalProperties` does not govern fall to `unevaluatedProperties`
  // (issue 39); one that differs between the sides is its own change (schema-keywords.ts)
  const fallback = canonical(snapshot.schema.unevaluatedProperties) === canonical(source.schema.unevaluatedProperties);
  const vb = snapshot.schema.additionalProperties ?? (fallback ? snapshot.schema.unevaluatedProperties : undefined);
  const va = source.schema.additionalProperties ?? (fallback ? source.schema.unevaluatedProperties : undefined);
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
  const viewOf = (alt: Alternative, s: { props: JsonSchemaObject }, root: Walk["before"], name: string) =>
    viewSchema(own(s.props, name) ? s.props[name] : true, child(alt.at, "properties", name), root, alt.refs);
  for (const name of names) {
    const path = [...field, name];
    // a response property that is write-only is never returned (issue 29.5)
    const writeOnly = (alt: Alternative, s: { props: JsonSchemaObject }, root: Walk["before"]): boolean =>
      walk.direction === "response" &&
      own(s.props, name) &&
      viewOf(alt, s, root, name).annotations.get("writeOnly")?.value === true;
    const [woB, woA] = [writeOnly(snapshot, sb, walk.before), writeOnly(source, sa, walk.after)];
    if (woB) {
      // issue 39: no longer write-only, so returned now: clients receive a property they never got
      if (!woA && own(sa.props, name))
        walk.emit(
          "response/property-no-longer-write-only",
          path,
          viewOf(snapshot, sb, walk.before, name).annotations.get("writeOnly")?.at ?? propAt(snapshot, sb, name),
          propAt(source, sa, name),
        );
      // what the client never got cannot change for it
      compareNamed(name, path, neverReturned(walk), false, !woA);
      continue;
    }
    compareNamed(name, path, walk, woA);
  }

  /** One property's changes: removed, added, required or not, then its schema one level down. */
  function compareNamed(name: string, path: string[], walk: Walk, becameWriteOnly = false, wasWriteOnly = false): void {
    const inB = own(sb.props, name) || sb.required.includes(name);
    const inA = own(sa.props, name) || sa.required.includes(name);
    const reqB = sb.required.includes(name);
    const reqA = sa.required.includes(name);
    if (becameWriteOnly && inB && inA) {
      const pointer =
        viewOf(source, sa, walk.after, name).annotations.get("writeOnly")?.at ?? child(source.at, "properties", name);
      walk.emit(
        reqB ? "response/required-property-became-write-only" : "response/optional-property-became-write-only",
        path,
        propAt(snapshot, sb, name),
        pointer,
      );
    }
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
      return;
    }
    if (!inB && inA) {
      if (own(sa.props, name)) {
        const prior = priorSchema(snapshot, name, field, walk);
        if (prior !== undefined)
          walk.descend(
            viewSchema(prior.schema, prior.at, walk.before, snapshot.refs),
            viewOf(source, sa, walk.after, name),
            path,
            walk,
          );
      }
      const kind =
        walk.direction === "request"
          ? reqA
            ? "request/new-required-property"
            : "request/new-optional-property"
          : closedTo(snapshot, name)
            ? "response/property-added-to-closed-object"
            : reqA
              ? "response/required-property-added"
              : "response/optional-property-added";
      walk.emit(kind, path, propAt(snapshot, sb, name), propAt(source, sa, name));
      return;
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
      const vb = viewOf(snapshot, sb, walk.before, name);
      const va = viewOf(source, sa, walk.after, name);
      // said above: not the annotation compared as written
      if (becameWriteOnly || wasWriteOnly) for (const v of [vb, va]) v.annotations.delete("writeOnly");
      walk.descend(vb, va, path, walk);
    }
  }
}

/** Whether a schema allows no property of this name (`additionalProperties`/`unevaluatedProperties: false`, no pattern matching it). */
function closedTo(alt: Alternative, name: string): boolean {
  const closed = alt.schema.additionalProperties === false || alt.schema.unevaluatedProperties === false;
  return closed && matchingPattern(alt, name) === undefined;
}

/** The `patternProperties` pattern of a schema that matches a property name, if any. */
function matchingPattern(alt: Alternative, name: string): string | undefined {
  const patterns = isSchemaObject(alt.schema.patternProperties) ? alt.schema.patternProperties : {};
  return Object.keys(patterns).find((pattern) => {
    try {
      return new RegExp(pattern, "u").test(name);
    } catch {
      return false;
    }
  });
}

/**
 * What the snapshot said of a property it did not list (issue 39): the `patternProperties`
 * schema whose pattern matches the name, else an `additionalProperties` schema; in a subschema
 * that applies beside its object's own (`then`, `else`, a `dependentSchemas` value: `conjunctAt`),
 * nothing (`{}`), since the object's own schema of it still applies. A new property is then
 * compared with it, so a constraint added there is never only "a new optional property". An
 * open object (no `additionalProperties`) gives none: by the convention every API differ shares,
 * a client does not send properties the schema does not describe.
 */
function priorSchema(
  alt: Alternative,
  name: string,
  field: string[],
  walk: Walk,
): { schema: unknown; at: string } | undefined {
  const pattern = matchingPattern(alt, name);
  if (pattern !== undefined)
    return {
      schema: (alt.schema.patternProperties as JsonSchemaObject)[pattern],
      at: child(alt.at, "patternProperties", pattern),
    };
  const extra = alt.schema.additionalProperties;
  if (isSchemaObject(extra) && Object.keys(extra).length > 0)
    return { schema: extra, at: child(alt.at, "additionalProperties") };
  if (walk.conjunctAt === JSON.stringify(field)) return { schema: {}, at: alt.at };
  return undefined;
}

/**
 * The walk below a response property that was write-only: never returned, so no change there
 * reaches a client; each is reported as such (safe), never dropped.
 */
function neverReturned(walk: Walk): Walk {
  return {
    ...walk,
    emit: (kind, field, pb, pa, params = {}) =>
      walk.emit("response/write-only-property-changed", field, pb, pa, {
        ...params,
        value: kind.split("/")[1],
      }),
  };
}
