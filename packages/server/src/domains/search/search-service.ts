/**
 * Search over the active catalog of each environment. A promotion builds the new catalog's index off
 * the request path (the promotion awaits it, so the swap happens only once it is complete), as does
 * server start for catalogs already active. Writes to the active catalog then reach the live index as
 * changes to the written items only (index.apply), a slice at a time between requests.
 */
import type { CatalogService } from '../catalog/catalog-service.js';
import { toProductView } from '../catalog/product-view.js';
import type { ItemsChanged, StoredItem } from '../catalog/types.js';
import type { ConfigRegistry } from '../../platform/config/registry.js';
import type { SearchConfiguration } from '../../platform/config/schema.js';
import type { Logger } from '../../platform/logger.js';
import type { QuerySpelling } from './search-queries.js';
import { fold } from './analyzer.js';
import { attributeValues } from './attribute-values.js';
import { countFacets, type FacetResult } from './facets.js';
import { compileBatchFilter, parseFilter, type FilterNode } from './filter.js';
import type { HighlightTerms } from './highlight.js';
import { allDocuments, matchQuery, queryWords, similarDocuments, wordReach, type Matches } from './matcher.js';
import { planQuery, TYPO, type PlannedWord, type QueryPlan } from './query-plan.js';
import { firstInOrder, type EntryOrder } from './ranking.js';
import { ResultCache } from './result-cache.js';
import { SearchIndex, type SearchDoc, type SortKey } from './search-index.js';

export type { FacetResult } from './facets.js';
export type { SortKey } from './search-index.js';

export interface SearchQuery {
  tenantId: string;
  environmentId: string;
  configuration: SearchConfiguration;
  query: string;
  offset: number;
  limit: number;
  sortBy: SortKey[];
  facets: { id: string; values: string[] }[];
  filter: string | undefined;
  disabled: Set<string>;
  /** Also return every match in order (suggest groups them); a plain search pages without sorting them all. */
  ordered?: boolean;
}

export interface SearchHit {
  id: string;
  score: number;
  kind: string;
  context: string;
  product?: Record<string, unknown>;
  redirect?: { id: string; name: string; url: string };
  /** Only when the request asked (`options.highlight`): matched ranges per field. */
  highlights?: Record<string, [number, number][]>;
}

export interface SearchResult {
  items: SearchHit[];
  count: number;
  /** Always true: every match is counted (no scoring cap). Kept because the response carries it. */
  exact: boolean;
  facets: FacetResult[];
  /** Every match in result order, when the query asked for it (`ordered`: suggest's groups); otherwise empty. */
  ordered: { doc: SearchDoc; item: StoredItem; score: number }[];
  /** Items the query's words matched before filters and facets (what autocomplete calls "returned results"). */
  matched: number;
  /** How the query's words matched: as typed (or as prefixes/synonyms), only through typo correction, or not at all. */
  spelling: QuerySpelling;
  /** The query as run, when it differs from the typed one (typo corrected, word split). */
  corrected: string | undefined;
  /** No item matched every word: some words were left out rather than answer nothing. */
  relaxed: boolean;
  /** What highlighting marks in the answered items. */
  highlight: HighlightTerms;
  version: number | undefined;
}

const NO_HIGHLIGHT: HighlightTerms = { terms: [], typing: undefined };

/** Leaving one word out at a time is tried up to this many words; longer queries keep their rarest word. */
const RELAX_ONE_BY_ONE = 6;

interface ActiveIndex {
  version: number;
  index: SearchIndex;
  cache: ResultCache<SearchResult>;
}

/** Answers remembered per environment (see result-cache.ts); 0 turns the cache off. */
const RESULT_CACHE_SIZE = 1_000;

/** Items applied per turn of the event loop: a 5,000-item load reaches the index without stalling queries. */
const APPLY_SLICE = 250;

export class SearchService {
  private readonly indexes = new Map<string, ActiveIndex>();
  private readonly queued = new Map<string, { version: number; changes: ItemsChanged[] }>();
  private readonly draining = new Map<string, Promise<void>>();
  /** Entries each environment's result cache holds; the benchmark sets 0 to measure the engine alone. */
  resultCacheSize = RESULT_CACHE_SIZE;

