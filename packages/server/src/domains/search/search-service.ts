/**
 * Search over the active catalog of each environment: the face the API modules and other domains
 * call. The indexes and their lifecycle live in search-indexes.ts, the query pipeline in
 * search-pipeline.ts, response shaping in search-response.ts; this file adds the per-request caches
 * (answers per index, parsed filters) and the questions autocomplete and recommendations ask.
 */
import type { ConfigRegistry } from '../../platform/config/registry.js';
import type { SearchConfiguration } from '../../platform/config/schema.js';
import type { Logger } from '../../platform/logger.js';
import type { BlobStore } from '../../platform/blob-store/blob-store.js';
import type { QuerySpelling } from './analytics/search-queries.js';
import { filterAttributes, type FilterNode } from '../../platform/filter-language/filter-tree.js';
import { queryWords } from './query/matcher.js';
import { similarDocuments } from './query/wordless-match.js';
import { ParsedFilters } from './filter/parsed-filters.js';
import { relaxedMatch, spellingOf } from './query/relaxed-match.js';
import { SearchIndexes, type IndexedCatalog } from './search-indexes.js';
import { emptyResult, runSearch, type SearchQuery, type SearchResult } from './search-pipeline.js';
import { combinedFilter, merchandisingFor } from './rules/context-rules.js';
import { localizeView } from '../catalog/localized.js';
import type { SearchHit } from './response/search-response.js';
import { roundScore } from './response/search-response.js';
import { planQuery } from './query/query-plan.js';
import { learningKeyOf } from './learning/learned-signal.js';
import type { SearchLearning } from './learning/search-learning.js';

export type { FacetResult } from './facets/facets.js';
export type { SortKey } from './index/search-index.js';
export type { SearchQuery, SearchResult } from './search-pipeline.js';
export type { SearchGroup, SearchHit } from './response/search-response.js';

/** Waits `whenReady` makes before a request goes ahead with what it has. */
const READY_TRIES = 3;

/** What a search reads beyond its index's kept structures (`SearchService.whenReady`). */
type ReadyRequest = Pick<SearchQuery, 'tenantId' | 'environmentId' | 'configuration' | 'sortBy' | 'filter' | 'groupBy'>;

/** Answers remembered per environment (see result-cache.ts); 0 turns the cache off. */
const RESULT_CACHE_SIZE = 1_000;

/** Filter texts kept parsed: a storefront sends the same few filters request after request. */
const PARSED_FILTERS = 200;

export class SearchService {
  private readonly indexes: SearchIndexes;
  /** The search API receives a filter as `options.filter`: a syntax error names that field. */
  private readonly filters = new ParsedFilters(PARSED_FILTERS, 'options.filter');
  /** Entries each environment's result cache holds; the benchmark sets 0 to measure the engine alone. */
  resultCacheSize = RESULT_CACHE_SIZE;

  /** What shoppers taught search (learning/search-learning.ts); the composition root sets it once tracking is open. */
  learning: SearchLearning | undefined;

  constructor(deps: { catalog: IndexedCatalog; registry: ConfigRegistry; logger: Logger; blobs?: BlobStore; onIndexBuilt?: (seconds: number) => void; dormant?: boolean }) {
    this.indexes = new SearchIndexes({ ...deps, resultCacheSize: () => this.resultCacheSize });
  }

  /**
   * The key an activity's `query` is learned under in the tenant's live index: its words as analysed
   * with the environment's first search configuration, corrected as a search of it would be.
   */
  learningKey(tenantId: string, environmentId: string, configuration: SearchConfiguration, query: string): string {
    const active = this.indexes.active(tenantId, environmentId);
    const typed = queryWords(query);
    const corrected = active === undefined || typed.length === 0 ? undefined : planQuery(active.index.vocabulary, configuration, typed).corrected;
    return learningKeyOf(configuration, corrected ?? typed.join(' '), { facets: [], filter: undefined });
  }

  /** Whether a search might be reordered by learning (search threads do not hold learned state: such a search stays here). */
  mayLearn(request: Pick<SearchQuery, 'tenantId' | 'configuration' | 'query' | 'facets' | 'filter' | 'disabled'>): boolean {
    if (this.learning === undefined || !request.configuration.learning.enabled || request.disabled.has('learning')) return false;
    return this.learning.has(request.tenantId, learningKeyOf(request.configuration, queryWords(request.query).join(' '), request));
  }

