/**
 * A concrete payload for a change, where one exists (docs/drift.md, "Every change carries"): for a request, a minimal payload
 * the snapshot accepts and the source rejects; for a response, a minimal body the source
 * allows and a client built from the snapshot rejects. Each table row names a strategy; the
 * candidate it gives is checked against both schemas with Ajv and dropped unless it really
 * crosses the change (the rejecting side first from its subschemas at the change, `reject.ts`,
 * else whole). A schema holding a super-linear pattern is never run: no example, and why.
 *
 * Bounds come straight from the schemas and can be anything (`maxLength: 2147483647`,
 * `maxItems: 1e8`): a string or array longer than `MAX_EXAMPLE_SIZE`, or an example larger
 * than the sampling budget, gives no example. Whatever goes wrong building or checking one
 * example costs that example only, never the report.
 */
import type { AnySchema, ValidateFunction } from "ajv";
import type { Ajv2020 } from "ajv/dist/2020.js";
// From the rules stage, where Ajv's one configuration lives; nothing of the emit stage is loaded.
import {
  findUnsafePattern,
  forEachSchema,
  isSchemaObject,
  shallowSchema,
  type EndpointModel,
  type JsonSchemaObject,
  type UnsafePattern,
} from "../schema/index.js";
import type { Finding } from "./diff/index.js";
import {
  arrayOfLength,
  forcedValue,
  nameMatching,
  SampleBudget,
  sampleValue,
  stringOfLength,
  type Leaf,
  UNLISTED_NAME,
} from "./sample.js";
import type { ExampleStrategy } from "./table/index.js";
import { BOUNDS } from "./table/index.js";
import { surelyRejects } from "./reject.js";
import { canonical, type SchemaRoot } from "./view.js";
import { checkRules, createAjv, type RuleSpec } from "../rules/index.js";

interface Sides {
  before: SchemaRoot;
  after: SchemaRoot;
}

/** A value of the bound's kind: a number, a string of that length, an array of that many items, an object of that many properties. */
function boundValue(
  keyword: string | undefined,
  n: unknown,
  sample: Finding["params"]["sample"],
  sides: Sides,
  budget: SampleBudget,
): Leaf | undefined {
  if (typeof n !== "number") return undefined;
  if (
    keyword === "maximum" ||
    keyword === "minimum" ||
    keyword === "exclusiveMaximum" ||
    keyword === "exclusiveMinimum"
  )
    return { value: n };
  if (n < 0) return undefined;
  if (keyword === "maxLength" || keyword === "minLength") return { value: stringOfLength(n, budget) };
  if (keyword === "maxItems" || keyword === "minItems") {
    const items = (sample?.schema as JsonSchemaObject | undefined)?.items ?? {};
    return { value: arrayOfLength(n, (i) => sampleValue(items, sides.before, undefined, 0, budget, i), budget) };
  }
  if (keyword === "maxProperties" || keyword === "minProperties") {
    const keys = arrayOfLength(n, (i) => `property_${i + 1}`, budget);
    return { value: Object.fromEntries(keys.map((k) => [k, FILLER])) };
  }
  return undefined;
}

/** Numbers near a bound, inside and outside it: exclusive bounds and steps make the bound itself invalid. */
function near(n: number): number[] {
  return [n, n - 1, n + 1, n - 0.5, n + 0.5, n - 0.001, n + 0.001];
}

function sampleFrom(finding: Finding, sides: Sides, budget: SampleBudget): Leaf | undefined {
  const sample = finding.params.sample;
  if (sample === undefined) return undefined;
  const value = sampleValue(sample.schema, sides[sample.side], sample.type, 0, budget);
  return value === undefined ? undefined : { value };
}

const FILLER = "…";
/** Strings unlike each other and unlike most formats and patterns (a line break: `^.*$` rejects it). */
const STRINGS = [FILLER, "x", "not a uri", "https://example.com/input.png", "2026-01-01", "a b", "", "0", "a\nb"];

/**
 * Candidate values at the change's location, for a change no single value is known to cross
 * (a format or pattern set, a step changed): samples of the old schema, numbers near both
 * sides' values, assorted strings, an array with a repeated item. Ajv picks the one that crosses.
 */