  constructor(private readonly deps: { catalog: CatalogService; registry: ConfigRegistry; logger: Logger; onIndexBuilt?: (seconds: number) => void }) {
    deps.catalog.onActivate(async (tenantId, environmentId, version, items) => {
      this.build(tenantId, environmentId, version, items);
    });
    deps.catalog.onItemsChanged((change) => this.enqueue(change));
  }

  /** Builds the indexes of catalogs that were already active when the server started. */
  async start(): Promise<void> {
    for (const tenant of this.deps.registry.tenantList) {
      for (const environment of tenant.environments) {
        const active = await this.deps.catalog.catalogs.active(tenant.id, environment.id);
        if (active === undefined) continue;
        const items = await this.deps.catalog.allItems(tenant.id, environment.id, active.version);
        this.build(tenant.id, environment.id, active.version, items);
      }
    }
  }

  /** Waits until queued item changes have reached the index, so tests read an index that includes their writes. */
  async settled(): Promise<void> {
    while (this.draining.size > 0) await Promise.all(this.draining.values());
  }

  /**
   * After a runtime configuration change (admin API): rebuilds the environment's index when its
   * configurations now weigh a field the index does not hold; otherwise nothing to do.
   */
  async refreshFields(tenantId: string, environmentId: string): Promise<boolean> {
    const current = this.indexes.get(key(tenantId, environmentId));
    if (current === undefined) return false;
    const indexed = new Set(current.index.fields);
    if (this.searchedFields(tenantId, environmentId).every((field) => indexed.has(field))) return false;
    await this.settled();
    const items = await this.deps.catalog.allItems(tenantId, environmentId, current.version);
    this.build(tenantId, environmentId, current.version, items);
    return true;
  }

  /** Text fields any search configuration of the environment weighs: only those are indexed. */
  private searchedFields(tenantId: string, environmentId: string): string[] {
    const environment = this.deps.registry.findTenant(tenantId)?.environments.find((e) => e.id === environmentId);
    const fields = new Set<string>();
    for (const token of environment?.searchTokens ?? []) for (const c of token.configurations) for (const f of c.fields) fields.add(f.attribute);
    return [...fields];
  }

  /** Languages the environment's search configurations use. */
  private languages(tenantId: string, environmentId: string): Set<SearchConfiguration['language']> {
    const environment = this.deps.registry.findTenant(tenantId)?.environments.find((e) => e.id === environmentId);
    const out = new Set<SearchConfiguration['language']>();
    for (const token of environment?.searchTokens ?? []) for (const c of token.configurations) out.add(c.language);
    return out;
  }

  private build(tenantId: string, environmentId: string, version: number, items: readonly StoredItem[]): void {
    const started = performance.now();
    const index = new SearchIndex(items, this.searchedFields(tenantId, environmentId));
    for (const language of this.languages(tenantId, environmentId)) index.vocabulary.prepareForms(language);
    this.indexes.set(key(tenantId, environmentId), { version, index, cache: new ResultCache(this.resultCacheSize) });
    this.deps.logger.info({ tenantId, environmentId, version, documents: index.size, ms: Math.round(performance.now() - started) }, 'search index built');
    this.deps.onIndexBuilt?.((performance.now() - started) / 1000);
  }

  private enqueue(change: ItemsChanged): void {
    const { scope } = change;
    if (scope.api !== 'catalog') return;
    const k = key(scope.tenantId, scope.environmentId);
    const current = this.indexes.get(k);
    if (current === undefined || current.version !== scope.version) return;
    let queue = this.queued.get(k);
    if (queue === undefined || queue.version !== scope.version) this.queued.set(k, (queue = { version: scope.version, changes: [] }));
    queue.changes.push(change);
    if (!this.draining.has(k)) {
      const run = this.drain(k)
        .catch((error: unknown) => this.deps.logger.error({ err: error, tenantId: scope.tenantId, environmentId: scope.environmentId }, 'search index update failed'))
        .finally(() => this.draining.delete(k));
      this.draining.set(k, run);
    }
  }

