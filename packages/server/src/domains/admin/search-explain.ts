/**
 * Search tuning's view of a query: the ranked results with their scores and, for each, why it is
 * there — which weighted fields hold the query's words (or their synonyms), which merchandising
 * rule pinned, boosted or buried it, and what learning moved (votes, lift, the text order beside it).
 */
import type { SearchConfiguration } from '../../platform/config/schema.js';
import type { SearchService } from '../search/search-service.js';
import { safeImageUrl } from '../catalog/product-view.js';
import { merchandisingFor, type ContextVariables, type FiredRule } from '../search/rules/context-rules.js';
import type { LearnedItem } from '../search/learning/learned-order.js';
import { resetOf } from '../search/learning/learned-signal.js';

export interface ExplainedHit {
  position: number;
  id: string;
  score: number;
  title: string;
  /** The item's photo (an http(s), site-relative or inline image URL; empty without one), price in minor units and currency, for a product picker. */
  photo: string;
  price: number | undefined;
  currency: string | undefined;
  /** `pinned`, `boosted` or `buried` when a rule of this query moved it. */
  rule: 'pinned' | 'boosted' | 'buried' | undefined;
  /** Weighted fields that contain a word of the query (as typed, as a prefix, or as a synonym). */
  matchedFields: Array<{ attribute: string; weight: number; words: string[] }>;
  /** Its position in the text order alone (learning off), when within the explained positions. */
  textPosition?: number;
  /** The votes that moved it, when learning did (for a joined item: the shoppers it led, query-leads.ts). */
  learned?: LearnedItem;
  /** The query's words do not match it: it joined because shoppers who searched the query went on to buy it. */
  joined?: true;
}

export interface QueryLearning {
  key: string;
  enabled: boolean;
  votes: number;
  shoppers: number;
  resetAt?: number;
  items: LearnedItem[];
  /** Products the query leads to (query-leads.ts): they join its results when it does not match them. */
  leads: LearnedItem[];
}

export interface Explanation {
  query: string;
  configurationId: string;
  count: number;
  redirect: { id: string; name: string; url: string } | undefined;
  rule: { pin: string[]; boost: string[]; bury: string[] } | undefined;
  /** The rules and redirect that fired, each with its query and the context variables whose conditions held. */
  fired: FiredRule[];
  synonyms: string[][];
  hits: ExplainedHit[];
  learning?: QueryLearning;
}

const fold = (text: string) => text.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase();
const wordsOf = (text: string) => fold(text).split(/[^\p{L}\p{N}]+/u).filter((w) => w !== '');

function attributeText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.map(attributeText).join(' ');
  return typeof value === 'object' ? '' : String(value);
}

export function explainSearch(options: {
  search: SearchService;
  tenantId: string;
  environmentId: string;
  configuration: SearchConfiguration;
  query: string;
  limit: number;
  /** The context variables to explain the search in (a shopper of the Paris store): the configuration's declared ones. */
  variables: ContextVariables;
}): Explanation {
  const { configuration, query } = options;
  const request = {
    tenantId: options.tenantId,
    environmentId: options.environmentId,
    configuration,
    query,
    offset: 0,
    limit: options.limit,
    sortBy: [],
    facets: [],
    filter: undefined,
    disabled: new Set<string>(),
    variables: options.variables,
    // The first `limit` in order, without sorting every match.
    ordered: options.limit,
  };
  const result = options.search.search(request);
  // The text order beside it: the same search with the learned signal left out.
  const textOrder = result.learned === 0 && result.joined === 0 ? undefined : options.search.search({ ...request, disabled: new Set(['learning']) }).ordered.map(({ item }) => item.id);
  const learning = learningOf(options.search, options.tenantId, configuration, result.learningKey);
  const leadsById = new Map(learning?.leads.map((item) => [item.id, item]));
  const learnedById = new Map(learning?.items.map((item) => [item.id, item]));
  const queryWords = wordsOf(query);
  const normalised = queryWords.join(' ');
  const merchandising = merchandisingFor(configuration, normalised, options.variables);
  const rule = merchandising.fired.some((f) => f.kind === 'rule') ? merchandising : undefined;
  const synonyms = configuration.synonyms.filter((group) => group.some((word) => queryWords.includes(wordsOf(word).join(' '))));
  const wanted = new Set([...queryWords, ...synonyms.flat().flatMap(wordsOf)]);
  const redirectHit = result.items.find((item) => item.redirect !== undefined)?.redirect;
  const hits: ExplainedHit[] = result.ordered.slice(0, options.limit).map(({ item, score, joined }, index) => {
    const matchedFields = configuration.fields.flatMap((field) => {
      const found = wordsOf(attributeText(item.attributes[field.attribute])).filter((w) => [...wanted].some((q) => w.startsWith(q)));
      return found.length === 0 ? [] : [{ attribute: field.attribute, weight: field.weight, words: [...new Set(found)].slice(0, 5) }];
    });
    const ruleOf = rule?.pin.includes(item.id) ? 'pinned' : rule?.boost.includes(item.id) ? 'boosted' : rule?.bury.includes(item.id) ? 'buried' : undefined;
    const attrs = item.attributes;
    const price = item.price ?? (typeof attrs.price === 'number' ? attrs.price : undefined);
    const photo = safeImageUrl(item.image ?? (attributeText(attrs.image) || attributeText(attrs.photo) || undefined));
    const hit = { position: index + 1, id: item.id, score: Math.round(score * 1000) / 1000, title: attributeText(attrs.title), photo, price, currency: attributeText(attrs.currency) || undefined, rule: ruleOf, matchedFields } as ExplainedHit;
    const textPosition = textOrder === undefined ? index + 1 : textOrder.indexOf(item.id) + 1;
    if (textPosition > 0) hit.textPosition = textPosition;
    const learned = joined === true ? leadsById.get(item.id) : learnedById.get(item.id);
    if (learned !== undefined) hit.learned = learned;
    if (joined === true) hit.joined = true;
    return hit;
  });
  return {
    query,
    configurationId: configuration.id,
    count: result.count,
    redirect: redirectHit,
    rule: rule === undefined ? undefined : { pin: rule.pin, boost: rule.boost, bury: rule.bury },
    fired: merchandising.fired,
    synonyms,
    hits,
    ...(learning === undefined ? {} : { learning }),
  };
}

/** What learning holds under `key` for this configuration (the votes since its last reset). */
export function learningOf(search: SearchService, tenantId: string, configuration: SearchConfiguration, key: string | undefined): QueryLearning | undefined {
  if (key === undefined || search.learning === undefined) return undefined;
  const resetAt = resetOf(configuration, key);
  const { votes, shoppers, items, leads } = search.learning.explain(tenantId, key, configuration.learning, resetAt);
  return { key, enabled: configuration.learning.enabled, votes, shoppers, ...(resetAt > 0 ? { resetAt } : {}), items, leads };
}