  /** Builds the indexes of catalogs that were already active when the server started. */
  start(): Promise<void> {
    return this.indexes.start();
  }

  /** Stops writing index snapshots, after waiting for those under way. */
  close(): Promise<void> {
    return this.indexes.close();
  }

  /** Waits until the index snapshots under way are written (tests). */
  snapshotsWritten(): Promise<void> {
    return this.indexes.snapshotsWritten();
  }

  /** Documents in the live indexes, every environment together. */
  documentCount(): number {
    return this.indexes.documentCount();
  }

  /** The active index's size and the attribute columns it keeps (tests, operations); undefined without one. */
  indexStats(tenantId: string, environmentId: string): { documents: number; keptColumns: number } | undefined {
    const active = this.indexes.active(tenantId, environmentId);
    return active === undefined ? undefined : { documents: active.index.size, keptColumns: active.index.keptColumns };
  }

  /** The catalog version the environment's live index holds, or undefined before its first is built. */
  activeVersion(tenantId: string, environmentId: string): number | undefined {
    return this.indexes.active(tenantId, environmentId)?.version;
  }

  /** Waits until queued item changes have reached the index, so tests read an index that includes their writes. */
  settled(): Promise<void> {
    return this.indexes.settled();
  }

  /** After a runtime configuration change: rebuilds the index when a configuration now weighs a field it lacks. */
  refreshFields(tenantId: string, environmentId: string): Promise<boolean> {
    return this.indexes.refreshFields(tenantId, environmentId);
  }

  /**
   * Items whose text shares the most distinctive words with `itemId`'s title (each shared word weighs its
   * inverse document frequency), best first, the item itself excluded. Recommendations' `similar`
   * strategy reads it; an item outside the active index, or an environment without one, gives [].
   */
  similarText(tenantId: string, environmentId: string, itemId: string, limit: number): { id: string; score: number }[] {
    const active = this.indexes.active(tenantId, environmentId);
    if (active === undefined) return [];
    const slot = active.index.docOf(itemId);
    if (slot === undefined) return [];
    return similarDocuments(active.index, slot, limit).map(({ doc, score }) => ({ id: active.index.docs[doc]!.item.id, score: roundScore(score) }));
  }

  /**
   * `hits` with their products in `language` where the items have translations (catalog/localized.ts),
   * falling back to the items' own texts; the hits themselves when no language is asked.
   */
  localized<H extends SearchHit>(tenantId: string, environmentId: string, hits: readonly H[], language: string | undefined): H[] {
    const active = this.indexes.active(tenantId, environmentId);
    if (language === undefined || active === undefined) return [...hits];
    return hits.map((hit) => {
      const slot = hit.product === undefined ? undefined : active.index.docOf(hit.id);
      return slot === undefined ? hit : { ...hit, product: localizeView(hit.product!, active.index.docs[slot]!.item, language) };
    });
  }

  /**
   * How `query`'s words match the active catalog now, without filters, paging or views: autocomplete
   * asks it about queries whose last search it does not know (recorded before a restart).
   */
  spelling(tenantId: string, environmentId: string, configuration: SearchConfiguration, query: string): QuerySpelling {
    const active = this.indexes.active(tenantId, environmentId);
    const queryText = queryWords(query);
    if (active === undefined || queryText.length === 0) return 'none';
    const run = relaxedMatch(active.index, configuration, queryText);
    return spellingOf(run.matches, run.plan, run.relaxed);
  }

  /**
   * "heart in Home Décor": the most frequent values of the configuration's first value facet among
   * `query`'s results (before paging), for autocomplete's category suggestions.
   */
  categorySuggestions(request: { tenantId: string; environmentId: string; configuration: SearchConfiguration; query: string; limit: number; filter?: string }): { facetId: string; attribute: string; value: string; count: number }[] {
    const facet = request.configuration.facets.find((f) => f.type !== 'range');
    if (facet === undefined) return [];
    const result = this.search({ ...request, offset: 0, limit: 0, sortBy: [], facets: [], filter: request.filter, disabled: new Set(['item', 'redirect']), onlyFacet: facet.id });
    if (result.relaxed || result.count === 0) return [];
    const counted = result.facets.find((f) => f.id === facet.id);
    return (counted?.values ?? []).slice(0, request.limit).map((v) => ({ facetId: facet.id, attribute: facet.attribute, value: v.value, count: v.count }));
  }