  /** Applies queued changes a slice per turn; changes for a version that is no longer active are dropped. */
  private async drain(k: string): Promise<void> {
    for (;;) {
      await new Promise((resolve) => setImmediate(resolve));
      const queue = this.queued.get(k);
      const current = this.indexes.get(k);
      if (queue === undefined || queue.changes.length === 0) break;
      const change = queue.changes[0]!;
      if (current === undefined || current.version !== queue.version) {
        this.queued.delete(k);
        break;
      }
      const upserted = change.upserted.slice(0, APPLY_SLICE);
      const removedKeys = change.removedKeys.slice(0, APPLY_SLICE);
      current.index.apply({ upserted, removedKeys });
      if (upserted.length === change.upserted.length && removedKeys.length === change.removedKeys.length) queue.changes.shift();
      else queue.changes[0] = { ...change, upserted: change.upserted.slice(upserted.length), removedKeys: change.removedKeys.slice(removedKeys.length) };
      if (queue.changes.length === 0) current.index.refreshOrders();
    }
  }

  /**
   * Suggest's groups: the matches split by one attribute's values (only `values` when given, in that
   * order; otherwise the most frequent first), each with its full count and its first `size` items.
   */
  group(tenantId: string, result: SearchResult, groupBy: { attribute: string; size: number; values: string[] }): { value: string; count: number; items: SearchHit[] }[] {
    const groups = new Map<string, { value: string; count: number; items: SearchHit[] }>();
    const wanted = new Map(groupBy.values.map((v) => [fold(v), v]));
    for (const value of groupBy.values) groups.set(fold(value), { value, count: 0, items: [] });
    for (const { doc, item, score } of result.ordered) {
      for (const raw of new Set(attributeValues(item, groupBy.attribute).map(String))) {
        const k = fold(raw);
        if (wanted.size > 0 && !wanted.has(k)) continue;
        let group = groups.get(k);
        if (group === undefined) groups.set(k, (group = { value: raw, count: 0, items: [] }));
        group.count++;
        if (group.items.length < groupBy.size) group.items.push(hitOf(tenantId, result.version ?? 0, doc, score));
      }
    }
    const out = [...groups.values()];
    return wanted.size > 0 ? out : out.sort((a, b) => b.count - a.count || a.value.localeCompare(b.value));
  }

  /**
   * Items whose text shares the most distinctive words with `itemId`'s title (each shared word weighs its
   * inverse document frequency), best first, the item itself excluded. Recommendations' `similar`
   * strategy reads it; an item outside the active index, or an environment without one, gives [].
   */
  similarText(tenantId: string, environmentId: string, itemId: string, limit: number): { id: string; score: number }[] {
    const active = this.indexes.get(key(tenantId, environmentId));
    if (active === undefined) return [];
    const slot = active.index.docOf(itemId);
    if (slot === undefined) return [];
    return similarDocuments(active.index, slot, limit).map(({ doc, score }) => ({ id: active.index.docs[doc]!.item.id, score: round(score) }));
  }

  /**
   * How `query`'s words match the active catalog now, without filters, paging or views: autocomplete
   * asks it about queries whose last search it does not know (recorded before a restart).
   */
  spelling(tenantId: string, environmentId: string, configuration: SearchConfiguration, query: string): QuerySpelling {
    const active = this.indexes.get(key(tenantId, environmentId));
    const queryText = queryWords(query);
    if (active === undefined || queryText.length === 0) return 'none';
    const run = relaxedMatch(active.index, configuration, queryText);
    return spellingOf(run.matches, run.plan, run.relaxed);
  }

  /**
   * "heart in Home Décor": the most frequent values of the configuration's first value facet among
   * `query`'s results (before paging), for autocomplete's category suggestions.
   */
  categorySuggestions(request: { tenantId: string; environmentId: string; configuration: SearchConfiguration; query: string; limit: number }): { facetId: string; attribute: string; value: string; count: number }[] {
    const facet = request.configuration.facets.find((f) => f.type !== 'range');
    if (facet === undefined) return [];
    const result = this.search({ ...request, offset: 0, limit: 0, sortBy: [], facets: [], filter: undefined, disabled: new Set(['item', 'redirect']) });
    if (result.relaxed || result.count === 0) return [];
    const counted = result.facets.find((f) => f.id === facet.id);
    return (counted?.values ?? []).slice(0, request.limit).map((v) => ({ facetId: facet.id, attribute: facet.attribute, value: v.value, count: v.count }));
  }