function crossingValues(finding: Finding, sides: Sides, budget: SampleBudget): Candidate[] {
  const p = finding.params;
  const schema = (p.sample?.schema ?? {}) as JsonSchemaObject;
  const values: unknown[] = [];
  const sampled = sampleFrom(finding, sides, budget);
  if (sampled !== undefined && "value" in sampled) values.push(sampled.value);
  for (const n of [p.from, p.to]) if (typeof n === "number") values.push(...near(n), n * 3, n * 1.5);
  values.push(1, 2, 3, 7, 0.5, -1, ...STRINGS);
  const item = sampleValue(schema.items ?? {}, sides.before, undefined, 0, budget);
  if (item !== undefined) values.push([item, item]);
  values.push(true, null, {}, []);
  return values.map((value) => ({ leaf: { value } }));
}

/** A candidate: what goes at the change's location, and below it when the location is an object (`extra`). */
interface Candidate {
  leaf: Leaf;
  extra?: string;
}

type Strategy = (finding: Finding, sides: Sides, budget: SampleBudget) => Candidate[];

const one = (leaf: Leaf | undefined): Candidate[] => (leaf === undefined ? [] : [{ leaf }]);

/** Which values each strategy of the table puts at the change's location, in the order they are tried. */
const STRATEGIES: Record<ExampleStrategy, Strategy> = {
  value: (f) => one({ value: f.params.value }),
  "old-bound": (f, sides, budget) => {
    const from = f.params.from;
    const numeric = typeof from === "number" && /^(exclusiveM|m)(ax|in)imum$/.test(f.params.keyword ?? "");
    const values = numeric ? near(from) : [from];
    return values.flatMap((n) => one(boundValue(f.params.keyword, n, f.params.sample, sides, budget)));
  },
  "past-new-bound": (f, sides, budget) => {
    const upper = BOUNDS.find((b) => b.keyword === f.params.keyword)?.upper;
    const to = f.params.to;
    if (typeof to !== "number" || upper === undefined) return [];
    const numeric = /^(exclusiveM|m)(ax|in)imum$/.test(f.params.keyword ?? "");
    const values = numeric ? [to, ...near(upper ? to + 1 : to - 1)] : [upper ? to + 1 : to - 1];
    return values.flatMap((n) => one(boundValue(f.params.keyword, n, f.params.sample, sides, budget)));
  },
  omit: () => one({ omit: true }),
  null: () => one({ value: null }),
  "before-sample": (f, sides, budget) => one(sampleFrom(f, sides, budget)),
  "type-sample": (f, sides, budget) => one(sampleFrom(f, sides, budget)),
  "branch-sample": (f, sides, budget) => one(sampleFrom(f, sides, budget)),
  "crossing-value": crossingValues,
  "extra-property": () => extraProperty(UNLISTED_NAME),
  "keyword-witness": (f, sides, budget) => [...keywordWitnesses(f, sides, budget), ...crossingValues(f, sides, budget)],
};

/** The object at the change with one more property `name`, of a few values: `sampled` (from the snapshot's schema of it) first. */
function extraProperty(name: string, sampled?: unknown): Candidate[] {
  const values = [FILLER, 0, true, null, {}, []];
  if (sampled !== undefined) values.unshift(sampled);
  return values.map((value) => ({ leaf: { value }, extra: name }));
}

/**
 * Values a 2020-12 keyword newly set may reject (issue 29.2), from the keyword's own value: a
 * property its object names (`dependentRequired`, `dependentSchemas`, `patternProperties`; its
 * value sampled from the snapshot's schema first, and the properties the snapshot's own
 * dependencies require of it filled by the sampler, so that a list or schema rewritten for an
 * existing trigger is crossed too) or one it does not list (`propertyNames`,
 * `unevaluatedProperties`); an array of one item of the `contains` schema (`minContains`); a
 * one-item tuple of each kind (`prefixItems`); numbers near those the new value holds (`then`,
 * `else`, the `if` condition).
 */
