/**
 * The search page's shopper context: the configuration's declared context variables as the
 * merchandiser fills them in, turned into a search request's `context` (to explain what that shopper
 * sees) and into a rule's `when` conditions (to pin, boost or bury for that shopper only).
 */
import type { ContextCondition, ContextVariableType, ContextVariableValue, MerchandisingRule, SearchConfigurationView, SearchExplanation } from '@discovery-kit/protocol';

/** Values as typed in the form, by variable name ('' for not set). */
export type ContextInputs = Record<string, string>;

const listOf = (text: string) => text.split(',').map((v) => v.trim()).filter((v) => v !== '');

/** The filled-in variables, each with its declared type. */
function filled(declared: Readonly<Record<string, ContextVariableType>>, inputs: ContextInputs): Array<[string, ContextVariableType, string]> {
  return Object.entries(declared).flatMap(([name, type]) => {
    const text = (inputs[name] ?? '').trim();
    return text === '' ? [] : [[name, type, text] as [string, ContextVariableType, string]];
  });
}

function typedValue(type: ContextVariableType, text: string): ContextVariableValue {
  switch (type) {
    case 'string':
      return { stringValue: text };
    case 'stringList':
      return { stringListValue: { values: listOf(text) } };
    case 'long':
      return { longValue: Number.parseInt(text, 10) };
    case 'double':
      return { doubleValue: Number(text) };
    case 'bool':
      return { boolValue: text === 'true' };
    case 'date':
      return { dateValue: text };
  }
}

/** A search request's `context` (3.0 form) for these inputs, or undefined when none is filled in. */
export function contextOf(declared: Readonly<Record<string, ContextVariableType>>, inputs: ContextInputs): { contextVariables: { name: string; value: ContextVariableValue }[] } | undefined {
  const set = filled(declared, inputs);
  return set.length === 0 ? undefined : { contextVariables: set.map(([name, type, text]) => ({ name, value: typedValue(type, text) })) };
}

/** `when` conditions holding for exactly these inputs (a date: its whole day), or undefined when none is filled in. */
export function whenOf(declared: Readonly<Record<string, ContextVariableType>>, inputs: ContextInputs): Record<string, ContextCondition> | undefined {
  const set = filled(declared, inputs);
  if (set.length === 0) return undefined;
  const when: Record<string, ContextCondition> = {};
  for (const [name, type, text] of set) {
    if (type === 'string') when[name] = text;
    else if (type === 'stringList') when[name] = listOf(text);
    else if (type === 'bool') when[name] = text === 'true';
    else if (type === 'date') when[name] = { from: text.slice(0, 10), to: text.slice(0, 10) };
    else when[name] = Number(text);
  }
  return when;
}

/** A condition as the page shows it: `store = paris`, `segment in vip, staff`, `visit 2026-12-01 to 2026-12-24`. */
export function conditionText(variable: string, condition: ContextCondition): string {
  if (Array.isArray(condition)) return `${variable} in ${condition.join(', ')}`;
  if (typeof condition === 'object') return `${variable} ${condition.from ?? '…'} to ${condition.to ?? '…'}`;
  return `${variable} = ${String(condition)}`;
}

/** What a rule applies to, in words. */
export function ruleScopeText(rule: Pick<MerchandisingRule, 'query' | 'when'>): string {
  const when = Object.entries(rule.when ?? {}).map(([variable, condition]) => conditionText(variable, condition));
  const query = rule.query === undefined ? 'every query' : `“${rule.query}”`;
  return when.length === 0 ? query : `${query} when ${when.join(' and ')}`;
}

/** Why each fired rule or redirect fired, one line each, for the results summary. */
export function firedText(explanation: SearchExplanation, config: SearchConfigurationView): string[] {
  return explanation.fired.map((fired) => {
    const name = fired.kind === 'redirect' ? `Redirect ${config.redirects[fired.index]?.name ?? fired.index + 1}` : `Rule ${fired.index + 1} (${ruleScopeText(config.rules[fired.index] ?? {})})`;
    const because = fired.because.map((b) => `${b.variable} is ${b.value}`);
    return `${name} fired${because.length === 0 ? ' for the query' : ` because ${because.join(' and ')}`}.`;
  });
}