  search(request: SearchQuery): SearchResult {
    const active = this.indexes.get(key(request.tenantId, request.environmentId));
    if (active === undefined) return { items: [], count: 0, exact: true, facets: [], ordered: [], matched: 0, spelling: 'none', corrected: undefined, relaxed: false, highlight: NO_HIGHLIGHT, version: undefined };
    const { index, version } = active;
    const config = request.configuration;
    const filter = request.filter === undefined || request.filter.trim() === '' ? undefined : parsedFilter(request.filter);

    const queryText = queryWords(request.query);
    const normalised = queryText.join(' ');
    // Suggest's full ordered match lists are too large to keep.
    if (request.ordered === true) return this.answer(request, active, queryText, filter);
    active.cache.capacity = this.resultCacheSize;
    // Cache off: no key to build (get and set would do nothing with it).
    if (active.cache.capacity <= 0) return this.answer(request, active, queryText, filter);
    const cacheKey = active.cache.key(config, [normalised, request.offset, request.limit, request.sortBy, request.facets, request.filter ?? '', [...request.disabled].sort()]);
    const cached = active.cache.get(index, cacheKey);
    if (cached !== undefined) return cached;
    const result = this.answer(request, active, queryText, filter);
    active.cache.set(index, cacheKey, result);
    return result;
  }

  private answer(request: SearchQuery, active: ActiveIndex, queryText: string[], filter: FilterNode | undefined): SearchResult {
    const { index, version } = active;
    const config = request.configuration;
    const normalised = queryText.join(' ');
    const run = normalised === '' ? undefined : relaxedMatch(index, config, queryText);
    const matches = run === undefined ? allDocuments(index) : run.matches;
    const { docs, scores } = matches;
    let length = docs.length;

    if (filter !== undefined) {
      const keep = compileBatchFilter(
        filter,
        (attribute) => index.values(attribute),
        (attribute) => index.numbers(attribute),
      );
      length = keep(docs, scores, length);
    }

    // Shoppers' selections come back as typed in URLs, so case and accents do not decide a match.
    const selections = new Map(request.facets.filter((f) => f.values.length > 0).map((f) => [f.id, new Set(f.values.map(fold))]));
    const facetsOn = !request.disabled.has('facet');
    let facets: FacetResult[] = [];
    if (config.facets.length > 0 && (facetsOn || selections.size > 0)) {
      const columns = config.facets.map((facet) => index.facetColumn(facet));
      const counted = countFacets(columns, selections, docs, length, facetsOn);
      facets = counted.results;
      if (selections.size > 0) {
        // Passing positions ascend, so moving each down to its rank never overwrites one still to move.
        const { passing } = counted;
        for (let n = 0; n < passing.length; n++) {
          const i = passing[n]!;
          docs[n] = docs[i]!;
          scores[n] = scores[i]!;
        }
        length = passing.length;
      }
    }

    const rule = config.rules.find((r) => queryWords(r.query).join(' ') === normalised);
    const sortBy = request.sortBy.length > 0 ? request.sortBy : normalised === '' ? config.defaultSort : [];
    // Equal relevance falls back to the configured default order (popularity in the demo), which shoppers read as "better".
    const primary = sortBy.length > 0 ? index.rank(sortBy) : undefined;
    const fallback = config.defaultSort.length > 0 ? index.rank(config.defaultSort) : undefined;
    const tiers = rule === undefined ? undefined : tiersOf(index, rule, docs, length);
    const order: EntryOrder = (a, b) => {
      const x = docs[a]!;
      const y = docs[b]!;
      return (
        (tiers === undefined ? 0 : tiers[b]! - tiers[a]!) ||
        (primary === undefined ? 0 : primary[x]! - primary[y]!) ||
        scores[b]! - scores[a]! ||
        (fallback === undefined ? 0 : fallback[x]! - fallback[y]!) ||
        x - y
      );
    };
    const pinned = (rule?.pin ?? []).flatMap((id) => index.docOf(id) ?? []);
    const pinnedSet = new Set(pinned);
    // Only a pinned item that did not match needs the top score (it borrows it); finding it costs a pass.
    const top = pinned.length === 0 || length === 0 ? 0 : scores[firstInOrder(length, 1, order)[0]!]!;
    const scoreOf = new Map<number, number>();
    if (pinned.length > 0) for (let i = 0; i < length; i++) if (pinnedSet.has(docs[i]!)) scoreOf.set(docs[i]!, scores[i]!);
    const unmatchedPins = pinned.filter((doc) => !scoreOf.has(doc)).length;
    // Pinned items come first in the rule's order, even those the query did not match.
    const page = (k: number): { doc: number; score: number }[] => {
      const head = pinned.map((doc) => ({ doc, score: scoreOf.get(doc) ?? top }));
      const rest = firstInOrder(length, k + pinned.length, order, undefined, tiers === undefined && primary === undefined ? scores : undefined)
        .filter((i) => !pinnedSet.has(docs[i]!))
        .map((i) => ({ doc: docs[i]!, score: scores[i]! }));
      return [...head, ...rest].slice(0, k);
    };

    const hits: SearchHit[] = [];
    const redirect = request.disabled.has('redirect') ? undefined : config.redirects.find((r) => r.queries.some((q) => queryWords(q).join(' ') === normalised));
    if (redirect !== undefined && normalised !== '') {
      hits.push({ id: redirect.id, score: 1, kind: 'redirect', context: '', redirect: { id: redirect.id, name: redirect.name, url: redirect.url } });
    }
    if (!request.disabled.has('item') && request.limit > 0) {
      for (const { doc, score } of page(request.offset + request.limit).slice(request.offset)) {
        hits.push(hitOf(request.tenantId, version, index.docs[doc]!, score));
      }
    }
    const count = length + unmatchedPins;
    return {
      items: hits,
      count,
      exact: true,
      facets,
      ordered: request.ordered === true ? page(count).map(({ doc, score }) => ({ doc: index.docs[doc]!, item: index.docs[doc]!.item, score })) : [],
      matched: matches.docs.length,
      spelling: run === undefined ? 'none' : spellingOf(matches, run.plan, run.relaxed),
      corrected: run?.plan.corrected,
      relaxed: run?.relaxed ?? false,
      highlight: run === undefined ? NO_HIGHLIGHT : highlightTermsOf(run.words, queryText),
      version,
    };
  }
}