function keywordWitnesses(finding: Finding, sides: Sides, budget: SampleBudget): Candidate[] {
  const to = finding.params.to;
  const schema = (finding.params.sample?.schema ?? {}) as JsonSchemaObject;
  const props = isSchemaObject(schema.properties) ? schema.properties : {};
  const out: Candidate[] = [];
  if (
    isSchemaObject(to) &&
    /^(dependentRequired|dependentSchemas|patternProperties)$/.test(finding.params.keyword ?? "")
  )
    for (const key of Object.keys(to)) {
      const name = nameMatching(key);
      const own = Object.prototype.hasOwnProperty.call(props, name);
      out.push(...extraProperty(name, own ? sampleValue(props[name], sides.before, undefined, 0, budget) : undefined));
    }
  out.push(...extraProperty(UNLISTED_NAME));
  if (schema.contains !== undefined) {
    const item = sampleValue(schema.contains, sides.before, undefined, 0, budget);
    if (item !== undefined) {
      out.push({ leaf: { value: [item] } });
      // one more matching item than a new `maxContains` allows
      if (finding.params.keyword === "maxContains" && typeof to === "number")
        out.push({ leaf: { value: arrayOfLength(to + 1, () => item, budget) } });
    }
  }
  // a tuple whose first item is of another kind (`prefixItems` set, unset or rewritten)
  if (finding.params.keyword === "prefixItems")
    out.push(...[FILLER, 0, true, null, {}, []].map((v) => ({ leaf: { value: [v] } })));
  if (isSchemaObject(to))
    for (const v of Object.values(to))
      if (typeof v === "number") out.push(...near(v).map((n) => ({ leaf: { value: n } })));
  return out;
}

/**
 * The toolkit's one Ajv configuration (rules stage), with Ajv's code optimisation off: it makes
 * the generated code smaller, never its answers, and halves the compile time, which is most of
 * the cost of a report with many examples (an example is checked once; a validator is not shipped).
 */
const ajvForExamples = (): Ajv2020 => createAjv({ optimize: false });

/** Whether a pattern compiles as Ajv compiles it (`u` flag), which its meta-schema does not check. */
function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern, "u");
    return true;
  } catch {
    return false;
  }
}

/**
 * Ajv validators for example checks, one per distinct schema (by its canonical text) and one Ajv
 * instance for all of them: compiling costs milliseconds per schema, so a model's run compiles
 * each distinct schema once, and only when a change needs an example. A schema with a
 * super-linear pattern is never compiled (`unsafePattern`).
 */
export class ValidatorCache {
  private ajv: Ajv2020 | undefined;
  private readonly byObject = new WeakMap<JsonSchemaObject, ValidateFunction | null>();
  private readonly byText = new Map<string, ValidateFunction | null>();
  private readonly unsafe = new WeakMap<JsonSchemaObject, UnsafePattern | null>();
  private readonly sure = new WeakMap<JsonSchemaObject, boolean>();
  private readonly metaByText = new Map<string, boolean>();

  get(schema: JsonSchemaObject): ValidateFunction | null {
    const known = this.byObject.get(schema);
    if (known !== undefined) return known;
    const text = canonical(schema);
    let validate = this.byText.get(text);
    if (validate === undefined) {
      validate = this.unsafePattern(schema) === undefined ? this.compile(schema) : null;
      this.byText.set(text, validate);
    }
    this.byObject.set(schema, validate);
    return validate;
  }

  /** The first pattern of `schema` that can take super-linear time (src/schema/unsafe-patterns.ts): drift never runs one. */
  unsafePattern(schema: JsonSchemaObject): UnsafePattern | undefined {
    let found = this.unsafe.get(schema);
    if (found === undefined) {
      found = findUnsafePattern(schema) ?? null;
      this.unsafe.set(schema, found);
    }
    return found ?? undefined;
  }

  /**
   * Whether `get(schema)` surely compiles, known without compiling: the schema is valid against
   * its meta-schema, its patterns compile, its references are JSON Pointers into itself and it
   * names no `$id` (which another schema of the run may hold). When not known, the caller compiles.
   */
  compilable(schema: JsonSchemaObject): boolean {
    let sure = this.sure.get(schema);
    if (sure === undefined) {
      sure = this.byObject.has(schema) ? this.byObject.get(schema) !== null : this.checks(schema);
      this.sure.set(schema, sure);
    }
    return sure;
  }

  private checks(schema: JsonSchemaObject): boolean {
    let sure = true;
    forEachSchema(schema, (node) => {
      if (!sure) return;
      const ref = node.$ref;
      if (
        typeof node.$id === "string" ||
        "$dynamicRef" in node ||
        "$recursiveRef" in node ||
        (ref !== undefined && !(typeof ref === "string" && (ref === "#" || ref.startsWith("#/")))) ||
        (typeof node.pattern === "string" && !compiles(node.pattern)) ||
        (isSchemaObject(node.patternProperties) && !Object.keys(node.patternProperties).every(compiles)) ||
        !this.metaValid(node)
      )
        sure = false;
    });
    return sure;
  }

