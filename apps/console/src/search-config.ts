/** The pure edits the search page makes to a search configuration as the admin API returns it. */
import type { MerchandisingRule, SearchConfigurationView, SearchRedirectConfig } from '@discovery-kit/protocol';

export type Placement = 'pin' | 'boost' | 'bury' | 'clear';

export const normalizeQuery = (query: string) => query.trim().toLowerCase().replace(/\s+/g, ' ');

/** Where a placement applies: the query alone, the query in a context (`when`), or every query in a context. */
export interface PlacementScope {
  when?: MerchandisingRule['when'];
  everyQuery?: boolean;
}

/** The rule of exactly this query (none: every query) and these conditions. */
function isRuleOf(rule: MerchandisingRule, wanted: string | undefined, when: MerchandisingRule['when']): boolean {
  const query = rule.query === undefined ? undefined : normalizeQuery(rule.query);
  return query === wanted && JSON.stringify(rule.when ?? null) === JSON.stringify(when ?? null);
}

/** The configuration with `itemId` pinned, boosted, buried or freed for `query` (one rule per query and conditions). */
export function placeItem(config: SearchConfigurationView, query: string, itemId: string, placement: Placement, scope: PlacementScope = {}): SearchConfigurationView {
  const when = scope.when;
  // Every query needs a condition: a rule with neither would apply to every search of every shopper.
  const wanted = scope.everyQuery === true && when !== undefined ? undefined : normalizeQuery(query);
  const existing = config.rules.find((r) => isRuleOf(r, wanted, when)) ?? { ...(wanted === undefined ? {} : { query: wanted }), ...(when === undefined ? {} : { when }), pin: [], boost: [], bury: [] };
  const rule: MerchandisingRule = {
    ...existing,
    pin: existing.pin.filter((id) => id !== itemId),
    boost: existing.boost.filter((id) => id !== itemId),
    bury: existing.bury.filter((id) => id !== itemId),
  };
  if (placement !== 'clear') rule[placement].push(itemId);
  const others = config.rules.filter((r) => !isRuleOf(r, wanted, when));
  const empty = rule.pin.length + rule.boost.length + rule.bury.length === 0 && rule.filter === undefined;
  return { ...config, rules: empty ? others : [...others, rule] };
}

/** One group per line, words separated by commas: `sneakers, trainers, shoes`. */
export function parseSynonyms(text: string): string[][] {
  return text
    .split('\n')
    .map((line) => line.split(',').map((w) => w.trim()).filter((w) => w !== ''))
    .filter((group) => group.length > 0);
}

export function synonymsText(groups: readonly string[][]): string {
  return groups.map((g) => g.join(', ')).join('\n');
}

/** A redirect id from its name: the safe alphabet of configuration ids. */
export function redirectId(name: string, taken: readonly SearchRedirectConfig[]): string {
  const base = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'redirect';
  let id = base;
  for (let n = 2; taken.some((r) => r.id === id); n++) id = `${base}-${n}`;
  return id;
}

/** The configuration with `query` searched as `words` too: one synonym group, joined to a group that already holds the query. */
export function addSynonym(config: SearchConfigurationView, query: string, words: readonly string[]): SearchConfigurationView {
  const wanted = normalizeQuery(query);
  const extra = words.map(normalizeQuery).filter((w) => w !== '' && w !== wanted);
  const index = config.synonyms.findIndex((group) => group.some((w) => normalizeQuery(w) === wanted));
  const synonyms = config.synonyms.map((group) => [...group]);
  if (index < 0) synonyms.push([wanted, ...new Set(extra)]);
  else synonyms[index] = [...new Set([...synonyms[index]!, ...extra])];
  return { ...config, synonyms };
}

/** The configuration with shoppers who search `query` sent to `url` (a redirect named after the query). */
export function addRedirect(config: SearchConfigurationView, query: string, url: string, name = query): SearchConfigurationView {
  const queries = query.split(',').map((q) => q.trim()).filter((q) => q !== '');
  return { ...config, redirects: [...config.redirects, { id: redirectId(name, config.redirects), name, url, queries }] };
}