  /**
   * `ready`, asked again after each wait (a promotion may have swapped in an index that lacks what the
   * previous one built), a few times at most; resolves at once, without a turn of the event loop, when
   * nothing needs building. Past the tries, `search` builds what is still missing itself.
   */
  whenReady(request: ReadyRequest): Promise<void> | undefined {
    const waiting = this.ready(request);
    if (waiting === undefined) return undefined;
    return (async () => {
      let next: Promise<void> | undefined = waiting;
      for (let tries = 0; next !== undefined && tries < READY_TRIES; tries++) {
        await next;
        next = this.ready(request);
      }
    })();
  }

  /** The attributes each parsed filter reads (parsed trees are shared between requests with the same text). */
  private readonly filterReads = new WeakMap<FilterNode, ReadonlySet<string>>();

  /**
   * Resolves once what a search would read beyond its index's kept structures is built: the sort
   * orders (its own `sortBy` and the configuration's default order, its tie-break), the columns of
   * the attributes its filter reads and the group column of suggest's `groupBy`. Undefined when they
   * already are, which is nearly always: each is built once per catalog, and a promoted catalog's
   * index is warmed with what its predecessor's requests used. A request naming something new waits
   * while it is built in slices (sort-ranks.ts `preparing`, SearchIndex `columnsPreparing`), rather
   * than every request of every tenant waiting while it is built at once. A malformed filter is
   * refused here, as `search` would refuse it.
   */
  private ready(request: ReadyRequest): Promise<void> | undefined {
    const active = this.indexes.active(request.tenantId, request.environmentId);
    if (active === undefined) return undefined;
    const { index } = active;
    const { defaultSort } = request.configuration;
    const own = request.sortBy.length > 0 ? index.preparing(request.sortBy) : undefined;
    const fallback = defaultSort.length > 0 ? index.preparing(defaultSort) : undefined;
    const filter = request.filter === undefined || request.filter.trim() === '' ? undefined : this.filters.parse(request.filter);
    let read: ReadonlySet<string> | undefined;
    if (filter !== undefined && (read = this.filterReads.get(filter)) === undefined) this.filterReads.set(filter, (read = filterAttributes(filter)));
    const columns = index.columnsPreparing(read ?? [], request.groupBy?.attribute);
    if (own === undefined && fallback === undefined && columns === undefined) return undefined;
    return Promise.all([own, fallback, columns]).then(() => undefined);
  }

  search(asked: SearchQuery): SearchResult {
    const queryText = queryWords(asked.query);
    // The rules this query and context fire (context-rules.ts); their filters join the request's.
    const merchandising = merchandisingFor(asked.configuration, queryText.join(' '), asked.variables ?? {});
    const request = merchandising.filters.length === 0 ? asked : { ...asked, filter: combinedFilter(asked.filter, merchandising.filters) };
    // A malformed filter is refused even before the environment has a catalog: the request is wrong either way.
    const filter = request.filter === undefined || request.filter.trim() === '' ? undefined : this.filters.parse(request.filter);
    const active = this.indexes.active(request.tenantId, request.environmentId);
    if (active === undefined) return emptyResult();
    const { index, version, cache } = active;
    const learning = this.learning;
    // Ordered match lists (all matches, or the explanation's first few) and a known shopper's personal
    // order are not kept: the cache key names neither.
    if ((request.ordered !== undefined && request.ordered !== false) || (request.shopper?.events.length ?? 0) > 0) return runSearch(request, index, version, queryText, filter, merchandising, learning);
    cache.capacity = this.resultCacheSize;
    // Cache off: no key to build (get and set would do nothing with it).
    if (cache.capacity <= 0) return runSearch(request, index, version, queryText, filter, merchandising, learning);
    // The context enters the key as the rules it fired: shoppers of one store share their answers.
    const fired = merchandising.fired.map((f) => `${f.kind}${f.index}`);
    // What was learned moves the key on (at most every few seconds while votes arrive: learning/search-learning.ts `epoch`).
    const learnedEpoch = learning === undefined ? 0 : learning.epoch(request.tenantId);
    const cacheKey = cache.key(request.configuration, [queryText.join(' '), request.offset, request.limit, request.sortBy, request.facets, request.filter ?? '', [...request.disabled].sort(), request.onlyFacet ?? '', request.groupBy ?? null, fired, learnedEpoch, request.aiSearch === true]);
    const cached = cache.get(index, cacheKey);
    if (cached !== undefined) return cached;
    const result = runSearch(request, index, version, queryText, filter, merchandising, learning);
    cache.set(index, cacheKey, result);
    return result;
  }
}
