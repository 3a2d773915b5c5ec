/**
 * Which merchandising rules and redirect a search fires: a rule applies when its query (if it names
 * one) is the request's and every `when` condition holds on the request's context variables (typed
 * values, compared as their types). Every applying rule counts, in the configuration's order: their
 * pins in turn, their boosts and buries together, their filters all kept. The first applying
 * redirect is served. Explain reads `fired` to say which rule fired and because of which variable.
 */
import type { SearchConfiguration } from '../../../platform/config/schema.js';
import type { Condition, When } from '../../../platform/config/context-conditions.js';
import { queryWords } from '../query/matcher.js';

/** A context variable's value, typed as the request sent it (context-variables.ts in the search API reads them). */
export type ContextValue =
  | { type: 'string'; value: string }
  | { type: 'long' | 'double'; value: number }
  | { type: 'bool'; value: boolean }
  /** Milliseconds since the Unix epoch. */
  | { type: 'date'; value: number }
  | { type: 'stringList'; value: string[] };

/** The request's declared variables by name (variables the configuration does not declare are left out). */
export type ContextVariables = Readonly<Record<string, ContextValue>>;

/** A rule or redirect that applied, and why: its query and each variable whose condition held. */
export interface FiredRule {
  kind: 'rule' | 'redirect';
  /** Its position in the configuration's `rules` or `redirects`. */
  index: number;
  query: string | undefined;
  because: Array<{ variable: string; value: string; condition: Condition }>;
}

export interface Merchandising {
  pin: string[];
  boost: string[];
  bury: string[];
  /** The applying rules' filters, to be kept on top of the request's. */
  filters: string[];
  redirect: SearchConfiguration['redirects'][number] | undefined;
  fired: FiredRule[];
}

const fold = (text: string): string => text.trim().toLowerCase();

/** A date-only bound (`2026-12-24`) as the last instant of that day when it ends a range. */
function dateBound(text: string, end: 'from' | 'to'): number {
  const at = Date.parse(text);
  return end === 'to' && /^\d{4}-\d{2}-\d{2}$/.test(text) ? at + 86_400_000 - 1 : at;
}

/** Whether `value` satisfies `condition` (the configuration check made sure the shapes suit each other). */
export function conditionHolds(condition: Condition, value: ContextValue): boolean {
  if (value.type === 'string' || value.type === 'stringList') {
    const held = value.type === 'string' ? [fold(value.value)] : value.value.map(fold);
    const wanted = typeof condition === 'string' ? [fold(condition)] : Array.isArray(condition) ? condition.map(fold) : [];
    return wanted.some((w) => held.includes(w));
  }
  if (value.type === 'bool') return condition === value.value;
  if (typeof condition === 'number') return value.value === condition;
  if (typeof condition !== 'object' || Array.isArray(condition)) return false;
  const bound = (end: 'from' | 'to'): number | undefined => {
    const given = condition[end];
    return given === undefined ? undefined : typeof given === 'number' ? given : dateBound(given, end);
  };
  const from = bound('from');
  const to = bound('to');
  return (from === undefined || value.value >= from) && (to === undefined || value.value <= to);
}

/** A value as explain shows it. */
function shown(value: ContextValue): string {
  if (value.type === 'date') return new Date(value.value).toISOString();
  if (value.type === 'stringList') return value.value.join(', ');
  return String(value.value);
}

/** The variables that made `when` hold, or undefined when one of its conditions does not. */
function heldBy(when: When | undefined, variables: ContextVariables): FiredRule['because'] | undefined {
  if (when === undefined) return [];
  const because: FiredRule['because'] = [];
  for (const [variable, condition] of Object.entries(when)) {
    const value = Object.hasOwn(variables, variable) ? variables[variable] : undefined;
    if (value === undefined || !conditionHolds(condition, value)) return undefined;
    because.push({ variable, value: shown(value), condition });
  }
  return because;
}

/** What the configuration's rules and redirects do to the search of `normalised` (its folded words) in this context. */
export function merchandisingFor(config: SearchConfiguration, normalised: string, variables: ContextVariables): Merchandising {
  const out: Merchandising = { pin: [], boost: [], bury: [], filters: [], redirect: undefined, fired: [] };
  const seen = new Set<string>();
  config.rules.forEach((rule, index) => {
    if (rule.query !== undefined && queryWords(rule.query).join(' ') !== normalised) return;
    const because = heldBy(rule.when, variables);
    if (because === undefined) return;
    out.fired.push({ kind: 'rule', index, query: rule.query, because });
    for (const id of rule.pin) if (!seen.has(id)) (seen.add(id), out.pin.push(id));
    out.boost.push(...rule.boost);
    out.bury.push(...rule.bury);
    if (rule.filter !== undefined) out.filters.push(rule.filter);
  });
  if (normalised === '') return out;
  config.redirects.find((redirect, index) => {
    if (redirect.queries.length > 0 && !redirect.queries.some((q) => queryWords(q).join(' ') === normalised)) return false;
    const because = heldBy(redirect.when, variables);
    if (because === undefined) return false;
    out.redirect = redirect;
    out.fired.push({ kind: 'redirect', index, query: normalised, because });
    return true;
  });
  return out;
}

/** The request's filter and the fired rules' filters as one filter text (undefined: none). */
export function combinedFilter(requested: string | undefined, ruleFilters: readonly string[]): string | undefined {
  const given = requested === undefined || requested.trim() === '' ? [] : [requested];
  const all = [...given, ...ruleFilters];
  if (all.length <= 1) return all[0] ?? requested;
  return all.map((text) => `(${text})`).join(' AND ');
}