/** Filters parsed lately, by their text: a storefront sends the same few filters request after request. */
const parsedFilters = new Map<string, FilterNode>();
const PARSED_FILTERS = 200;

/** parseFilter, remembered for the last texts parsed (the trees are never modified); a syntax error is thrown each time. */
function parsedFilter(text: string): FilterNode {
  let node = parsedFilters.get(text);
  if (node === undefined) {
    node = parseFilter(text);
    if (parsedFilters.size >= PARSED_FILTERS) parsedFilters.delete(parsedFilters.keys().next().value!);
    parsedFilters.set(text, node);
  }
  return node;
}

/** Autocomplete offers only queries found as typed: a corrected, split or relaxed query is not one to repeat to others. */
function spellingOf(matches: Matches, plan: QueryPlan, relaxed: boolean): QuerySpelling {
  if (matches.docs.length === 0) return 'none';
  return matches.spelledRight && !plan.rewritten && !relaxed ? 'typed' : 'corrected';
}

interface MatchRun {
  plan: QueryPlan;
  /** The planned words that were run (fewer than the plan's when relaxed). */
  words: readonly PlannedWord[];
  matches: Matches;
  relaxed: boolean;
}

/**
 * Matches every word when some item has them all; otherwise serves a looser match rather than nothing:
 * words matching no item are left out, then (three to six words) the one word whose absence finds the
 * most, then the rarest word alone (of two words, the more specific one is what the shopper is after);
 * when no word matches at all, the longest start of each word the catalog has.
 */
function relaxedMatch(index: SearchIndex, config: SearchConfiguration, queryText: string[]): MatchRun {
  const plan = planQuery(index.vocabulary, config, queryText);
  const full = matchQuery(index, config, plan.words);
  if (full.docs.length > 0) return { plan, words: plan.words, matches: full, relaxed: false };
  const found = plan.words.filter((word) => wordReach(index, config, word) > 0);
  if (plan.words.length >= 2 && found.length > 0) {
    if (found.length < plan.words.length) {
      const matches = matchQuery(index, config, found);
      if (matches.docs.length > 0) return { plan, words: found, matches, relaxed: true };
    }
    if (found.length >= 3 && found.length <= RELAX_ONE_BY_ONE) {
      let bestWords: PlannedWord[] | undefined;
      let bestCount = 0;
      for (let leave = 0; leave < found.length; leave++) {
        const rest = found.filter((_, i) => i !== leave);
        const count = matchQuery(index, config, rest).docs.length;
        if (count > bestCount) {
          bestCount = count;
          bestWords = rest;
        }
      }
      if (bestWords !== undefined) return { plan, words: bestWords, matches: matchQuery(index, config, bestWords), relaxed: true };
    }
    let rarest = found[0]!;
    for (const word of found) if (wordReach(index, config, word) < wordReach(index, config, rarest)) rarest = word;
    return { plan, words: [rarest], matches: matchQuery(index, config, [rarest]), relaxed: true };
  }
  // No word matched anything, not even corrected ("cushoinz"): the longest start of each that the
  // catalog has ("cush") rather than nothing.
  const starts = plan.words.flatMap((word): PlannedWord[] => {
    const start = knownStart(index, word.word);
    return start === undefined ? [] : [{ word: start, terms: [{ term: start, factor: TYPO, typo: true, prefix: true }] }];
  });
  const tries = starts.length > 1 ? [starts, ...starts.map((start) => [start])] : [starts];
  for (const words of tries) {
    if (words.length === 0) continue;
    const matches = matchQuery(index, config, words);
    if (matches.docs.length > 0) return { plan, words, matches, relaxed: true };
  }
  // Nothing at all: `full` is an empty view, which later queries' scratch writes cannot change.
  return { plan, words: plan.words, matches: full, relaxed: false };
}

