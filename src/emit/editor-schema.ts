/**
 * The editor schema of an endpoint (`<owner>/<name>/<endpoint>.schema.json`, draft 2020-12): the
 * endpoint's input schema as published, for a request fixture's `"$schema"` (completion and
 * squiggles in VS Code and JetBrains), with what an editor does not show by itself written out
 * in `description` / `markdownDescription`: each field's default and bounds, and the cross-field
 * rules vsk checks (which JSON Schema cannot state), on the fields they concern and on the root.
 * A top-level `$schema` key is allowed, whether the input is closed or warns on unknown fields.
 */
import { jsonText, markdownCode, markdownText } from "../escape/index.js";
import { kindOf, type RuleDescription, type RuleSpec } from "../rules/index.js";
import { parsePointer } from "../json/index.js";
import { followRef, isSchemaObject, type EndpointModel, type JsonSchemaObject } from "../schema/index.js";

const DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema";

/** A sentence in two forms: plain text (`description`) and Markdown (`markdownDescription`). */
interface Note {
  text: string;
  markdown: string;
}

/** A note whose parts are literal text or code (field names, values). */
function note(...parts: Array<string | { code: string }>): Note {
  return {
    text: parts.map((p) => (typeof p === "string" ? p : p.code)).join(""),
    markdown: parts.map((p) => (typeof p === "string" ? markdownText(p) : markdownCode(p.code, false))).join(""),
  };
}

const code = (text: string): { code: string } => ({ code: text });
const json = (value: unknown): { code: string } => code(JSON.stringify(value));

/**
 * One rule as its kind's record describes it, with the fields it is noted on; a cross-field
 * rule's note ends with its severity (the record's), spec section and id.
 */
function describeRule(rule: RuleSpec): Omit<RuleDescription, "parts"> & { note: Note } {
  const kind = kindOf(rule);
  const { parts, spec, ...rest } = kind.describe(rule);
  const tail = spec === undefined ? [] : [` (${kind.severity}, spec ${spec}; rule ${rule.id})`];
  return { note: note(...parts, ...tail), ...(spec === undefined ? {} : { spec }), ...rest };
}

/** A schema's default and bounds, as sentences ("default `5`", "from 5 to 20"). */
function facts(schema: JsonSchemaObject): Note[] {
  const out: Note[] = [];
  const range = describeRange(schema);
  if (range !== undefined) out.push({ text: `Allowed: ${range.text}.`, markdown: `Allowed: ${range.markdown}.` });
  const branches = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (branches !== undefined) {
    // nested anyOf/oneOf flattened: a nullable "URI or any string" is its three forms, not "any value"
    const flat = (list: unknown[]): JsonSchemaObject[] =>
      list
        .filter(isSchemaObject)
        .flatMap((b) => (Array.isArray(b.anyOf) ? flat(b.anyOf) : Array.isArray(b.oneOf) ? flat(b.oneOf) : [b]));
    const shown = flat(branches).map((b) => {
      if (b.type === "null") return note("null");
      const r = describeRange(b);
      const type = typeof b.type === "string" ? b.type : "value";
      return r === undefined ? note(`any ${type}`) : { text: `${type} ${r.text}`, markdown: `${type} ${r.markdown}` };
    });
    if (shown.length > 0)
      out.push({
        text: `Allowed: ${shown.map((s) => s.text).join(", or ")}.`,
        markdown: `Allowed: ${shown.map((s) => s.markdown).join(", or ")}.`,
      });
  }
  if (schema.default !== undefined) out.push(note("Default: ", json(schema.default), "."));
  return out;
}

function describeRange(s: JsonSchemaObject): Note | undefined {
  const parts: Note[] = [];
  if (Array.isArray(s.enum)) parts.push(note("one of ", ...s.enum.flatMap((v, i) => [i === 0 ? "" : ", ", json(v)])));
  if (s.const !== undefined) parts.push(note("exactly ", json(s.const)));
  const bounds = (min: unknown, max: unknown, what: string) => {
    const lo = typeof min === "number" ? min : undefined;
    const hi = typeof max === "number" ? max : undefined;
    if (lo !== undefined && hi !== undefined) parts.push(note(`${what}from ${lo} to ${hi}`));
    else if (lo !== undefined) parts.push(note(`${what}at least ${lo}`));
    else if (hi !== undefined) parts.push(note(`${what}at most ${hi}`));
  };
  bounds(s.minimum, s.maximum, "");
  if (typeof s.exclusiveMinimum === "number") parts.push(note(`greater than ${s.exclusiveMinimum}`));
  if (typeof s.exclusiveMaximum === "number") parts.push(note(`less than ${s.exclusiveMaximum}`));
  bounds(s.minLength, s.maxLength, "length ");
  bounds(s.minItems, s.maxItems, "items ");
  if (parts.length === 0) return undefined;
  return { text: parts.map((p) => p.text).join(", "), markdown: parts.map((p) => p.markdown).join(", ") };
}

