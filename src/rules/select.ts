/**
 * Which rules an endpoint gets. Every rule of the spec declares the schema shape it needs
 * (its shape match, in its kind's file); an endpoint gets each rule whose shape it has, so the
 * spec's three models get their rules under any ids and aliases, with no configuration. A
 * model's `rules` setting (`modelA`, `modelB`, `modelC`, any case) is an explicit override:
 * exactly that spec model's rules, each of which must fit (else `overrideProblem` says why).
 */
import type { EndpointModel } from "../schema/index.js";
import type { RuleDefinition, SpecModel } from "./define.js";
import { kindOf, RULE_KINDS, type RuleSpec } from "./kinds.js";
import { isMisfit, type Misfit } from "./shape.js";

/** Every rule of the spec, in the order an endpoint's rules are checked (the kinds' order). */
export const RULE_DEFINITIONS: ReadonlyArray<RuleDefinition<RuleSpec>> = RULE_KINDS.flatMap(
  (k): ReadonlyArray<RuleDefinition<RuleSpec>> => k.definitions,
);

/** `<spec model>/<endpoint>` → the spec's rules with the parameters the spec states. */
export const SPEC_RULES: Readonly<Record<string, readonly RuleSpec[]>> = RULE_DEFINITIONS.reduce<
  Record<string, RuleSpec[]>
>((table, d) => {
  (table[`${d.specModel}/${d.endpoint}`] ??= []).push(d.spec);
  return table;
}, {});

const SPEC_MODELS: readonly SpecModel[] = ["modelA", "modelB", "modelC"];

/** The spec model a `models[].rules` setting names (any case), or undefined. */
export function specModelOf(setting: string): SpecModel | undefined {
  return SPEC_MODELS.find((m) => m.toLowerCase() === setting.toLowerCase());
}

/** What a model's configuration says about its rules (`models[].rules`). */
export interface RulesSetting {
  id?: string;
  rules?: string;
}

/** A rule of an override that the endpoint's schema does not fit. */
export interface RuleMisfit extends Misfit {
  rule: string;
  endpoint: string;
}

export interface RuleSelection {
  /** the endpoint's rules in check order; the unknown-field warning last */
  rules: RuleSpec[];
  /** with an override: its rules that do not fit the endpoint */
  misfits: RuleMisfit[];
}

/** The rules of one endpoint: by shape, or exactly the override's (each one that fits). */
export function selectRules(endpoint: EndpointModel, setting: RulesSetting = {}): RuleSelection {
  const spec = setting.rules === undefined ? undefined : specModelOf(setting.rules);
  const candidates =
    setting.rules === undefined
      ? RULE_DEFINITIONS
      : RULE_DEFINITIONS.filter((d) => d.specModel === spec && d.endpoint === endpoint.endpoint);
  const rules: RuleSpec[] = [];
  const misfits: RuleMisfit[] = [];
  for (const definition of candidates) {
    const matched = definition.match(endpoint.input);
    if (!isMisfit(matched)) rules.push(matched);
    else if (setting.rules !== undefined)
      misfits.push({ ...matched, rule: definition.id, endpoint: endpoint.endpoint });
  }
  // then the rules derived from the schema alone (the unknown-field warning), for every endpoint
  for (const kind of RULE_KINDS) {
    const derived = kind.derive?.(endpoint.input);
    if (derived !== undefined) rules.push(derived);
  }
  return { rules, misfits };
}

/** The rules of one endpoint (an override's rules that do not fit are left out: see `overrideProblem`). */
export function rulesFor(endpoint: EndpointModel, setting: RulesSetting = {}): RuleSpec[] {
  return selectRules(endpoint, setting).rules;
}

/** The ids of the spec's cross-field rules among an endpoint's rules (not the unknown-field warning). */
export function crossFieldRuleIds(rules: readonly RuleSpec[]): string[] {
  return rules.filter((r) => kindOf(r).derive === undefined).map((r) => r.id);
}

/**
 * Why a model's `rules` override cannot hold, naming the model, the rule and the missing field,
 * or undefined when every rule of that spec model fits the model's endpoints.
 */
export function overrideProblem(endpoints: readonly EndpointModel[], setting: RulesSetting): string | undefined {
  if (setting.rules === undefined) return undefined;
  const model = setting.id ?? endpoints[0]?.model ?? "model";
  const said = `${model}: "rules": ${JSON.stringify(setting.rules)}`;
  const fix = 'remove "rules" from this model in the config to let the rules follow the schema, or fix the model id';
  const spec = specModelOf(setting.rules);
  if (spec === undefined) return `${said} is not a model of the spec; expected "modelA", "modelB" or "modelC"`;
  for (const endpointName of [
    ...new Set(RULE_DEFINITIONS.filter((d) => d.specModel === spec).map((d) => d.endpoint)),
  ]) {
    const endpoint = endpoints.find((e) => e.endpoint === endpointName);
    if (endpoint === undefined) {
      const ids = RULE_DEFINITIONS.filter((d) => d.specModel === spec && d.endpoint === endpointName).map((d) => d.id);
      return `${said} needs endpoint ${endpointName} (rules ${ids.join(", ")}), which the model does not have (its endpoints: ${endpoints.map((e) => e.endpoint).join(", ") || "none"}); ${fix}`;
    }
    const [first] = selectRules(endpoint, setting).misfits;
    if (first !== undefined)
      return `${said}: rule ${first.rule} does not fit ${endpointName}: it needs field "${first.field}" to be ${first.needs}, found ${first.found}; ${fix}`;
  }
  return undefined;
}