/** Shortest start of a word worth serving alone: two letters match half a catalog. */
const MIN_START = 3;

/** The longest proper start of `word` (MIN_START letters or more) that some catalog word begins with. */
function knownStart(index: SearchIndex, word: string): string | undefined {
  for (let length = word.length - 1; length >= MIN_START; length--) {
    const start = word.slice(0, length);
    if (index.vocabulary.hasCompletions(start) || index.vocabulary.frequency(start) > 0) return start;
  }
  return undefined;
}

function highlightTermsOf(words: readonly PlannedWord[], queryText: readonly string[]): HighlightTerms {
  const terms = [...new Set(words.flatMap((w) => w.terms.map((t) => t.term)))];
  const lastTyped = queryText[queryText.length - 1];
  const typing = lastTyped !== undefined && words.some((w) => w.word === lastTyped) ? lastTyped : undefined;
  return { terms, typing };
}

function hitOf(tenantId: string, version: number, doc: SearchDoc, score: number): SearchHit {
  const { item } = doc;
  // Building a product view costs more than finding the item; the same items come back page after page.
  doc.view ??= toProductView(item, { tenantId, version });
  return { id: item.id, score: round(score), kind: item.kind, context: item.context, product: doc.view };
}

/** Each product view's JSON text, made at its first answer: a view is rebuilt (a new object) when its item changes. */
const viewTexts = new WeakMap<object, string>();

/**
 * A hit as JSON text, the same text `JSON.stringify(hit)` gives: its product view's text is made once and
 * spliced in, since the same views come back request after request and are most of a response's bytes.
 */
export function hitJson(hit: SearchHit): string {
  const { product } = hit;
  // A product hit is exactly hitOf's shape: four keys (strings, a finite score) and then `product`.
  if (product === undefined || hit.redirect !== undefined || typeof hit.id !== 'string' || typeof hit.kind !== 'string' || typeof hit.context !== 'string' || !Number.isFinite(hit.score)) {
    return JSON.stringify(hit);
  }
  let text = viewTexts.get(product);
  if (text === undefined) viewTexts.set(product, (text = JSON.stringify(product)));
  const highlights = hit.highlights === undefined ? '' : `,"highlights":${JSON.stringify(hit.highlights)}`;
  return `{"id":${JSON.stringify(hit.id)},"score":${JSON.stringify(hit.score)},"kind":${JSON.stringify(hit.kind)},"context":${JSON.stringify(hit.context)},"product":${text}${highlights}}`;
}

/** 1 boosted, -1 buried, 0 otherwise: a merchandising tier above relevance. */
function tiersOf(index: SearchIndex, rule: { boost: string[]; bury: string[] }, docs: Int32Array, length: number): Int8Array {
  const boost = new Set(rule.boost.flatMap((id) => index.docOf(id) ?? []));
  const bury = new Set(rule.bury.flatMap((id) => index.docOf(id) ?? []));
  const tiers = new Int8Array(length);
  for (let i = 0; i < length; i++) tiers[i] = boost.has(docs[i]!) ? 1 : bury.has(docs[i]!) ? -1 : 0;
  return tiers;
}

function key(tenantId: string, environmentId: string): string {
  return `${tenantId}\u0000${environmentId}`;
}

function round(score: number): number {
  return Math.round(score * 1000) / 1000;
}