/** Appends notes to a schema's description (plain) and markdownDescription (Markdown, data escaped). */
function annotate(schema: JsonSchemaObject, lines: readonly Note[], bullets: readonly Note[] = []): void {
  if (lines.length === 0 && bullets.length === 0) return;
  const own = typeof schema.description === "string" ? schema.description : undefined;
  const text = [own, ...lines.map((l) => l.text)].filter((t) => t !== undefined && t !== "");
  const markdown = [own === undefined ? undefined : markdownText(own), ...lines.map((l) => l.markdown)].filter(
    (t) => t !== undefined && t !== "",
  );
  schema.description = [text.join("\n"), ...bullets.map((b) => `- ${b.text}`)].filter((t) => t !== "").join("\n");
  schema.markdownDescription = [markdown.join("\n\n"), bullets.map((b) => `- ${b.markdown}`).join("\n")]
    .filter((t) => t !== "")
    .join("\n\n");
}

/** The property schema at a JSON Pointer of the input (`/a`, `/a/b` through object properties). */
function propertyAt(root: JsonSchemaObject, pointer: string): JsonSchemaObject | undefined {
  let at: JsonSchemaObject | undefined = root;
  for (const token of parsePointer(pointer)) {
    const props: unknown = at?.properties;
    if (!isSchemaObject(props)) return undefined;
    at = followRef(root, props[token]);
    if (at === undefined) return undefined;
  }
  return at;
}

/** Every object schema's properties (root, `$defs`, nested objects and array items), each once. */
function forEachProperty(root: JsonSchemaObject, visit: (property: JsonSchemaObject) => void): void {
  const seen = new Set<JsonSchemaObject>();
  const walk = (schema: unknown): void => {
    if (!isSchemaObject(schema) || seen.has(schema)) return;
    seen.add(schema);
    if (isSchemaObject(schema.properties))
      for (const p of Object.values(schema.properties))
        if (isSchemaObject(p)) {
          if (!seen.has(p)) visit(p);
          walk(p);
        }
    walk(schema.items);
    for (const key of ["anyOf", "oneOf", "allOf"] as const)
      if (Array.isArray(schema[key])) for (const b of schema[key]) walk(b);
    if (isSchemaObject(schema.$defs)) for (const d of Object.values(schema.$defs)) walk(d);
  };
  walk(root);
}

/** The editor schema of one endpoint, as the file's text (deterministic: the same input gives the same bytes). */
export function emitEditorSchema(endpoint: EndpointModel, rules: readonly RuleSpec[]): string {
  const input = structuredClone(endpoint.input);
  // per field: its default and bounds (from the published schema itself), then the rules on it
  const notes = new Map<JsonSchemaObject, { lines: Note[]; bullets: Note[] }>();
  forEachProperty(input, (p) => notes.set(p, { lines: facts(p), bullets: [] }));
  const bullet = (field: JsonSchemaObject | undefined, n: Note) => {
    if (field === undefined) return;
    const entry = notes.get(field) ?? { lines: [], bullets: [] };
    if (!entry.bullets.includes(n)) entry.bullets.push(n);
    notes.set(field, entry);
  };
  const described = rules.map(describeRule);
  for (const d of described) {
    for (const pointer of d.fields) bullet(propertyAt(input, pointer), d.note);
    if (d.items !== undefined) {
      const item = followRef(input, propertyAt(input, d.items.array)?.items);
      bullet(item === undefined ? undefined : propertyAt(item, `/${d.items.field}`), d.note);
    }
  }
  for (const [field, { lines, bullets }] of notes) annotate(field, lines, bullets);
  const closed = described.some((d) => d.closesInput === true);
  const properties = isSchemaObject(input.properties) ? input.properties : {};
  const { $schema: _published, $id: _id, title, description, ...rest } = input;
  void _published;
  void _id;
  const root: JsonSchemaObject = {
    // first, as endpoints.json's `generatedBy`: what `generate` recognizes as its own file
    $comment: `Generated by \`vsk generate\` from schemas-cache/${endpoint.model}/latest.json. Do not edit. The request body of POST ${endpoint.queuePath}, for a request file's "$schema" (editor completion and checks); vsk lint runs the same checks and the cross-field rules below.`,
    $schema: DRAFT_2020_12,
    title: typeof title === "string" ? title : `${endpoint.key} input`,
    ...(typeof description === "string" ? { description } : {}),
  };
  const crossField = described.filter((d) => d.spec !== undefined);
  const unknown = described.filter((d) => d.spec === undefined).map((d) => d.note);
  const heading = note(
    ...(crossField.length === 0
      ? ["No cross-field rules apply to this endpoint."]
      : ["Cross-field rules (checked by ", code("vsk lint"), " and the generated validators, not by the editor):"]),
  );
  annotate(
    root,
    [note(`Request body of POST ${endpoint.queuePath} (spec 4.1).`), ...unknown, heading],
    crossField.map((d) => d.note),
  );
  Object.assign(root, rest, {
    properties: {
      $schema: {
        type: "string",
        description:
          "The JSON Schema of this request file, for your editor; vsk lint ignores a top-level $schema. Leave it out of what you submit.",
      },
      ...properties,
    },
    // an editor flags the fields vsk lint warns about (spec 4.1); `$schema` is listed above
    ...(closed && input.additionalProperties === undefined ? { additionalProperties: false } : {}),
  });
  return jsonText(JSON.stringify(root, null, 2)) + "\n";
}
