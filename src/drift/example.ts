/**
 * A concrete payload for a change, where one exists (issue 5): for a request, a minimal payload
 * the snapshot accepts and the source rejects; for a response, a minimal body the source
 * allows and a client built from the snapshot rejects. Each table row names a strategy; the
 * candidate it gives is checked against both schemas with Ajv and dropped unless it really
 * crosses the change.
 */
import type { AnySchema, ValidateFunction } from "ajv";
// validator.ts directly, not emit/index.ts: the index loads ts-morph and json-schema-to-typescript (~1 s).
import { createAjv } from "../emit/index.js";
import type { EndpointModel, JsonSchemaObject } from "../schema/index.js";
import type { Finding } from "./diff.js";
import { forcedValue, sampleValue, stringOfLength, type Leaf } from "./sample.js";
import type { ExampleStrategy } from "./table.js";
import { BOUNDS } from "./table.js";
import type { SchemaRoot } from "./view.js";

interface Sides {
  before: SchemaRoot;
  after: SchemaRoot;
}

/** A value of the bound's kind: a number, a string of that length, or an array of that many items. */
function boundValue(
  keyword: string | undefined,
  n: unknown,
  sample: Finding["params"]["sample"],
  sides: Sides,
): Leaf | undefined {
  if (typeof n !== "number" || n < 0) return undefined;
  if (keyword === "maximum" || keyword === "minimum") return { value: n };
  if (keyword === "maxLength" || keyword === "minLength") return { value: stringOfLength(n) };
  if (keyword === "maxItems" || keyword === "minItems") {
    const items = (sample?.schema as JsonSchemaObject | undefined)?.items ?? {};
    return { value: Array.from({ length: n }, () => sampleValue(items, sides.before)) };
  }
  return undefined;
}

function sampleFrom(finding: Finding, sides: Sides): Leaf | undefined {
  const sample = finding.params.sample;
  if (sample === undefined) return undefined;
  const value = sampleValue(sample.schema, sides[sample.side], sample.type);
  return value === undefined ? undefined : { value };
}

/** What each strategy of the table puts at the change's location. */
const STRATEGIES: Record<ExampleStrategy, (finding: Finding, sides: Sides) => Leaf | undefined> = {
  value: (f) => ({ value: f.params.value }),
  "old-bound": (f, sides) => boundValue(f.params.keyword, f.params.from, f.params.sample, sides),
  "past-new-bound": (f, sides) => {
    const upper = BOUNDS.find((b) => b.keyword === f.params.keyword)?.upper;
    const to = f.params.to;
    if (typeof to !== "number" || upper === undefined) return undefined;
    return boundValue(f.params.keyword, upper ? to + 1 : to - 1, f.params.sample, sides);
  },
  omit: () => ({ omit: true }),
  null: () => ({ value: null }),
  "before-sample": sampleFrom,
  "type-sample": sampleFrom,
  "branch-sample": sampleFrom,
};

/** Builds and checks examples for the changes of one endpoint; compiles each schema at most once. */
export class ExampleMaker {
  private readonly compiled = new Map<JsonSchemaObject, ValidateFunction | null>();

  constructor(
    private readonly before: EndpointModel,
    private readonly after: EndpointModel,
  ) {}

  private validator(schema: JsonSchemaObject): ValidateFunction | null {
    if (!this.compiled.has(schema)) {
      try {
        this.compiled.set(schema, createAjv().compile(schema as AnySchema));
      } catch {
        this.compiled.set(schema, null);
      }
    }
    return this.compiled.get(schema)!;
  }

  /** The example for `finding` under `strategy`, or undefined when none crosses the change. */
  exampleFor(finding: Finding, strategy: ExampleStrategy): unknown {
    if (finding.direction === "endpoint") return undefined;
    const request = finding.direction === "request";
    const sides: Sides = request
      ? { before: { schema: this.before.input }, after: { schema: this.after.input } }
      : { before: { schema: this.before.output }, after: { schema: this.after.output } };
    const leaf = STRATEGIES[strategy](finding, sides);
    if (leaf === undefined) return undefined;
    // The payload is built on the side that must accept it.
    const accepting = request ? sides.before : sides.after;
    const rejecting = request ? sides.after : sides.before;
    const payload = forcedValue(accepting.schema, accepting, finding.field, leaf);
    const accepts = this.validator(accepting.schema);
    const rejects = this.validator(rejecting.schema);
    if (accepts === null || rejects === null) return undefined;
    return accepts(payload) && !rejects(payload) ? payload : undefined;
  }
}