  /** Whether one node is valid against the meta-schema, its subschemas aside (each is checked as a node). */
  private metaValid(node: JsonSchemaObject): boolean {
    const shallow = shallowSchema(node);
    const text = canonical(shallow);
    let valid = this.metaByText.get(text);
    if (valid === undefined) {
      try {
        this.ajv ??= ajvForExamples();
        valid = this.ajv.validateSchema(shallow as AnySchema) === true;
      } catch {
        valid = false;
      }
      this.metaByText.set(text, valid);
    }
    return valid;
  }

  private compile(schema: JsonSchemaObject): ValidateFunction | null {
    try {
      this.ajv ??= ajvForExamples();
      return this.ajv.compile(schema as AnySchema);
    } catch {
      // an `$id` already met in another schema of the run: that schema alone, in an Ajv of its own
      try {
        return ajvForExamples().compile(schema as AnySchema);
      } catch {
        return null;
      }
    }
  }
}

/** What `exampleFor` found: an example, or why there can be none (said in the report), or neither. */
export interface ExampleOutcome {
  example?: unknown;
  noExample?: string;
}

/** Builds and checks examples for the changes of one endpoint; validators come from a cache shared by the model's endpoints. */
export class ExampleMaker {
  constructor(
    private readonly before: EndpointModel,
    private readonly after: EndpointModel,
    /** the snapshot's cross-field rules: a request example must pass them as well as the schema */
    private readonly rulesBefore: readonly RuleSpec[] = [],
    private readonly validators: ValidatorCache = new ValidatorCache(),
  ) {}

  private validator(schema: JsonSchemaObject): ValidateFunction | null {
    return this.validators.get(schema);
  }

  /**
   * The example for `finding` under `strategy`, when one crosses the change and is not too large;
   * `noExample` when a schema it needs holds a super-linear pattern; never throws.
   */
  exampleFor(finding: Finding, strategy: ExampleStrategy): ExampleOutcome {
    try {
      return this.build(finding, strategy);
    } catch {
      return {};
    }
  }

  private build(finding: Finding, strategy: ExampleStrategy): ExampleOutcome {
    if (finding.direction === "endpoint") return {};
    const request = finding.direction === "request";
    const sides: Sides = request
      ? { before: { schema: this.before.input }, after: { schema: this.after.input } }
      : { before: { schema: this.before.output }, after: { schema: this.after.output } };
    const budget = new SampleBudget();
    // The payload is built on the side that must accept it.
    const accepting = request ? sides.before : sides.after;
    const rejecting = request ? sides.after : sides.before;
    let accepts: ValidateFunction | null | undefined;
    let rejects: ValidateFunction | null | undefined;
    // a change under a `dependentSchemas` key applies only when its object holds that property
    const triggers = finding.params.triggers ?? [];
    for (const candidate of STRATEGIES[strategy](finding, sides, budget)) {
      const path = candidate.extra === undefined ? finding.field : [...finding.field, candidate.extra];
      const payload = forcedValue(accepting.schema, accepting, path, candidate.leaf, 0, new SampleBudget(), triggers);
      const unsafe = this.unsafe(finding.direction, sides);
      if (unsafe !== undefined) return { noExample: unsafe };
      // compiled only now, when a change has a candidate: each distinct schema once per run
      accepts ??= this.validator(accepting.schema);
      if (accepts === null) return {};
      // a schema that may not compile is compiled now, so that it gives no example, as when checked whole
      if (!this.validators.compilable(rejecting.schema)) rejects ??= this.validator(rejecting.schema);
      if (rejects === null) return {};
      if (!accepts(payload)) continue;
      // the rejecting side: from the subschemas at the change's location when they tell, else whole
      if (!surelyRejects(rejecting, payload, path, candidate.leaf, (node) => this.validator(node))) {
        rejects ??= this.validator(rejecting.schema);
        if (rejects === null) return {};
        if (rejects(payload)) continue;
      }
      if (request && checkRules(this.rulesBefore, payload, []).some((d) => d.severity === "error")) continue;
      return { example: payload };
    }
    return {};
  }

  /** Why there is no example when a side's schema holds a super-linear pattern: drift never runs one (it could hang). */
  private unsafe(direction: "request" | "response", sides: Sides): string | undefined {
    for (const side of ["before", "after"] as const) {
      const found = this.validators.unsafePattern(sides[side].schema);
      if (found === undefined) continue;
      const whose = side === "before" ? "snapshot" : "source";
      return `no example: the ${whose}'s ${direction} schema has a pattern that can take super-linear time, ${JSON.stringify(found.pattern)} at ${found.pointer} (${found.reason}), and drift does not run it`;
    }
    return undefined;
  }
}
