/**
 * Which fields of a request reference a file the service will fetch, found by the endpoint's
 * input-schema shape and the spec's field names (spec 2.2, 4.4), so custom model ids and aliases
 * get the preflight with no configuration, as the cross-field rules do (src/rules/shape.ts).
 */
import type { JsonSchemaObject } from "../schema/index.js";
import { isSchemaObject } from "../schema/index.js";
import { declaredField, typesOf, valueSchema } from "../rules/index.js";

/** What the service does with the file: its kind decides the media checks. */
export type MediaKind = "image" | "video" | "audio" | "document" | "web";

/** One referencing field: a top-level string, an array of strings, or a string field of an array's items. */
export interface MediaField {
  kind: MediaKind;
  /** top-level field name: `file_url`, `reference_videos`, `keyframes` */
  field: string;
  /** `string`: the field is the URL; `array`: each item is one; `items`: each item's `item` field is one */
  form: "string" | "array" | "items";
  /** the items' field for `items` (`image_url`) */
  item?: string;
}

/** The spec's referencing fields (spec 2.2 keyframes[].image_url, 4.4 file_url … reference_audios). */
export const SPEC_MEDIA_FIELDS: readonly MediaField[] = [
  { kind: "image", field: "keyframes", form: "items", item: "image_url" },
  { kind: "image", field: "reference_images", form: "array" },
  { kind: "video", field: "reference_videos", form: "array" },
  { kind: "audio", field: "reference_audios", form: "array" },
  { kind: "document", field: "file_url", form: "string" },
  { kind: "web", field: "web_url", form: "string" },
];

function admitsString(root: JsonSchemaObject, schema: JsonSchemaObject | undefined): boolean {
  return schema !== undefined && typesOf(root, schema).has("string");
}

/** Whether an endpoint's input schema has the shape a referencing field needs. */
function fits(input: JsonSchemaObject, f: MediaField): boolean {
  const declared = declaredField(input, f.field);
  if (declared === undefined) return false;
  const value = valueSchema(input, declared);
  if (value === undefined) return false;
  if (f.form === "string") return admitsString(input, value);
  if (!typesOf(input, value).has("array") || !isSchemaObject(value.items)) return false;
  const items = valueSchema(input, value.items);
  if (f.form === "array") return admitsString(input, items);
  const item = items === undefined ? undefined : declaredField(items, f.item!);
  return admitsString(input, item === undefined ? undefined : valueSchema(input, item));
}

/**
 * The referencing fields of an endpoint, by its input schema's shape; without a schema, the
 * spec's field names alone (a payload's values decide: only strings are checked).
 */
export function mediaFieldsOf(input?: JsonSchemaObject): MediaField[] {
  return input === undefined ? [...SPEC_MEDIA_FIELDS] : SPEC_MEDIA_FIELDS.filter((f) => fits(input, f));
}

/** One URL of a payload: where it sits and what kind of file the service expects there. */
export interface MediaReference {
  kind: MediaKind;
  /** JSON Pointer into the request body: `/keyframes/1/image_url`, `/reference_videos/0` */
  pointer: string;
  /** the array's pointer (`/reference_videos`), for totals */
  array?: string;
  url: string;
}

/** The URLs a payload references through `fields` (non-string values are the schema's business). */
export function referencesOf(input: unknown, fields: readonly MediaField[]): MediaReference[] {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return [];
  const body = input as Record<string, unknown>;
  const out: MediaReference[] = [];
  for (const f of fields) {
    if (!Object.prototype.hasOwnProperty.call(body, f.field)) continue;
    const value = body[f.field];
    const base = `/${f.field}`;
    if (f.form === "string") {
      if (typeof value === "string") out.push({ kind: f.kind, pointer: base, url: value });
      continue;
    }
    if (!Array.isArray(value)) continue;
    value.forEach((item, i) => {
      if (f.form === "array") {
        if (typeof item === "string") out.push({ kind: f.kind, pointer: `${base}/${i}`, array: base, url: item });
      } else if (typeof item === "object" && item !== null && Object.prototype.hasOwnProperty.call(item, f.item!)) {
        const url = (item as Record<string, unknown>)[f.item!];
        if (typeof url === "string") out.push({ kind: f.kind, pointer: `${base}/${i}/${f.item}`, url });
      }
    });
  }
  return out;
}
